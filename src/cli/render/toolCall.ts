/**
 * One line per tool call, in the words its tool chose (the event's title), with the outcome (✓
 * ran, ! failed, ✗ not run, with the reason). Failed results get one short line of their own.
 */
import type { ItemPayload } from '../../core/api/sessions';
import type { FileChange } from '../../core/api/build';
import type { Style } from './style';

const MAX_ARG_CHARS = 100;

function clip(text: string, max = MAX_ARG_CHARS): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** The call in a person's words: the title its tool gave it, or (an older archive) its name and arguments. */
export function callTitle(tool: NonNullable<ItemPayload['tool']>): string {
  return tool.title ?? `${tool.name} ${clip(tool.arguments)}`;
}

/** "+3 −1": the lines a file tool added and removed, as its result event counted them. */
export function changeCounts(change: FileChange, style: Style): string {
  return `${style.green(`+${change.added}`)} ${style.red(`\u2212${change.removed}`)}`;
}

/**
 * `✓ Read README.md` once a call has run, or `✗ Not run: `rm -rf x` — blocked: …` for a call the
 * gate or the policy refused. A call that ran and failed is marked `!`, its reason on the next line.
 * A file tool's line takes its result's words and counts: `✓ Edited src/a.ts +3 −1`.
 */
export function toolCallLine(
  item: ItemPayload,
  style: Style,
  ok = true,
  result?: ItemPayload['result'],
): string | undefined {
  if (!item.tool) return undefined;
  const verdict = item.verdict;
  if (verdict && !verdict.allowed) {
    const subject = item.tool.subject ?? item.tool.name;
    return `  ${style.red('✗')} Not run: ${subject} ${style.red(`— ${clip(verdict.reason, 200)}`)}`;
  }
  const title = result?.title ?? callTitle(item.tool);
  const counts = result?.change ? ` ${changeCounts(result.change, style)}` : '';
  return `  ${ok ? style.green('✓') : style.yellow('!')} ${title}${counts}`;
}

/** A file change's line for the person (it waits unsaved in their editor), under its call's line. */
export function changeNoteLine(item: ItemPayload, style: Style): string | undefined {
  const note = item.result?.change?.note;
  return note === undefined ? undefined : `    ${style.yellow('↳')} ${note}`;
}

/** A short line for a failed (not blocked) result, so the person sees why a call did not help. */
export function failedResultLine(item: ItemPayload, style: Style): string | undefined {
  const r = item.result;
  if (!r || r.ok) return undefined;
  const first = r.preview.split('\n').find((l) => l.trim() !== '') ?? 'failed';
  return `    ${style.yellow('↳')} ${style.dim(clip(first, 160))}`;
}
