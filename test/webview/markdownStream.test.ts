import './setupDom';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { renderMarkdown } from '../../webview/markdownEngine';
import { MarkdownStream } from '../../webview/markdownStream';
import { XSS_CORPUS } from './xssCorpus';

/** What `renderMarkdown` shows for the whole text at once. */
function whole(markdown: string): string {
  const div = document.createElement('div');
  div.append(renderMarkdown(markdown));
  return div.innerHTML;
}

/** Streams `text` into a fresh element in pieces cut at `cuts`; checks the view after every piece. */
function streamInPieces(text: string, cuts: number[]): HTMLDivElement {
  const el = document.createElement('div');
  const stream = new MarkdownStream(el);
  const ends = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  for (const end of [...ends, text.length]) {
    stream.update(text.slice(0, end));
    assert.equal(el.innerHTML, whole(text.slice(0, end)), `after ${end} of ${text.length} characters`);
  }
  return el;
}

/** Model output as it comes: prose, lists that grow item by item, code, tables, quotes, headings. */
const MESSAGES = [
  'The router lives in `src/server/app.ts:12`.\n\nIt **mounts** the limiter before the routes.\n\n- read the config\n- add the bucket\n- test it\n\nDone.',
  '# Plan\n\n1. Add `RateLimiter` in src/limiter.ts\n2. Wire it into the router\n\n3. Write tests\n\nThen run `npm test`.',
  'Here is the change:\n\n```ts\nexport function limit(n: number) {\n  return n > 0;\n}\n```\n\nand the test:\n\n```ts\nassert.ok(limit(1));\n```\n',
  '| file | change |\n|---|---|\n| src/a.ts | add |\n| src/b.ts | remove |\n\nThat is all.',
  '> Note: the bucket refills\n> every second.\n\nSo the limit is per second.\n\nHeading\n---\n\ntext after',
  'Two lists:\n\n- a\n- b\n\n  still b\n\n- c\n\n* other\n* list\n\nSee [docs](https://example.com/docs) and ![img](https://example.com/i.png).',
  '    indented code\n    more\n\nafter *emphasis* and ~~strike~~\n\n***\n\n- [ ] task\n- [x] done',
];

describe('streaming markdown', () => {
  it('shows exactly what the whole-text renderer shows, after every token', () => {
    for (const message of MESSAGES) {
      const tokens = message.split(/(?<=\s)/);
      const cuts: number[] = [];
      let at = 0;
      for (const t of tokens) cuts.push((at += t.length));
      streamInPieces(message, cuts);
    }
  });

  it('shows exactly what the whole-text renderer shows, however the text is cut', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MESSAGES), fc.array(fc.nat(400), { maxLength: 12 }), (message, cuts) => {
        streamInPieces(message, cuts);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps the DOM of settled blocks while the last one grows', () => {
    const el = document.createElement('div');
    const stream = new MarkdownStream(el);
    stream.update('First paragraph.\n\n- one\n- two\n\nThird');
    const first = el.querySelector('p');
    const list = el.querySelector('ul');
    stream.update('First paragraph.\n\n- one\n- two\n\nThird paragraph grows');
    assert.equal(el.querySelector('p'), first, 'the first paragraph was not rendered again');
    assert.equal(el.querySelector('ul'), list, 'the list was not rendered again');
    assert.equal(el.lastElementChild?.textContent, 'Third paragraph grows');
  });

  it('updates the growing block in place, keeping its element and its finished inline parts', () => {
    const el = document.createElement('div');
    const stream = new MarkdownStream(el);
    stream.update('Edit `src/a.ts:4` then');
    const p = el.querySelector('p');
    const code = el.querySelector('code');
    stream.update('Edit `src/a.ts:4` then **run** the tests');
    assert.equal(el.querySelector('p'), p);
    assert.equal(el.querySelector('code'), code);
    assert.equal(el.querySelector('strong')?.textContent, 'run');
    stream.update('Edit `src/a.ts:4` then **run** the tests\n\n```sh\nnpm test');
    assert.equal(el.querySelector('p'), p, 'a new block after it leaves it alone');
    assert.equal(el.innerHTML, whole('Edit `src/a.ts:4` then **run** the tests\n\n```sh\nnpm test'));
  });

  it('renders a settled list again when the new text adds an item to it', () => {
    const el = document.createElement('div');
    const stream = new MarkdownStream(el);
    stream.update('Intro\n\n1. one\n\n2');
    stream.update('Intro\n\n1. one\n\n2. two');
    assert.equal(el.querySelectorAll('ol').length, 1);
    assert.equal(el.querySelectorAll('ol > li').length, 2);
    assert.equal(el.innerHTML, whole('Intro\n\n1. one\n\n2. two'));
  });

  it('settles a finished message without rendering it again', () => {
    for (const text of MESSAGES) {
      const el = document.createElement('div');
      const stream = new MarkdownStream(el);
      for (let end = 7; end < text.length; end += 7) stream.update(text.slice(0, end));
      stream.update(text);
      const nodes = [...el.childNodes];
      stream.settle(text);
      assert.equal(el.childNodes.length, nodes.length);
      assert.ok(
        nodes.every((n, i) => el.childNodes[i] === n),
        'every node is the one streamed',
      );
      assert.equal(el.innerHTML, whole(text));
    }
  });

  it('renders the whole text again on settling when block-by-block lexing saw it differently', () => {
    // An inline <a> tag changes how the lexer reads the blocks after it, beyond the context
    // that streaming re-lexes: the streamed view links the URL, the whole text does not.
    const text = "see <a href='x'> here\n\none\n\ntwo\n\nthree https://example.com/c";
    const el = document.createElement('div');
    const stream = new MarkdownStream(el);
    for (let end = 1; end <= text.length; end++) stream.update(text.slice(0, end));
    assert.notEqual(el.innerHTML, whole(text));
    stream.settle(text);
    assert.equal(el.innerHTML, whole(text));
  });

  it('starts over when the text is replaced rather than extended', () => {
    const el = document.createElement('div');
    const stream = new MarkdownStream(el);
    stream.update('Old text\n\n- a\n- b');
    stream.update('New **text**');
    assert.equal(el.innerHTML, whole('New **text**'));
  });

  it('resolves a reference link to a definition given in an earlier block', () => {
    const text = '[docs]: https://example.com/docs\n\nIntro\n\nSee [the docs][docs] for more';
    const el = document.createElement('div');
    const stream = new MarkdownStream(el);
    for (let end = 1; end <= text.length; end++) stream.update(text.slice(0, end));
    assert.equal(el.querySelector('a')?.getAttribute('href'), 'https://example.com/docs');
    assert.equal(el.innerHTML, whole(text));
  });

  it('treats Windows line endings as the whole-text renderer does', () => {
    const text = 'one\r\n\r\n- a\r\n- b\r\n\r\ntwo';
    const el = document.createElement('div');
    const stream = new MarkdownStream(el);
    for (let end = 1; end <= text.length; end++) stream.update(text.slice(0, end));
    assert.equal(el.innerHTML, whole(text));
  });

  for (const [name, source] of Object.entries(XSS_CORPUS)) {
    it(`neutralises while streaming: ${name}`, () => {
      const el = streamInPieces(
        source,
        Array.from({ length: Math.ceil(source.length / 7) }, (_, i) => i * 7),
      );
      for (const node of el.querySelectorAll('*')) {
        assert.ok(
          !['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'SVG', 'IMG', 'STYLE'].includes(node.nodeName),
          node.nodeName,
        );
        for (const attr of node.attributes) assert.ok(!/^on/i.test(attr.name), `${attr.name} on ${node.nodeName}`);
      }
    });
  }
});
