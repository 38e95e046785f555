import assert from 'node:assert/strict';
import { createNonce, panelHtml } from '../../src/host/panel/html';
import { emptyViewState } from '../../src/protocol';

const CSP_SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';
const input = {
  cspSource: CSP_SOURCE,
  uris: {
    script: `${CSP_SOURCE}/ext/media/panel/main.js`,
    font: `${CSP_SOURCE}/ext/media/codicons/codicon.ttf`,
    styles: [`${CSP_SOURCE}/ext/media/codicons/codicon.css`, `${CSP_SOURCE}/ext/media/panel.css`],
  },
};
const assets = {
  glyphs: ".codicon[class*='codicon-'] { font: normal normal normal 16px/1 codicon; }",
  panel: '.codicon-modifier-spin.pw-ring { animation: none; }',
  script: 'document.body.dataset.started = "1";',
};

function cspOf(html: string): string {
  return /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!.replace(/&#39;/g, "'");
}

describe('panel HTML served by the host', () => {
  it('makes a fresh 128-bit nonce each time', () => {
    assert.equal(Buffer.from(createNonce(), 'base64').length, 16);
    assert.notEqual(createNonce(), createNonce());
  });

  it('has a strict policy: nothing by default, nonce scripts, styles and fonts from the extension only', () => {
    const csp = cspOf(panelHtml(input));
    assert.match(
      csp,
      /^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]{24}'; style-src \S+ 'nonce-[A-Za-z0-9+/=]{24}'; font-src \S+; img-src \S+$/,
    );
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline|\*/);
  });

  it('uses different nonces for scripts and styles, and new ones on every render', () => {
    const a = cspOf(panelHtml(input));
    const b = cspOf(panelHtml(input));
    const nonces = [...a.matchAll(/'nonce-([^']+)'/g)].map((m) => m[1]);
    assert.equal(nonces.length, 2);
    assert.notEqual(nonces[0], nonces[1]);
    assert.notEqual(a, b);
  });

  it('without the style sheets read, links them and exactly one script, with the nonce, and no inline script or style', () => {
    const html = panelHtml(input);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]![1]!, /nonce="[^"]+"/);
    assert.match(scripts[0]![1]!, /^ type="module" nonce="[^"]+" src="[^"]+\/media\/panel\/main\.js"$/);
    assert.equal(scripts[0]![2]!.trim(), '', 'no inline script body');
    assert.doesNotMatch(html, /<style|\sstyle="|\son[a-z]+="/);
    assert.match(html, /<div id="root"><\/div>/);
    assert.equal((html.match(/<link rel="stylesheet"/g) ?? []).length, 2);
  });

  it("with media/ read, writes the style sheets and the entry into the page: the codicon font by its webview URI, the panel's sheet last", () => {
    const html = panelHtml({ ...input, assets });
    const scriptNonce = /script-src 'nonce-([^']+)'/.exec(cspOf(html))![1]!;
    const styleNonce = /style-src \S+ 'nonce-([^']+)'/.exec(cspOf(html))![1]!;
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.equal(scripts[0]![1], ` type="module" nonce="${scriptNonce}"`);
    assert.equal(scripts[0]![2], assets.script, 'the entry module, inline: no fetch before the first paint');
    assert.match(html, /<body data-chunks="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/media\/panel\/"/);
    const styles = [...html.matchAll(/<style nonce="([^"]+)">([\s\S]*?)<\/style>/g)];
    assert.deepEqual(
      styles.map((m) => m[1]),
      [styleNonce, styleNonce],
    );
    assert.match(
      styles[0]![2]!,
      /@font-face \{[^}]*font-family: "codicon";[^}]*src: url\("https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/media\/codicons\/codicon\.ttf"\)/,
    );
    assert.ok(styles[0]![2]!.includes(assets.glyphs));
    assert.equal(styles[1]![2]!.trim(), assets.panel, 'the panel sheet comes after the glyphs it overrides');
    assert.doesNotMatch(html, /<link rel="stylesheet"|\sstyle="|\son[a-z]+="/);
  });

  it('carries the snapshot with a fresh page id each render', () => {
    const snapshot = { type: 'snapshot' as const, seq: 2, state: emptyViewState() };
    const page = (html: string) =>
      JSON.parse(/<script type="application\/json" id="planwise-page-snapshot">([^<]*)<\/script>/.exec(html)![1]!) as {
        page: string;
        message: unknown;
      };
    const a = page(panelHtml({ ...input, assets, snapshot }));
    const b = page(panelHtml({ ...input, assets, snapshot }));
    assert.deepEqual(a.message, snapshot);
    assert.notEqual(a.page, b.page);
    assert.doesNotMatch(panelHtml({ ...input, assets }), /planwise-page-snapshot/);
  });

  it('refuses a font URI that would break out of its CSS string', () => {
    assert.throws(
      () => panelHtml({ ...input, assets, uris: { ...input.uris, font: 'https://x/a");}body{color:red' } }),
      /cannot be written into CSS/,
    );
  });
});
