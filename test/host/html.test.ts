import assert from 'node:assert/strict';
import { createNonce, panelHtml } from '../../src/host/panel/html';

const CSP_SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';
const input = {
  cspSource: CSP_SOURCE,
  scriptUri: `${CSP_SOURCE}/ext/media/webview.js`,
  styleUris: [`${CSP_SOURCE}/ext/media/codicons/codicon.css`, `${CSP_SOURCE}/ext/media/panel.css`],
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

  it('loads exactly one script, with the nonce, and no inline script or style', () => {
    const html = panelHtml(input);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]![1]!, /nonce="[^"]+"/);
    assert.match(scripts[0]![1]!, /src="[^"]+\/media\/webview\.js"/);
    assert.equal(scripts[0]![2]!.trim(), '', 'no inline script body');
    assert.doesNotMatch(html, /<style|\sstyle="|\son[a-z]+="/);
    assert.match(html, /<div id="root"><\/div>/);
    assert.equal((html.match(/<link rel="stylesheet"/g) ?? []).length, 2);
  });
});
