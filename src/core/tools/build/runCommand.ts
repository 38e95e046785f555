/**
 * `run_command`: the build agent's shell. Read-only and allow-listed commands run at once; any
 * other command runs only after the person approves it through the `Approver` port. A denied or
 * refused command never reaches the runner.
 */
import * as z from 'zod';
import type { RunResult } from '../../ports';
import { EXEC_ENV, EXEC_MAX_OUTPUT_BYTES } from '../execCommand';
import { failure, resultOf } from '../result';
import type { ToolDefinition, ToolResult } from '../types';
import { agentContextOf, type AgentToolContext } from '../session/context';
import { decideBuildCommand } from './buildPolicy';

/** Builds and test suites take longer than read-only commands. */
export const RUN_COMMAND_DEFAULT_TIMEOUT_MS = 120_000;

const schema = z.object({
  command: z.string().min(1),
});

export type RunCommandArgs = z.infer<typeof schema>;

export const runCommandTool: ToolDefinition<RunCommandArgs> = {
  name: 'run_command',
  description:
    "Run a shell command in the workspace root (build, test, install). Commands that are not read-only or allow-listed need the person's approval.",
  kind: 'shell',
  schema,
  async run(args, toolCtx) {
    const ctx = agentContextOf(toolCtx, 'run_command', []);
    const root = ctx.reader.roots[0];
    if (root === undefined) return failure('run_command: no workspace folder is open');
    if (!ctx.runner) return failure('run_command is not available here: this host cannot run commands');
    const decision = decideBuildCommand(args.command, {
      roots: ctx.reader.roots,
      trusted: ctx.trusted,
      ...(ctx.home !== undefined ? { home: ctx.home } : {}),
      ...(ctx.buildAllowList ? { allowList: ctx.buildAllowList } : {}),
    });
    if ('ask' in decision) {
      const refusal = await askPerson(ctx, args.command, decision.reason);
      if (refusal) return refusal;
    } else if (!decision.run) {
      return failure(decision.reason, { blocked: true });
    }
    return execute(ctx, root, args.command);
  },
};

/** Undefined when the person approved; otherwise the result that says why the command did not run. */
async function askPerson(ctx: AgentToolContext, command: string, reason: string): Promise<ToolResult | undefined> {
  if (!ctx.approver) {
    return failure(
      `blocked: \`${command}\` needs the person's approval (${reason}), but no one can approve commands in this session; ` +
        'only read-only and allow-listed commands run here',
      { blocked: true },
    );
  }
  const approved = await ctx.approver.approveCommand(command, reason, ctx.signal);
  if (approved) return undefined;
  return failure(
    `blocked: the person did not allow \`${command}\`, so it did not run. Do not retry it; ` +
      'find another way, or say in your reply what you need run and why',
    { blocked: true },
  );
}

async function execute(ctx: AgentToolContext, root: string, command: string): Promise<ToolResult> {
  const timeoutMs = ctx.commandTimeoutMs ?? RUN_COMMAND_DEFAULT_TIMEOUT_MS;
  let run: RunResult;
  try {
    run = await ctx.runner!.run(command, {
      cwd: root,
      env: EXEC_ENV,
      timeoutMs,
      maxOutputBytes: EXEC_MAX_OUTPUT_BYTES,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
  } catch (err) {
    if (ctx.signal?.aborted) return failure('run_command was cancelled');
    return failure(`run_command failed to start: ${(err as Error).message}`);
  }
  const status = run.timedOut
    ? `timed out after ${timeoutMs / 1000} s and was killed; output so far:`
    : run.exitCode === null
      ? 'killed before it exited'
      : `exit code ${run.exitCode}`;
  const parts = [status, section('stdout', run.stdout), section('stderr', run.stderr)];
  if (run.truncated) parts.push(`[output cut: only the first ${EXEC_MAX_OUTPUT_BYTES} bytes of each stream kept]`);
  return resultOf(ctx, parts.join('\n'), { ok: run.exitCode === 0 && !run.timedOut });
}

function section(name: string, text: string): string {
  if (text === '') return `${name}: (empty)`;
  return `${name}:\n${text.endsWith('\n') ? text.slice(0, -1) : text}`;
}
