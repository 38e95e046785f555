import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Spool, previewOf, utf8Length } from '../../src/core/spool';

/** Reassembles a spooled entry by paging through it, as read_spool does. */
function readAll(spool: Spool, id: string, page: number): string {
  let offset = 0;
  let out = '';
  for (;;) {
    const p = spool.read(id, offset, page);
    assert.ok(p, 'the entry is still there');
    assert.ok(p.end > p.start || p.start === p.totalBytes, 'every page advances');
    out += p.text;
    if (p.end >= p.totalBytes) return out;
    offset = p.end;
  }
}

const multibyteText = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `${i} héllo wörld 日本語テキスト 🙂🚀 line ${i}`).join('\n');

describe('spool and previews', () => {
  it('passes a result that fits through untouched', () => {
    const spool = new Spool();
    const p = previewOf('small', 100, spool);
    assert.deepEqual(p, { content: 'small', bytes: 5 });
    assert.equal(spool.has('s1'), false);
  });

  it('spools an oversized result and shows head, reference and tail within the limit', () => {
    const spool = new Spool();
    const text = multibyteText(400);
    const limit = 2048;
    const p = previewOf(text, limit, spool);
    assert.ok(p.spoolId);
    assert.equal(p.bytes, utf8Length(text));
    assert.ok(utf8Length(p.content) <= limit, `preview is ${utf8Length(p.content)} bytes`);
    assert.ok(p.content.startsWith('0 héllo'), 'head is the start');
    assert.ok(p.content.endsWith('line 399'), 'tail is the end');
    const ref =
      /\[spooled: (s\d+), (\d+) bytes; shown bytes 0-(\d+) and (\d+)-(\d+); read_spool id=(s\d+) offset=(\d+)\]/.exec(
        p.content,
      );
    assert.ok(ref, p.content);
    assert.equal(ref[1], p.spoolId);
    assert.equal(Number(ref[2]), p.bytes);
    assert.equal(ref[7], ref[3], 'the suggested offset continues after the head');
    assert.ok(!p.content.includes('\uFFFD'), 'no character was split');
    // The head was cut at a line end, the tail starts at a line start.
    const head = p.content.slice(0, p.content.indexOf('[spooled'));
    assert.ok(head.endsWith('\n'));
    const tail = p.content.slice(p.content.indexOf(']\n') + 2);
    assert.match(tail, /^\d+ héllo/);
  });

  it('pages through a spooled entry with byte offsets and reassembles it exactly', () => {
    const spool = new Spool();
    const text = multibyteText(300);
    const { spoolId } = previewOf(text, 1000, spool);
    assert.ok(spoolId);
    assert.equal(readAll(spool, spoolId, 777), text);
  });

  it('moves an offset inside a multibyte character back to its start', () => {
    const spool = new Spool();
    const id = spool.put('a🙂b');
    const page = spool.read(id, 2, 10)!;
    assert.equal(page.start, 1);
    assert.equal(page.text, '🙂b');
  });

  it('gives a page at least one whole character even when the limit is smaller', () => {
    const spool = new Spool();
    const id = spool.put('🙂🙂');
    const page = spool.read(id, 0, 1)!;
    assert.equal(page.text, '🙂');
    assert.equal(page.end, 4);
  });

  it('holds for any text and any limit: within the limit, no broken characters, exact paging', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 3000 }),
        fc.integer({ min: 200, max: 4000 }),
        (text, limit) => {
          const spool = new Spool();
          const p = previewOf(text, limit, spool);
          assert.ok(utf8Length(p.content) <= limit);
          if (p.spoolId === undefined) {
            assert.equal(p.content, text);
          } else {
            assert.ok(!p.content.includes('\uFFFD') || text.includes('\uFFFD'));
            assert.equal(readAll(spool, p.spoolId, Math.max(1, limit - 160)), text);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts UTF-8 bytes exactly as TextEncoder writes them, lone surrogates included', () => {
    const encoder = new TextEncoder();
    assert.equal(utf8Length('a\u00e9\u65e5\u{1F642}'), 1 + 2 + 3 + 4);
    assert.equal(utf8Length('\ud83d'), 3, 'a lone high surrogate is written as U+FFFD');
    assert.equal(utf8Length('\ude42x'), 4, 'a lone low surrogate is written as U+FFFD');
    assert.equal(utf8Length('\ud83d\ud83d\ude42'), 3 + 4);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }), (units) => {
        const text = String.fromCharCode(...units); // any UTF-16 units, unpaired surrogates too
        assert.equal(utf8Length(text), encoder.encode(text).length);
      }),
      { numRuns: 2000 },
    );
  });

  it('evicts the least recently used entries when over its byte budget', () => {
    const spool = new Spool({ maxBytes: 250 });
    const a = spool.put('a'.repeat(100));
    const b = spool.put('b'.repeat(100));
    spool.read(a, 0, 10); // a is now more recent than b
    const c = spool.put('c'.repeat(100));
    assert.equal(spool.has(b), false);
    assert.equal(spool.has(a), true);
    assert.equal(spool.has(c), true);
    assert.equal(spool.read(b, 0, 10), undefined);
  });

  it('keeps a single entry larger than the budget, alone', () => {
    const spool = new Spool({ maxBytes: 50 });
    const a = spool.put('a'.repeat(10));
    const big = spool.put('b'.repeat(100));
    assert.equal(spool.has(a), false);
    assert.equal(spool.sizeOf(big), 100);
  });

  it('evicts by entry count too', () => {
    const spool = new Spool({ maxEntries: 2 });
    const ids = ['x', 'y', 'z'].map((t) => spool.put(t));
    assert.deepEqual(
      ids.map((id) => spool.has(id)),
      [false, true, true],
    );
  });
});
