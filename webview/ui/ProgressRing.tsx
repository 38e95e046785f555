/**
 * The toolkit's indeterminate progress ring, for "working…" states. Decorative: the toolkit
 * would make it an assertive "Loading" alert, so it is hidden from assistive technology and the
 * visible text beside it carries the meaning.
 */
import './elements';

export function ProgressRing() {
  return <vscode-progress-ring class="pw-ring" aria-hidden="true" />;
}
