/**
 * The panel's HTML: one nonce'd script (the bundled webview), stylesheets from `media/`, and a
 * strict Content-Security-Policy. No inline script, no inline style, no `unsafe-eval`.
 */
import { randomBytes } from 'node:crypto';

export interface PanelHtmlInput {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  readonly nonce: string;
  /** `asWebviewUri` of media/webview.js. */
  readonly scriptUri: string;
  /** `asWebviewUri` of the stylesheets (codicons first, then the panel's). */
  readonly styleUris: readonly string[];
  readonly title?: string;
}

/** 128 bits from the OS random source, base64 (a valid CSP nonce). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function panelHtml(input: PanelHtmlInput): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(input.nonce))
    throw new Error('the panel nonce must be base64 of at least 12 random bytes');
  const csp = contentSecurityPolicy(input.cspSource, input.nonce);
  const styles = input.styleUris.map((u) => `    <link rel="stylesheet" href="${escapeAttr(u)}" />`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
${styles}
    <title>${escapeAttr(input.title ?? 'Planwise')}</title>
  </head>
  <body>
    <div id="root"></div>
    <script nonce="${escapeAttr(input.nonce)}" src="${escapeAttr(input.scriptUri)}"></script>
  </body>
</html>
`;
}
