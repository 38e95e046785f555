/**
 * The VS Code question for a build-side command that needs the person's yes (rules §9): the
 * exact text that will run and why it asks, with "Run Once", "Always Allow…" and "Don't Run"
 * (also Esc). "Always Allow…" is offered only when the command can be an allow-list entry; it
 * offers the command as an entry the person may edit into a prefix (`npm run build *`), checks it
 * with the engine's own reading of entries, and adds it to `planwise.buildCommandAllowList` in the
 * workspace's settings, so nobody edits settings JSON. "Don't Run" is a no: the build agent is told
 * the person did not allow the command. A flow over injected UI calls, so host tests run it
 * without VS Code.
 */
import type { CommandAnswer } from '../../core/api/ports';

/** The modal's choices, in the order they are offered. */
export type CommandChoice = 'once' | 'always' | 'refuse';

export interface CommandQuestionUi {
  /** A modal with the command whole and `choices`; `refuse` (or undefined) for Don't Run and Esc. */
  choose(message: string, detail: string, choices: readonly CommandChoice[]): Promise<CommandChoice | undefined>;
  /** The allow-list entry to add, prefilled with `suggested`; undefined for Esc. */
  entry(suggested: string, validate: (value: string) => string | undefined): Promise<string | undefined>;
}

export interface CommandQuestionDeps {
  readonly ui: CommandQuestionUi;
  /** Why an allow-list entry can never match (the engine's check), or undefined. */
  readonly entryProblem: (entry: string) => string | undefined;
  /** Adds the entry to `planwise.buildCommandAllowList` (workspace settings). */
  readonly addToAllowList: (entry: string) => Promise<void>;
}

/** The buttons' words, the same everywhere the VS Code host asks. */
export const COMMAND_CHOICE_LABEL: Record<CommandChoice, string> = {
  once: 'Run Once',
  always: 'Always Allow…',
  refuse: "Don't Run",
};

/** The words of the question, the same everywhere the VS Code host asks it. */
export function commandQuestionText(
  command: string,
  reason: string,
  canAlways: boolean,
): { message: string; detail: string } {
  const always = canAlways
    ? ' "Always Allow…" adds it (or a prefix you edit) to planwise.buildCommandAllowList for this ' +
      'workspace, so it runs without asking from now on.'
    : ' It cannot be always allowed: only one simple command can be on the allow-list.';
  return {
    message: `Planwise wants to run:\n${command}`,
    detail:
      `It needs your yes: ${reason}.\n\n` +
      `"Run Once" runs exactly this text.${always} ` +
      '"Don\'t Run" (or Esc) skips it, and the build agent is told you did not allow it.',
  };
}

/** Asks; yes, no, or "always" with the entry that was added. */
export async function askCommandQuestion(
  command: string,
  reason: string,
  deps: CommandQuestionDeps,
): Promise<CommandAnswer> {
  // Always Allow is offered only when the command itself can be an entry: a chain, a pipe or a
  // redirection never matches the allow-list, whatever prefix the person would type.
  const canAlways = deps.entryProblem(command.trim()) === undefined;
  const q = commandQuestionText(command, reason, canAlways);
  const choices: CommandChoice[] = canAlways ? ['once', 'always', 'refuse'] : ['once', 'refuse'];
  const choice = await deps.ui.choose(q.message, q.detail, choices);
  if (choice === 'once') return true;
  if (choice !== 'always') return false;
  const entry = (await deps.ui.entry(command.trim(), (v) => deps.entryProblem(v.trim())))?.trim();
  // Esc on the entry leaves the allow-list as it was; the person still chose to run the command.
  if (entry === undefined || entry === '' || deps.entryProblem(entry) !== undefined) return true;
  await deps.addToAllowList(entry);
  return { always: entry };
}
