/** `exec_command`: one read-only shell command, admitted by the gate before anything runs. */
import * as z from 'zod';
import { checkShellCommand } from '../gate';
import { failure, resultOf } from './result';
import { symlinkEscape } from './symlinkEscape';
import type { ToolDefinition } from './types';

export const EXEC_DEFAULT_TIMEOUT_MS = 30000;
/** Bytes kept of each of stdout and stderr; the result is then previewed/spooled as usual. */
export const EXEC_MAX_OUTPUT_BYTES = 1024 * 1024;

/** Pagers off, no lock files, no external diff program. `undefined` removes a variable. */
export const EXEC_ENV: Readonly<Record<string, string | undefined>> = {
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_EXTERNAL_DIFF: undefined,
};

const schema = z.object({
  command: z.string().min(1),
});

export type ExecCommandArgs = z.infer<typeof schema>;

export const execCommandTool: ToolDefinition<ExecCommandArgs> = {
  name: 'exec_command',
  description: 'Run a read-only shell command in the workspace root (e.g. ls, rg, git log). Writes are blocked.',
  kind: 'shell',
  schema,
  async run(args, ctx) {
    if (!ctx.trusted) {
      return failure(
        'blocked: exec_command is off because this workspace is not trusted; use read_file, list_files and code_search instead',
        { blocked: true },
      );
    }
    const root = ctx.reader.roots[0];
    if (root === undefined) return failure('exec_command: no workspace folder is open');
    const verdict = checkShellCommand(args.command, {
      roots: ctx.reader.roots,
      trusted: ctx.trusted,
      ...(ctx.home !== undefined ? { home: ctx.home } : {}),
    });
    if (!verdict.allowed) return failure(verdict.reason, { blocked: true });
    if (!ctx.runner) return failure('exec_command is not available here: this host cannot run commands');
    const escape = await symlinkEscape(args.command, ctx.reader, root);
    if (escape !== undefined) {
      return failure(`blocked: path '${escape}' resolves outside the workspace through a symlink`, { blocked: true });
    }

    const timeoutMs = ctx.execTimeoutMs ?? EXEC_DEFAULT_TIMEOUT_MS;
    let run;
    try {
      run = await ctx.runner.run(args.command, {
        cwd: root,
        env: EXEC_ENV,
        timeoutMs,
        maxOutputBytes: EXEC_MAX_OUTPUT_BYTES,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    } catch (err) {
      if (ctx.signal?.aborted) return failure('exec_command was cancelled');
      return failure(`exec_command failed to start: ${(err as Error).message}`);
    }

    const status = run.timedOut
      ? `timed out after ${timeoutMs / 1000} s and was killed; output so far:`
      : run.exitCode === null
        ? 'killed before it exited'
        : `exit code ${run.exitCode}`;
    const parts = [status, section('stdout', run.stdout), section('stderr', run.stderr)];
    if (run.truncated) parts.push(`[output cut: only the first ${EXEC_MAX_OUTPUT_BYTES} bytes of each stream kept]`);
    const ok = run.exitCode === 0 && !run.timedOut;
    const lowSignal = run.stdout.trim() === '' && (!ok || run.stderr.trim() === '');
    return resultOf(ctx, parts.join('\n'), { ok, lowSignal });
  },
};

function section(name: string, text: string): string {
  if (text === '') return `${name}: (empty)`;
  return `${name}:\n${text.endsWith('\n') ? text.slice(0, -1) : text}`;
}
