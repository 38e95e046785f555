/**
 * A small "working…" spinner. Decorative: the visible text beside it carries the meaning.
 * It is the codicon spinner rather than the toolkit's <vscode-progress-ring>: the ring's SVG
 * animation forced a layout on every frame, which doubled the panel's layout work while streaming;
 * a rotating glyph only needs the compositor.
 */
export function ProgressRing() {
  return <span class="codicon codicon-loading codicon-modifier-spin pw-ring" aria-hidden="true" />;
}
