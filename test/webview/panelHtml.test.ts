import assert from 'node:assert/strict';
import { renderPanelHtml } from '../../src/protocol';

const base = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptNonce: 'c2NyaXB0LW5vbmNlLTAxMjM0NQ==',
  styleNonce: 'c3R5bGUtbm9uY2UtMDEyMzQ1Ng==',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/webview.js',
  styleUris: ['https://x/media/codicons/codicon.css', 'https://x/media/panel.css?a=1&b="2"'],
};

describe('protocol: panel HTML', () => {
  it('sets a strict CSP: nonce scripts, styles and fonts from the webview origin, no unsafe-*', () => {
    const html = renderPanelHtml(base);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
    assert.equal(
      csp,
      "default-src 'none'; script-src 'nonce-c2NyaXB0LW5vbmNlLTAxMjM0NQ=='; " +
        `style-src ${base.cspSource} 'nonce-c3R5bGUtbm9uY2UtMDEyMzQ1Ng=='; font-src ${base.cspSource}; img-src ${base.cspSource}`,
    );
    assert.doesNotMatch(html, /unsafe-/);
    assert.match(html, /<meta property="csp-nonce" content="c3R5bGUtbm9uY2UtMDEyMzQ1Ng==" \/>/);
    assert.match(html, /<div id="root"><\/div>/);
    assert.equal(html.match(/<script /g)!.length, 1);
    assert.match(html, /<script nonce="c2NyaXB0LW5vbmNlLTAxMjM0NQ==" src="[^"]+\/media\/webview\.js"><\/script>/);
    assert.match(html, /href="https:\/\/x\/media\/panel\.css\?a=1&#38;b=&#34;2&#34;"/, 'attributes are escaped');
  });

  it("writes when the host resolved the view on <body> (the webview's first paint is timed from it)", () => {
    assert.match(renderPanelHtml({ ...base, resolvedAt: 1796150000123.7 }), /<body data-resolved-at="1796150000123">/);
    assert.match(renderPanelHtml(base), /<body>/);
  });

  it('refuses weak, reused or malformed nonces and odd CSP sources with a clear message', () => {
    assert.throws(() => renderPanelHtml({ ...base, scriptNonce: 'abc' }), /scriptNonce must be at least 16 base64/);
    assert.throws(() => renderPanelHtml({ ...base, styleNonce: `'; script-src *` }), /styleNonce must be/);
    assert.throws(() => renderPanelHtml({ ...base, styleNonce: base.scriptNonce }), /must differ/);
    assert.throws(
      () => renderPanelHtml({ ...base, cspSource: "https://a 'unsafe-inline'" }),
      /not a single CSP source/,
    );
  });
});
