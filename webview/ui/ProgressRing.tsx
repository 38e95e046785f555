/** The toolkit's indeterminate progress ring, for "working…" states. */
import './elements';

export function ProgressRing({ label }: { label: string }) {
  return <vscode-progress-ring class="pw-ring" aria-label={label} />;
}
