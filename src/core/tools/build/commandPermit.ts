/**
 * The one question every build-side command is put through before it runs (rules §9), whoever
 * asks: the build agent's `run_command`, the verify gate when a step is marked completed, a lens or
 * panel Run button, Run All Verify, the CLI. `decideBuildCommand` says whether it runs at once;
 * otherwise the person is asked with the exact text that will run and why. A click on a button
 * that showed the whole command is that person's yes. Nobody to ask (a non-interactive run)
 * means no, and the refusal says how to allow the command next time.
 */
import type { Judgement } from '../../gate';
import type { Approver, CommandAnswer } from '../../lifecycle/ports';
import { decideBuildCommand, type BuildPolicyContext, type RunsBecause } from './buildPolicy';

/** Who answers for a command that needs a yes. */
export interface CommandAsk {
  /** Asks the person; absent: nobody can be asked here, so such a command is refused. */
  readonly approver?: Pick<Approver, 'approveCommand' | 'commandRefused'>;
  /** False in a non-interactive run: nobody is asked (the approver is only told of the refusal). */
  readonly interactive?: boolean;
  /** The person clicked a button that showed this whole command: that click is the yes. */
  readonly clicked?: boolean;
  readonly signal?: AbortSignal;
  /** Told of an allow-list entry the person added with "Always allow", so the rest of the session matches it. */
  readonly remember?: (entry: string) => void;
}

export type CommandPermit =
  | {
      readonly ok: true;
      /** The command as asked for. */
      readonly command: string;
      /** What runs: the gate's runnable form for an admitted command, else the command as asked. */
      readonly runs: string;
      /** The read-only gate admitted it (it runs with its safe modes and writes nothing). */
      readonly gated: boolean;
      readonly via: RunsBecause | 'person';
      readonly why: string;
    }
  | { readonly ok: false; readonly command: string; readonly reason: string };

/** How a person allows a command that needed a yes, in every host's words. */
export function howToAllow(command: string): string {
  return (
    `To allow it, the person can say yes when asked, approve the plan's verify commands at the gate, ` +
    `add it to the setting planwise.buildCommandAllowList, or pass --allow-command ${shellQuote(command)} to the CLI`
  );
}

/** A word the shell reads back as `text`. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function answerOf(a: CommandAnswer): { yes: boolean; always?: string } {
  if (typeof a === 'boolean') return { yes: a };
  return { yes: true, always: a.always };
}

/**
 * Decides `command` and, when it needs a yes, asks for it. `shell` is the gate's judgement of this
 * very command when the caller already holds it (the dispatcher's), so nothing parses it twice.
 */
export async function permitCommand(
  command: string,
  ctx: BuildPolicyContext,
  ask: CommandAsk,
  shell?: Judgement,
): Promise<CommandPermit> {
  const d = await decideBuildCommand(command, ctx, shell);
  if ('run' in d && d.run) {
    const gated = d.runnable !== undefined;
    return { ok: true, command, runs: d.runnable ?? command, gated, via: d.via, why: d.why };
  }
  if (!('ask' in d)) return { ok: false, command, reason: d.reason };
  if (ask.clicked) {
    return { ok: true, command, runs: command, gated: false, via: 'person', why: 'allowed: you clicked to run it' };
  }
  if (!ask.approver || ask.interactive === false) {
    const reason =
      `blocked: \`${command}\` did not run: it needs the person's yes (${d.reason}), and nobody can be asked in ` +
      `this run. ${howToAllow(command)}.`;
    ask.approver?.commandRefused?.(command, reason);
    return { ok: false, command, reason };
  }
  if (ask.signal?.aborted) return { ok: false, command, reason: `blocked: \`${command}\` did not run: cancelled` };
  const answer = answerOf(await ask.approver.approveCommand(command, d.reason, ask.signal));
  if (!answer.yes) {
    return {
      ok: false,
      command,
      reason: `blocked: the person did not allow \`${command}\`, so it did not run. ${howToAllow(command)}.`,
    };
  }
  if (answer.always !== undefined) ask.remember?.(answer.always);
  return { ok: true, command, runs: command, gated: false, via: 'person', why: 'allowed: the person said yes' };
}
