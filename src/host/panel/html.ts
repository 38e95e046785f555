/**
 * The panel's HTML comes from the protocol's `renderPanelHtml` (the same page the Chromium tests
 * load, under the same strict CSP); the host supplies fresh random nonces and a fresh page id for
 * every render.
 */
import { randomBytes } from 'node:crypto';
import type { HostMessage } from '../../protocol';
import { renderPanelHtml } from '../../protocol/panelHtml';
import { panelStyles, type PanelAssets } from './assets';

export interface PanelHtmlInput {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  /** `asWebviewUri` of media/panel/main.js, media/codicons/codicon.ttf, and the style sheets (codicons, then the panel's). */
  readonly uris: { readonly script: string; readonly font: string; readonly styles: readonly string[] };
  /** The style sheets to write into the page; without them the page links `uris.styles` instead. */
  readonly assets?: PanelAssets;
  /** The hub's snapshot, rendered before any message arrives. */
  readonly snapshot?: HostMessage;
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
  const { assets, uris } = input;
  return renderPanelHtml({
    cspSource: input.cspSource,
    scriptNonce: createNonce(),
    styleNonce: createNonce(),
    scriptUri: uris.script,
    ...(assets ? { styles: panelStyles(assets, uris.font), script: assets.script } : { styleUris: uris.styles }),
    snapshot: input.snapshot && { page: createNonce(), message: input.snapshot },
    title: input.title,
    resolvedAt: input.resolvedAt,
  });
}
