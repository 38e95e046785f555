import assert from 'node:assert/strict';
import { Spool, previewOf, utf8Length } from '../../src/core/spool';
import { readSpoolTool } from '../../src/core/tools/readSpool';
import type { ToolContext } from '../../src/core/tools/types';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { contextFor } from './helpers';

describe('read_spool', () => {
  let ws: TempWorkspace;
  let ctx: ToolContext;
  beforeEach(() => {
    ws = makeTempWorkspace();
    ctx = contextFor(ws, { previewLimitBytes: 1024, spool: new Spool() });
  });
  afterEach(() => ws.cleanup());

  it('pages through a spooled result from the offset the preview names, to the end', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `${i}: ünïcödé 🙂 ${'z'.repeat(i % 13)}`).join('\n');
    const preview = previewOf(text, ctx.previewLimitBytes, ctx.spool);
    const offset = Number(/offset=(\d+)\]/.exec(preview.content)![1]);
    let rebuilt = preview.content.slice(0, preview.content.indexOf('[spooled'));
    let next: number | undefined = offset;
    let lastEnd = -1;
    while (next !== undefined) {
      const r = await readSpoolTool.run({ id: preview.spoolId!, offset: next }, ctx);
      assert.equal(r.ok, true);
      assert.ok(utf8Length(r.content) <= ctx.previewLimitBytes);
      const m =
        /^\[(s\d+): bytes (\d+)-(\d+) of (\d+)\]\n([\s\S]*?)\n?\[(?:more: read_spool id=s\d+ offset=(\d+)|end of s\d+)\]$/.exec(
          r.content,
        );
      assert.ok(m, r.content);
      assert.equal(Number(m[2]), next);
      rebuilt += m[5];
      lastEnd = Number(m[3]);
      assert.equal(Number(m[4]), preview.bytes);
      next = m[6] === undefined ? undefined : Number(m[6]);
      if (next !== undefined) assert.equal(next, Number(m[3]));
    }
    assert.equal(lastEnd, preview.bytes, 'the pages reach the end');
    assert.equal(rebuilt.replace(/\n/g, ''), text.replace(/\n/g, ''));
  });

  it('says when the id is unknown or evicted', async () => {
    const r = await readSpoolTool.run({ id: 's999' }, ctx);
    assert.equal(r.ok, false);
    assert.equal(r.lowSignal, true);
    assert.match(r.content, /no spooled result has id 's999'.*run the original tool call again/);
  });

  it('rejects an offset past the end', async () => {
    const id = ctx.spool.put('short');
    assert.match(
      (await readSpoolTool.run({ id, offset: 50 }, ctx)).content,
      /offset 50 is past the end; s\d+ has 5 bytes/,
    );
  });
});
