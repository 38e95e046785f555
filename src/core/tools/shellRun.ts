/**
 * Running one command that a shell tool already admitted, and the text the model reads back:
 * the exit status, stdout and stderr, and a note when output was cut. Shared by `exec_command`
 * and the build agent's `run_command`, which differ only in how they admit a command.
 */
import { GATE_RUN_ENV } from '../gate/runEnv';
import type { CommandRunner } from '../ports';
import { failure, resultOf } from './result';
import type { ToolContext, ToolResult } from './types';

/** Bytes kept of each of stdout and stderr; the result is then previewed/spooled as usual. */
export const EXEC_MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Pagers off, no lock files, no external diff program; and none of the shell variables that would
 * make the shell read the command differently from the gate (`CDPATH` sends `cd src` elsewhere,
 * `GLOBIGNORE` changes what a glob matches, `IFS` how words split). `undefined` removes a variable.
 */
export const EXEC_ENV: Readonly<Record<string, string | undefined>> = {
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_EXTERNAL_DIFF: undefined,
  CDPATH: undefined,
  GLOBIGNORE: undefined,
  IFS: undefined,
};

/**
 * For a command the read-only gate admitted: its `ParsedCommand.env` (the C locale the gate's glob
 * expansion assumed, git's configuration that outranks the repository's, programs' configuration
 * variables removed). Commands the person approved keep the locale and the rest; they were not
 * judged by the gate.
 */
export const GATED_ENV: Readonly<Record<string, string | undefined>> = GATE_RUN_ENV;

export interface ShellRun {
  /** The tool's name, for the cancelled and failed-to-start messages. */
  readonly tool: string;
  readonly command: string;
  /** The workspace root the command runs in. */
  readonly root: string;
  readonly runner: CommandRunner;
  readonly timeoutMs: number;
  /** Mark the result low-signal when stdout is empty (and, on success, stderr too). */
  readonly flagLowSignal: boolean;
  /** The gate admitted the command: it runs with `GATED_ENV`, else with `EXEC_ENV`. */
  readonly gated: boolean;
  /** The environment the gate's parse gives the command (`ParsedCommand.env`), when there is one. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Inspection, not building: a captured process, never the person's visible terminal. */
  readonly captured?: boolean;
  /**
   * Runs once the command ended (exited, timed out or was cancelled): what it changed, as lines
   * after its output; `refused` makes the result not ok, `endsTurn` ends the turn.
   */
  readonly settle?: () => Promise<{ readonly note: string; readonly refused: boolean; readonly endsTurn?: string }>;
}

/** Runs the command with its environment and the output cap; the result is ok on exit code 0 within the timeout. */
export async function runShell(ctx: ToolContext, shell: ShellRun): Promise<ToolResult> {
  let run;
  try {
    run = await shell.runner.run(shell.command, {
      cwd: shell.root,
      env: shell.env ?? (shell.gated ? GATED_ENV : EXEC_ENV),
      timeoutMs: shell.timeoutMs,
      maxOutputBytes: EXEC_MAX_OUTPUT_BYTES,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(shell.captured ? { captured: true } : {}),
    });
  } catch (err) {
    const settled = await shell.settle?.();
    const note = settled?.note ? `\n${settled.note}` : '';
    if (ctx.signal?.aborted) return failure(`${shell.tool} was cancelled${note}`);
    return failure(`${shell.tool} failed to start: ${(err as Error).message}${note}`);
  }

  const status = run.timedOut
    ? `timed out after ${shell.timeoutMs / 1000} s and was killed; output so far:`
    : run.exitCode === null
      ? 'killed before it exited'
      : `exit code ${run.exitCode}`;
  const parts = [status, section('stdout', run.stdout), section('stderr', run.stderr)];
  if (run.truncated) parts.push(`[output cut: only the first ${EXEC_MAX_OUTPUT_BYTES} bytes of each stream kept]`);
  const settled = await shell.settle?.();
  if (settled?.note) parts.push(settled.note);
  const ok = run.exitCode === 0 && !run.timedOut && settled?.refused !== true;
  const lowSignal = shell.flagLowSignal && run.stdout.trim() === '' && (!ok || run.stderr.trim() === '');
  return resultOf(ctx, parts.join('\n'), {
    ok,
    lowSignal,
    ...(settled?.endsTurn !== undefined ? { endsTurn: settled.endsTurn } : {}),
  });
}

function section(name: string, text: string): string {
  if (text === '') return `${name}: (empty)`;
  return `${name}:\n${text.endsWith('\n') ? text.slice(0, -1) : text}`;
}
