/**
 * The panel's HTML document, as the host serves it and the page tests load it. Kept beside the
 * protocol because it is part of the host↔webview contract: the bundle renders into `#root`,
 * and the content security policy below is the one the bundle is tested under.
 *
 * Policy: no default sources; scripts only with the per-load nonce; styles and fonts only from
 * the webview's own resource origin or with a separate style nonce (the UI toolkit reads it from
 * `<meta property="csp-nonce">` for its one `:focus-visible` feature probe). No `unsafe-inline`,
 * no `unsafe-eval`.
 *
 * For a fast first paint the host writes two things into the page itself. Its style sheets, as
 * nonce'd `<style>` elements: each linked sheet would be its own fetch through VS Code's webview
 * resource loader, one after another, and the bundle does not run before every sheet linked ahead
 * of it has arrived. And its first snapshot, as a JSON data block, so the panel renders the
 * host's state without waiting for the `ready` → `snapshot` round trip. The bundle itself stays a
 * file: written into the page it would make the page much larger than the one fetch it saves.
 */

/** The id of the `<script type="application/json">` element that carries the page's snapshot. */
export const PAGE_SNAPSHOT_ID = 'planwise-page-snapshot';

/** What the page's data block holds: the host's first message, and an id for this page. */
export interface PageSnapshot {
  /** Fresh per rendered page: a view VS Code re-creates from the same HTML reuses it. */
  readonly page: string;
  /** The host's snapshot message, as it would have been posted. */
  readonly message: unknown;
}

export interface PanelHtmlOptions {
  /** `webview.cspSource`: the origin the panel's files are served from. */
  cspSource: string;
  /** A fresh random nonce per render, e.g. `crypto.randomBytes(16).toString('base64')`. */
  scriptNonce: string;
  /** Another fresh random nonce, different from `scriptNonce`. */
  styleNonce: string;
  /**
   * The panel's entry module, `media/panel/main.js`, as a webview URI. The chunks it imports after
   * the first paint (`check.js`, `markdown.js`) are beside it: the page names their folder on
   * `<body data-chunks>`, and they are fetched with the entry's nonce (a module script's imports
   * inherit its nonce, so the policy needs no other source).
   */
  scriptUri: string;
  /**
   * The entry's code, written into the page as an inline module script instead of linking
   * `scriptUri`: the page then needs no fetch before its first paint.
   */
  script?: string;
  /** Style sheets linked in `<head>`, in order (before `styles`). */
  styleUris?: readonly string[];
  /** Style sheet texts written into `<head>` as nonce'd `<style>` elements, in order. */
  styles?: readonly string[];
  /** Written into the page as JSON for the bundle to render before any message arrives. */
  snapshot?: PageSnapshot;
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

/**
 * JSON that a `<script>` data block holds verbatim: every `<` is written `\u003c`, so no
 * `</script`, `<!--` or `<script` can end the element or change how the HTML parser reads it (the
 * restrictions on a script element's contents in the HTML standard), and JSON.parse reads it back
 * unchanged.
 */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * A script written into the page must not hold `</script`, which would end its element early, nor
 * `<script`, which after a `<!--` makes the parser skip the next `</script` (the restrictions on a
 * script element's contents in the HTML standard); this refuses one instead of writing a broken page.
 */
function checkScript(text: string): string {
  const m = /<\/?script/i.exec(text);
  if (m)
    throw new Error(`The panel's script cannot be written into the page: it contains '${m[0]}' at offset ${m.index}.`);
  return text;
}

/** The folder of a URL, with its trailing slash. */
function folderOf(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}

/**
 * A style sheet written into the page must not hold `</style`, which would end its element early
 * and let the rest be read as markup; this refuses one instead of writing a broken page.
 */
function checkStyle(text: string): string {
  const m = /<\/style/i.exec(text);
  if (m)
    throw new Error(
      `The panel's style sheet cannot be written into the page: it contains '${m[0]}' at offset ${m.index}.`,
    );
  return text;
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
  const links = (uris: readonly string[] | undefined) =>
    (uris ?? []).map((u) => `    <link rel="stylesheet" href="${attr(u)}" />\n`).join('');
  const styles = (o.styles ?? [])
    .map((text) => `    <style nonce="${attr(o.styleNonce)}">\n${checkStyle(text)}\n    </style>\n`)
    .join('');
  const entry =
    o.script !== undefined
      ? `<script type="module" nonce="${attr(o.scriptNonce)}">${checkScript(o.script)}</script>`
      : `<script type="module" nonce="${attr(o.scriptNonce)}" src="${attr(o.scriptUri)}"></script>`;
  const data = o.snapshot
    ? `    <script type="application/json" id="${PAGE_SNAPSHOT_ID}">${jsonForScriptElement(o.snapshot)}</script>\n`
    : '';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="${attr(csp)}" />
    <meta property="csp-nonce" content="${attr(o.styleNonce)}" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
${links(o.styleUris)}${styles}    <title>${attr(o.title ?? 'Planwise')}</title>
  </head>
  <body data-chunks="${attr(folderOf(o.scriptUri))}"${o.resolvedAt !== undefined && Number.isFinite(o.resolvedAt) ? ` data-resolved-at="${Math.trunc(o.resolvedAt)}"` : ''}>
    <div id="root"></div>
${data}    ${entry}
  </body>
</html>
`;
}
