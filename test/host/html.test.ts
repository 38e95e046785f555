import assert from 'node:assert/strict';
import { contentSecurityPolicy, createNonce, panelHtml } from '../../src/host/panel/html';

const CSP_SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';

describe('panel HTML', () => {
  const nonce = createNonce();
  const html = panelHtml({
    cspSource: CSP_SOURCE,
    nonce,
    scriptUri: `${CSP_SOURCE}/ext/media/webview.js`,
    styleUris: [`${CSP_SOURCE}/ext/media/codicons/codicon.css`, `${CSP_SOURCE}/ext/media/panel.css`],
  });

  it('makes a fresh 128-bit nonce each time', () => {
    assert.equal(Buffer.from(nonce, 'base64').length, 16);
    assert.notEqual(createNonce(), createNonce());
  });

  it('has a strict policy: nothing by default, nonce scripts, styles and fonts from the extension only', () => {
    const csp = contentSecurityPolicy(CSP_SOURCE, nonce);
    assert.equal(
      csp,
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${CSP_SOURCE}; font-src ${CSP_SOURCE}; img-src ${CSP_SOURCE} data:`,
    );
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline|\*/);
    assert.ok(html.includes(`content="${csp}"`));
  });

  it('loads exactly one script, with the nonce, and no inline script or style', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]![1]!, new RegExp(`nonce="${nonce.replace(/[+/=]/g, '\\$&')}"`));
    assert.match(scripts[0]![1]!, /src="[^"]+\/media\/webview\.js"/);
    assert.equal(scripts[0]![2]!.trim(), '', 'no inline script body');
    assert.doesNotMatch(html, /<style|\sstyle="|\son[a-z]+="/);
    assert.match(html, /<div id="root"><\/div>/);
    assert.equal((html.match(/<link rel="stylesheet"/g) ?? []).length, 2);
  });

  it('refuses a nonce that is not random base64', () => {
    assert.throws(
      () => panelHtml({ cspSource: CSP_SOURCE, nonce: "abc' 'unsafe-inline", scriptUri: 'x', styleUris: [] }),
      /nonce/,
    );
  });
});
