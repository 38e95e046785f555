/**
 * The VS Code question for a build-side command that needs the person's yes (rules §9): the
 * exact text that will run and why it asks, with "Run Once" and "Always Allow…". "Always Allow…"
 * offers the command as an allow-list entry the person may edit into a prefix (`npm run build *`),
 * checks it with the engine's own reading of entries, and adds it to
 * `planwise.buildCommandAllowList` in the workspace's settings, so nobody edits settings JSON. A
 * flow over injected UI calls, so host tests run it without VS Code.
 */
import type { CommandAnswer } from '../../core/index';

export interface CommandQuestionUi {
  /** A modal with the command whole; undefined for Esc or Cancel. */
  choose(message: string, detail: string): Promise<'once' | 'always' | undefined>;
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

/** The words of the question, the same everywhere the VS Code host asks it. */
export function commandQuestionText(command: string, reason: string): { message: string; detail: string } {
  return {
    message: `Planwise wants to run:\n${command}`,
    detail:
      `It needs your yes: ${reason}.\n\n` +
      '"Run Once" runs exactly this text. "Always Allow…" adds it (or a prefix you edit) to ' +
      'planwise.buildCommandAllowList for this workspace, so it runs without asking from now on.',
  };
}

/** Asks; yes, no, or "always" with the entry that was added. */
export async function askCommandQuestion(
  command: string,
  reason: string,
  deps: CommandQuestionDeps,
): Promise<CommandAnswer> {
  const q = commandQuestionText(command, reason);
  const choice = await deps.ui.choose(q.message, q.detail);
  if (choice === 'once') return true;
  if (choice !== 'always') return false;
  const entry = (await deps.ui.entry(command.trim(), (v) => deps.entryProblem(v.trim())))?.trim();
  // Esc on the entry leaves the allow-list as it was; the person still chose to run the command.
  if (entry === undefined || entry === '' || deps.entryProblem(entry) !== undefined) return true;
  await deps.addToAllowList(entry);
  return { always: entry };
}
