/**
 * The host ↔ webview protocol. Both bundles import this module; every message crossing the
 * boundary is checked with `parseHostMessage` / `parseWebviewMessage`, and anything malformed is
 * logged and dropped by the receiver, never acted on.
 */
import * as z from 'zod';
import { HostMessageSchema, type HostMessage } from './hostMessages';
import { WebviewMessageSchema, type WebviewMessage } from './webviewMessages';

export * from './viewState';
export * from './hostMessages';
export * from './webviewMessages';
export * from './setup';
export * from './buildReport';
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

export type ParseResult<T> = { ok: true; msg: T } | { ok: false; error: string };

const MAX_ERROR_CHARS = 600;

function describe(kind: string, value: unknown, error: z.ZodError): string {
  const type =
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
      ? ` of type '${(value as { type: string }).type}'`
      : '';
  const detail = z.prettifyError(error).replace(/\s*\n\s*/g, '; ');
  const text = `Malformed ${kind} message${type} dropped: ${detail}`;
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}

/** Checks a message the webview received. Never throws. */
export function parseHostMessage(value: unknown): ParseResult<HostMessage> {
  const r = HostMessageSchema.safeParse(value);
  return r.success ? { ok: true, msg: r.data } : { ok: false, error: describe('host', value, r.error) };
}

/** Checks a message the host received. Never throws. */
export function parseWebviewMessage(value: unknown): ParseResult<WebviewMessage> {
  const r = WebviewMessageSchema.safeParse(value);
  return r.success ? { ok: true, msg: r.data } : { ok: false, error: describe('webview', value, r.error) };
}
