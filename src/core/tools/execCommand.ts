/** `exec_command`: one read-only shell command, admitted by the gate before anything runs. */
import * as z from 'zod';
import { judgeCommand } from '../gate';
import { failure } from './result';
import { runShell } from './shellRun';
import { gateContextOf, type ToolDefinition } from './types';
import { code, stringArg } from './describe';

export { EXEC_ENV, EXEC_MAX_OUTPUT_BYTES, GATED_ENV } from './shellRun';

export const EXEC_DEFAULT_TIMEOUT_MS = 30000;

const schema = z.object({
  command: z.string().min(1),
});

export type ExecCommandArgs = z.infer<typeof schema>;

export const execCommandTool: ToolDefinition<ExecCommandArgs> = {
  name: 'exec_command',
  description: 'Run a read-only shell command in the workspace root (e.g. ls, rg, git log). Writes are blocked.',
  kind: 'shell',
  schema,
  describe(args) {
    const command = code(stringArg(args, 'command') ?? '');
    return { title: `Ran ${command}`, subject: command };
  },
  async run(args, ctx) {
    if (!ctx.trusted) {
      return failure(
        'blocked: exec_command is off because this workspace is not trusted; use read_file, list_files and code_search instead',
        { blocked: true },
      );
    }
    const root = ctx.reader.roots[0];
    if (root === undefined) return failure('exec_command: no workspace folder is open');
    // The dispatcher judged this very command already; judging here too covers direct callers.
    const judgement =
      ctx.shell?.command === args.command ? ctx.shell : await judgeCommand(args.command, gateContextOf(ctx));
    if (!judgement.verdict.allowed || !judgement.parsed) return failure(judgement.verdict.reason, { blocked: true });
    if (!ctx.runner) return failure('exec_command is not available here: this host cannot run commands');
    return runShell(ctx, {
      tool: 'exec_command',
      command: judgement.parsed.runnable,
      env: judgement.parsed.env,
      root,
      runner: ctx.runner,
      timeoutMs: ctx.execTimeoutMs ?? EXEC_DEFAULT_TIMEOUT_MS,
      flagLowSignal: true,
      gated: true,
      captured: true,
    });
  },
};
