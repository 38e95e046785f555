import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { PAGE_SNAPSHOT_ID, renderPanelHtml } from '../../src/protocol';

const base = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptNonce: 'c2NyaXB0LW5vbmNlLTAxMjM0NQ==',
  styleNonce: 'c3R5bGUtbm9uY2UtMDEyMzQ1Ng==',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel/main.js',
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
    assert.match(
      html,
      /<script type="module" nonce="c2NyaXB0LW5vbmNlLTAxMjM0NQ==" src="[^"]+\/media\/panel\/main\.js"><\/script>/,
    );
    assert.match(html, /href="https:\/\/x\/media\/panel\.css\?a=1&#38;b=&#34;2&#34;"/, 'attributes are escaped');
  });

  it("writes when the host resolved the view on <body> (the webview's first paint is timed from it)", () => {
    assert.match(
      renderPanelHtml({ ...base, resolvedAt: 1796150000123.7 }),
      /<body data-chunks="[^"]+" data-resolved-at="1796150000123">/,
    );
    assert.match(renderPanelHtml(base), /<body data-chunks="[^"]+">/);
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

  const inline = { ...base, styleUris: [] };

  it("writes style sheets into <head> with the style nonce, in order; the bundle stays one nonce'd file after #root", () => {
    const html = renderPanelHtml({ ...inline, styles: ['.a { color: red; }', '.b > .c { color: blue; }'] });
    const doc = new JSDOM(html).window.document;
    const scripts = [...doc.querySelectorAll('script')];
    assert.equal(scripts.length, 1);
    assert.equal(scripts[0]!.getAttribute('nonce'), base.scriptNonce);
    assert.equal(scripts[0]!.getAttribute('src'), base.scriptUri);
    assert.equal(scripts[0]!.previousElementSibling?.id, 'root');
    assert.deepEqual(
      [...doc.querySelectorAll('head style')].map((e) => [e.getAttribute('nonce'), e.textContent!.trim()]),
      [
        [base.styleNonce, '.a { color: red; }'],
        [base.styleNonce, '.b > .c { color: blue; }'],
      ],
    );
  });

  it('refuses a style sheet that would end its element early', () => {
    for (const sheet of ['a{}</style><script>alert(1)</script>', 'a{}</STYLE >']) {
      assert.throws(
        () => renderPanelHtml({ ...inline, styles: [sheet] }),
        /style sheet cannot be written into the page/,
      );
    }
  });

  it("writes the entry module into the page with the script nonce, and names the chunks' folder on <body>", () => {
    const code = 'import("./x.js"); const s = "<!-- not a comment -->"; document.body.dataset.ran = "1";';
    const doc = new JSDOM(renderPanelHtml({ ...inline, script: code })).window.document;
    const scripts = [...doc.querySelectorAll('script')];
    assert.equal(scripts.length, 1);
    assert.equal(scripts[0]!.getAttribute('type'), 'module');
    assert.equal(scripts[0]!.getAttribute('nonce'), base.scriptNonce);
    assert.equal(scripts[0]!.hasAttribute('src'), false);
    assert.equal(scripts[0]!.textContent, code, 'written verbatim');
    assert.equal(doc.body.dataset['chunks'], 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel/');
    // Linked, the chunks' folder is the entry's own.
    assert.equal(new JSDOM(renderPanelHtml(inline)).window.document.body.dataset['chunks'], doc.body.dataset['chunks']);
  });

  it('refuses a script that would end its element early or change how the parser reads it', () => {
    for (const code of ['const a = "</script><img src=x>";', 'x = "</SCRIPT >"', '/*<!--<script>*/ y()']) {
      assert.throws(() => renderPanelHtml({ ...inline, script: code }), /script cannot be written into the page/);
    }
  });

  it('carries the snapshot as inert JSON that reads back exactly, whatever its text holds', () => {
    const hostile = '</script><script>window.__pwned = 1</script><!--<script>--> \u2028 & " \u003c';
    const snapshot = { page: 'p-1', message: { type: 'snapshot', seq: 3, state: { text: hostile } } };
    const html = renderPanelHtml({ ...inline, snapshot });
    const doc = new JSDOM(html).window.document;
    assert.equal(doc.querySelectorAll('script').length, 2, 'the data block and the bundle, nothing injected');
    const block = doc.getElementById(PAGE_SNAPSHOT_ID)!;
    assert.equal(block.getAttribute('type'), 'application/json');
    assert.equal(block.hasAttribute('nonce'), false, 'a data block needs no nonce: it never runs');
    assert.deepEqual(JSON.parse(block.textContent!), snapshot);
    assert.doesNotMatch(block.textContent!, /</);
    assert.equal(doc.querySelectorAll('script')[1]!.getAttribute('src'), base.scriptUri);
  });
});
