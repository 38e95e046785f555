/**
 * Checks every message that crosses the host ↔ webview boundary against the protocol's schemas.
 * Never throws: a malformed message comes back as an error text for the receiver to log.
 */
import * as z from 'zod';
import { HostMessageSchema, type HostMessage } from './hostMessages';
import { WebviewMessageSchema, type WebviewMessage } from './webviewMessages';

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
