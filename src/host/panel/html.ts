/**
 * The panel's HTML comes from the protocol's `renderPanelHtml` (the same page the Chromium tests
 * load, under the same strict CSP); the host supplies fresh random nonces for every render.
 */
import { randomBytes } from 'node:crypto';
import { renderPanelHtml } from '../../protocol';

export interface PanelHtmlInput {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  /** `asWebviewUri` of media/webview.js. */
  readonly scriptUri: string;
  /** `asWebviewUri` of the stylesheets (codicons first, then the panel's). */
  readonly styleUris: readonly string[];
  readonly title?: string;
  /** `Date.now()` when VS Code asked for the view (before the host's bundle loaded). */
  readonly resolvedAt?: number;
}

/** 128 bits from the OS random source, base64 (a valid CSP nonce). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The page with a fresh script nonce and a different fresh style nonce. */
export function panelHtml(input: PanelHtmlInput): string {
  return renderPanelHtml({ ...input, scriptNonce: createNonce(), styleNonce: createNonce() });
}
