/**
 * The host ↔ webview protocol. Both bundles import this module; every message crossing the
 * boundary is checked with `parseHostMessage` / `parseWebviewMessage` (./parse), and anything
 * malformed is logged and dropped by the receiver, never acted on. The barrel only re-exports:
 * a bundle builds the schemas only if it uses a module that holds them.
 */

export * from './viewState';
export * from './tracker';
export { emptyViewState } from './emptyState';
export * from './hostMessages';
export * from './webviewMessages';
export * from './setup';
export * from './presets';
export * from './buildReport';
export * from './instructions';
export { applyOps, coalesceOps } from './apply';
export { ViewModel } from './viewModel';
export {
  PAGE_SNAPSHOT_ID,
  jsonForScriptElement,
  renderPanelHtml,
  type PageSnapshot,
  type PanelHtmlOptions,
} from './panelHtml';
export { formatAgo } from './ago';
export { parseHostMessage, parseWebviewMessage, type ParseResult } from './parse';
