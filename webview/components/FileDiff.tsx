/**
 * A file tool's change: the counts after its row's title ("+3 −1") and the unified diff the row
 * opens to. The diff is the engine's text, shown as text (never parsed as markup), one line per
 * element so added and removed lines take the theme's diff colours.
 */
import type { FileChangeView } from '../../src/protocol';

/** "+3 −1": lines added and removed, with the minus sign a person reads. */
export function ChangeCounts({ change }: { change: FileChangeView }) {
  return (
    <span class="pw-change-counts">
      <span class="pw-added">+{change.added}</span> <span class="pw-removed">{`\u2212${change.removed}`}</span>
    </span>
  );
}

function lineClass(line: string): string {
  if (line.startsWith('+++ ') || line.startsWith('--- ')) return 'pw-diff-file';
  if (line.startsWith('@@')) return 'pw-diff-hunk';
  if (line.startsWith('+')) return 'pw-diff-add';
  if (line.startsWith('-')) return 'pw-diff-del';
  if (line.startsWith('\\')) return 'pw-diff-note';
  return 'pw-diff-same';
}

export function FileDiff({ change }: { change: FileChangeView }) {
  if (change.diff === '') return <p class="pw-diff-empty pw-muted">No lines changed.</p>;
  const lines = change.diff.split('\n');
  return (
    // Scrolls when long, so it takes focus and the keyboard can scroll it too.
    <pre class="pw-diff" tabIndex={0} aria-label="Changes, as a unified diff">
      {lines.map((line, i) => (
        <span key={i} class={`pw-diff-line ${lineClass(line)}`}>
          {line}
          {'\n'}
        </span>
      ))}
      {change.omitted > 0 ? (
        <span class="pw-diff-line pw-diff-note">
          … {change.omitted} more line{change.omitted === 1 ? '' : 's'} not shown
        </span>
      ) : null}
    </pre>
  );
}
