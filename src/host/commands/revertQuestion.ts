/**
 * The one question Revert Build asks: what it reverts, and which of those files the person changed
 * after the build (their changes would be replaced). Files only the build, Planwise's own reverts
 * or an Undo of one touched are not the person's (`RevertItem.personChanged`). The safer choice
 * comes first, so it is the dialog's default; Esc and Cancel revert nothing.
 */
import type { RevertItem } from '../../core/api/build';

export interface RevertChoice {
  readonly label: string;
  /** What this choice reverts. */
  readonly items: readonly RevertItem[];
}

export interface RevertQuestion {
  readonly message: string;
  readonly detail: string;
  readonly choices: readonly RevertChoice[];
}

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
const line = (i: RevertItem) => `${i.op === 'remove' ? 'remove' : 'restore'} ${i.path}`;

/** `target` says what the files go back to: "step 2", "the state before the build". */
export function revertQuestion(items: readonly RevertItem[], target: string): RevertQuestion {
  const mine = items.filter((i) => i.personChanged);
  const rest = items.filter((i) => !i.personChanged);
  const undo = 'The diff is open beside. Undo brings back what the revert replaces.';
  if (mine.length === 0) {
    return {
      message: `Revert ${files(items.length)} to ${target}?`,
      detail: `${items.map(line).join('\n')}\n\n${undo}`,
      choices: [{ label: 'Revert', items }],
    };
  }
  const changed = mine.length === 1 ? `${mine[0]!.path} was` : `${mine.length} of them were`;
  return {
    message: `Revert ${files(items.length)} to ${target}? ${changed} changed after the build.`,
    detail: [
      `Changed after the build (your changes would be replaced):\n${mine.map(line).join('\n')}`,
      ...(rest.length > 0 ? [`Only the build changed:\n${rest.map(line).join('\n')}`] : []),
      rest.length > 0 ? `"Revert, Keep My Changes" reverts only what the build changed. ${undo}` : undo,
    ].join('\n\n'),
    choices: [
      ...(rest.length > 0 ? [{ label: 'Revert, Keep My Changes', items: rest }] : []),
      { label: 'Revert All', items },
    ],
  };
}
