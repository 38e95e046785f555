/**
 * `run_command`: the build agent's shell, through the build side's one command policy
 * (`permitCommand`, rules §9). Read-only, allow-listed and plan-approved commands run at once; any
 * other command runs only after the person approves it through the `Approver` port (nobody to ask,
 * in a non-interactive run, is a refusal that says how to allow it). A denied or refused command
 * never reaches the runner. While building, the workspace is scanned before and
 * after the command: its changes are scope-checked, checkpointed for Revert Build and reported
 * (`src/core/build/shellSettle.ts`).
 */
import * as z from 'zod';
import { failure } from '../result';
import { runShell } from '../shellRun';
import { gateContextOf, type ToolDefinition } from '../types';
import { agentContextOf } from '../session/context';
import { permitCommand } from './commandPermit';
import { beforeShell, settleShell } from '../../build/shellSettle';
import type { TreeScan } from '../../build/shellWatch';
import { code, stringArg } from '../describe';

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
  describe(args) {
    const command = code(stringArg(args, 'command') ?? '');
    return { title: `Ran ${command}`, subject: command };
  },
  async run(args, toolCtx) {
    const ctx = agentContextOf(toolCtx, 'run_command', []);
    const root = ctx.reader.roots[0];
    if (root === undefined) return failure('run_command: no workspace folder is open');
    if (!ctx.runner) return failure('run_command is not available here: this host cannot run commands');
    const permit = await permitCommand(
      args.command,
      {
        ...gateContextOf(ctx),
        allowList: ctx.buildAllowList ?? [],
        ...(ctx.approvedCommands ? { approved: ctx.approvedCommands } : {}),
      },
      {
        ...(ctx.approver ? { approver: ctx.approver } : {}),
        interactive: ctx.interactive,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(ctx.rememberCommand ? { remember: ctx.rememberCommand } : {}),
      },
      ctx.shell,
    );
    if (!permit.ok) {
      const tail = permit.reason.startsWith('blocked: the person did not allow')
        ? ' Do not retry it; find another way, or say in your reply what you need run and why.'
        : '';
      return failure(`${permit.reason}${tail}`, { blocked: true });
    }
    const gated = permit.gated;
    // While building, what the command changes is scope-checked and checkpointed (shellSettle.ts);
    // a command the read-only gate admitted writes nothing, so it is not watched.
    const guard = gated ? undefined : ctx.build;
    let before: TreeScan | undefined;
    if (guard) {
      try {
        before = await beforeShell(guard, ctx.signal);
      } catch (err) {
        if (ctx.signal?.aborted) return failure('run_command was cancelled');
        return failure(
          `run_command did not run: the workspace could not be scanned first, so its changes could not be checkpointed (${(err as Error).message})`,
        );
      }
    }
    return runShell(ctx, {
      tool: 'run_command',
      command: permit.runs,
      root,
      runner: ctx.runner,
      timeoutMs: ctx.commandTimeoutMs ?? RUN_COMMAND_DEFAULT_TIMEOUT_MS,
      flagLowSignal: false,
      gated,
      ...(guard && before
        ? {
            settle: async () => {
              const s = await settleShell(guard, args.command, before, ctx.signal);
              return { note: s.note, refused: s.undone.length > 0, ...(s.endsTurn ? { endsTurn: s.endsTurn } : {}) };
            },
          }
        : {}),
    });
  },
};
