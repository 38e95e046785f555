/**
 * The panel's HTML document, as the host serves it and the page tests load it. Kept beside the
 * protocol because it is part of the host↔webview contract: the bundle renders into `#root`,
 * and the content security policy below is the one the bundle is tested under.
 *
 * Policy: no default sources; scripts only with the per-load nonce; styles and fonts only from
 * the webview's own resource origin, plus a separate style nonce that the UI toolkit reads from
 * `<meta property="csp-nonce">` for its one `:focus-visible` feature probe. No `unsafe-inline`,
 * no `unsafe-eval`.
 */

export interface PanelHtmlOptions {
  /** `webview.cspSource`: the origin the panel's files are served from. */
  cspSource: string;
  /** A fresh random nonce per render, e.g. `crypto.randomBytes(16).toString('base64')`. */
  scriptNonce: string;
  /** Another fresh random nonce, different from `scriptNonce`. */
  styleNonce: string;
  /** The bundle, `media/webview.js`, as a webview URI. */
  scriptUri: string;
  /** Style sheets in order, e.g. `media/codicons/codicon.css` then `media/panel.css`. */
  styleUris: readonly string[];
  title?: string;
  /**
   * `Date.now()` when the host was asked to resolve the view, written as `data-resolved-at` on
   * `<body>`: the webview measures its first paint from it (webview/firstPaint.ts).
   */
  resolvedAt?: number;
}

const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

function attr(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderPanelHtml(o: PanelHtmlOptions): string {
  for (const [name, nonce] of [
    ['scriptNonce', o.scriptNonce],
    ['styleNonce', o.styleNonce],
  ] as const) {
    if (!NONCE.test(nonce)) {
      throw new Error(`${name} must be at least 16 base64 characters from a fresh random source; got '${nonce}'.`);
    }
  }
  if (o.scriptNonce === o.styleNonce) throw new Error('scriptNonce and styleNonce must differ.');
  // Desktop VS Code gives one origin; the web workbench (code-server) gives `'self' https://*.vscode-cdn.net`.
  const sources = o.cspSource.trim().split(/\s+/);
  if (o.cspSource.trim() === '' || !sources.every((t) => t === "'self'" || !/[;,']/.test(t))) {
    throw new Error(
      `cspSource '${o.cspSource}' is not a single CSP source (or 'self' and origins, as VS Code gives it).`,
    );
  }
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${o.scriptNonce}'`,
    `style-src ${o.cspSource} 'nonce-${o.styleNonce}'`,
    `font-src ${o.cspSource}`,
    `img-src ${o.cspSource}`,
  ].join('; ');
  const styles = o.styleUris.map((u) => `    <link rel="stylesheet" href="${attr(u)}" />`).join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="${attr(csp)}" />
    <meta property="csp-nonce" content="${attr(o.styleNonce)}" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
${styles}
    <title>${attr(o.title ?? 'Planwise')}</title>
  </head>
  <body${o.resolvedAt !== undefined && Number.isFinite(o.resolvedAt) ? ` data-resolved-at="${Math.trunc(o.resolvedAt)}"` : ''}>
    <div id="root"></div>
    <script nonce="${attr(o.scriptNonce)}" src="${attr(o.scriptUri)}"></script>
  </body>
</html>
`;
}
