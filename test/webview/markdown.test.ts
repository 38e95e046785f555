import './setupDom';
import assert from 'node:assert/strict';
import { findFileRefs, linkifyFileRefs } from '../../webview/fileRefs';
import { RenderCache } from '../../webview/markdown';
import { renderMarkdown } from '../../webview/markdownEngine';
import { XSS_CORPUS } from './xssCorpus';

function html(markdown: string): HTMLDivElement {
  const div = document.createElement('div');
  div.append(renderMarkdown(markdown));
  return div;
}

describe('markdown rendering', () => {
  it('renders ordinary markdown', () => {
    const d = html('# Title\n\n- **bold** and `code`\n\n```ts\nconst a = 1;\n```\n\n[docs](https://example.com/x)');
    assert.equal(d.querySelector('h1')?.textContent, 'Title');
    assert.equal(d.querySelector('strong')?.textContent, 'bold');
    assert.equal(d.querySelector('pre code')?.className, 'language-ts');
    const a = d.querySelector('a[href]')!;
    assert.equal(a.getAttribute('href'), 'https://example.com/x');
    assert.equal(a.getAttribute('rel'), 'noopener noreferrer');
  });

  it('shows raw HTML as text instead of passing it through', () => {
    const d = html('before <b onclick="x()">bold</b> after\n\n<div>block</div>');
    assert.equal(d.querySelector('b'), null);
    assert.equal(d.querySelector('div'), null);
    assert.match(d.textContent!, /<b onclick="x\(\)">bold<\/b>/);
  });

  for (const [name, source] of Object.entries(XSS_CORPUS)) {
    it(`neutralises: ${name}`, () => {
      const d = html(source);
      for (const el of d.querySelectorAll('*')) {
        assert.ok(
          ![
            'SCRIPT',
            'IFRAME',
            'OBJECT',
            'EMBED',
            'SVG',
            'MATH',
            'IMG',
            'FORM',
            'INPUT',
            'STYLE',
            'LINK',
            'META',
            'BASE',
          ].includes(el.nodeName.toUpperCase()),
          `${el.nodeName} survived`,
        );
        for (const attr of el.attributes) {
          assert.ok(!/^on/i.test(attr.name), `${attr.name} survived on ${el.nodeName}`);
          assert.ok(!['style', 'srcdoc', 'src', 'action', 'formaction', 'xlink:href'].includes(attr.name), attr.name);
        }
        const href = el.getAttribute('href');
        if (href !== null && !el.classList.contains('pw-file-link')) assert.match(href, /^https?:\/\//i, href);
      }
    });
  }

  it('keeps only a code block’s language class, so panel classes cannot be spoofed', () => {
    const d = html('[x](https://a.b "t")\n\n```js\nx\n```');
    assert.equal(d.querySelectorAll('[class]').length, 1);
    assert.match(d.querySelector('[class]')!.className, /^language-js$/);
  });

  it('renders images as links, never as <img>', () => {
    const d = html('![diagram](https://example.com/d.png) ![local](file:///etc/passwd)');
    assert.equal(d.querySelector('img'), null);
    assert.equal(d.querySelector('a')?.getAttribute('href'), 'https://example.com/d.png');
    assert.match(d.textContent!, /\[image: local\]/);
  });

  it('caches completed renders and hands out independent copies', () => {
    const cache = new RenderCache(2);
    let renders = 0;
    const render = () => {
      renders++;
      return renderMarkdown('**x**');
    };
    const a = cache.get('k', render);
    const b = cache.get('k', render);
    assert.equal(renders, 1);
    assert.notEqual(a, b);
    assert.equal(document.createElement('div').appendChild(b).nodeType, 11);
    cache.get('k2', render);
    cache.get('k3', render);
    cache.get('k', render);
    assert.equal(renders, 4, 'the oldest entry was evicted');
  });
});

describe('file references', () => {
  it('finds paths with a directory or a line number', () => {
    const refs = findFileRefs('see src/a.ts:42, ./lib/x.tsx:3:9 and README.md:7 or /abs/p.go; also pkg/mod.rs.');
    assert.deepEqual(
      refs.map((r) => [r.path, r.line]),
      [
        ['src/a.ts', 42],
        ['./lib/x.tsx', 3],
        ['README.md', 7],
        ['/abs/p.go', undefined],
        ['pkg/mod.rs', undefined],
      ],
    );
  });

  it('leaves ordinary words, versions and URLs alone', () => {
    assert.deepEqual(findFileRefs('e.g. Node.js v1.2.3 at https://example.com/a/b.ts and a.ts alone'), []);
  });

  it('links references in text and inline code but not inside existing links', () => {
    const d = html('Edit `src/a.ts:42` and src/b.ts; [src/c.ts](https://x.y/src/c.ts)');
    const links = [...d.querySelectorAll<HTMLElement>('a.pw-file-link')];
    assert.deepEqual(
      links.map((a) => [a.dataset.file, a.dataset.line]),
      [
        ['src/a.ts', '42'],
        ['src/b.ts', undefined],
      ],
    );
    const div = document.createElement('div');
    div.textContent = 'nothing here';
    linkifyFileRefs(div);
    assert.equal(div.innerHTML, 'nothing here');
  });
});
