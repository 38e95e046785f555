import assert from 'node:assert/strict';
import { join } from 'node:path';
import { utf8Length } from '../../src/core/spool';
import { readFileTool } from '../../src/core/tools/readFile';
import { readSpoolTool } from '../../src/core/tools/readSpool';
import type { ToolContext } from '../../src/core/tools/types';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { contextFor } from './helpers';

describe('read_file', () => {
  let ws: TempWorkspace;
  let ctx: ToolContext;
  beforeEach(() => {
    ws = makeTempWorkspace({
      'src/a.ts': 'one\ntwo\nthree\n',
      'crlf.txt': 'x\r\ny\r\n',
      'utf8.md': 'naïve 日本 🙂\n',
      'empty.txt': '',
      'pic.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    });
    ws.write('../outside/secret.txt', 'secret\n');
    ctx = contextFor(ws);
  });
  afterEach(() => ws.cleanup());

  it('returns numbered lines with a header', async () => {
    const r = await readFileTool.run({ path: 'src/a.ts' }, ctx);
    assert.equal(r.ok, true);
    assert.equal(r.content, 'src/a.ts lines 1-3 of 3\n1\tone\n2\ttwo\n3\tthree');
    assert.equal(r.bytes, utf8Length(r.content));
    assert.equal(r.spoolId, undefined);
  });

  it('returns the requested line range, clamped to the end', async () => {
    assert.equal(
      (await readFileTool.run({ path: 'src/a.ts', start_line: 2, end_line: 2 }, ctx)).content,
      'src/a.ts lines 2-2 of 3\n2\ttwo',
    );
    assert.equal(
      (await readFileTool.run({ path: 'src/a.ts', start_line: 3, end_line: 99 }, ctx)).content,
      'src/a.ts lines 3-3 of 3\n3\tthree',
    );
  });

  it('handles CRLF and multibyte text', async () => {
    assert.equal((await readFileTool.run({ path: 'crlf.txt' }, ctx)).content, 'crlf.txt lines 1-2 of 2\n1\tx\n2\ty');
    assert.equal(
      (await readFileTool.run({ path: 'utf8.md' }, ctx)).content,
      'utf8.md lines 1-1 of 1\n1\tnaïve 日本 🙂',
    );
  });

  it('pages a long file and says how to ask for the next range', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i + 1} ${'é'.repeat(20)}`);
    ws.write('long.txt', lines.join('\n') + '\n');
    const seen: string[] = [];
    let start: number | undefined = 1;
    let pages = 0;
    while (start !== undefined) {
      const r = await readFileTool.run({ path: 'long.txt', start_line: start }, ctx);
      pages++;
      assert.equal(r.ok, true);
      assert.ok(utf8Length(r.content) <= ctx.previewLimitBytes, 'a page fits the preview limit');
      assert.equal(r.spoolId, undefined, 'paged by lines, not spooled');
      const body = r.content.split('\n').slice(1);
      const next = /\[lines (\d+)-1000 not shown: read_file path="long.txt" start_line=(\d+) continues\]$/.exec(
        r.content,
      );
      if (next) body.pop();
      for (const l of body) seen.push(l.slice(l.indexOf('\t') + 1));
      start = next ? Number(next[2]) : undefined;
      if (next) assert.equal(next[1], next[2]);
    }
    assert.ok(pages > 3, `${pages} pages`);
    assert.deepEqual(seen, lines);
  });

  it('keeps an explicit end_line in the paging hint', async () => {
    ws.write('long.txt', Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n'));
    const r = await readFileTool.run(
      { path: 'long.txt', start_line: 10, end_line: 1900 },
      { ...ctx, previewLimitBytes: 1024 },
    );
    assert.match(r.content, /start_line=\d+ end_line=1900 continues\]$/);
  });

  it('spools a single line longer than the preview limit, which read_spool pages through', async () => {
    const line = 'x'.repeat(20000);
    ws.write('min.js', line);
    const r = await readFileTool.run({ path: 'min.js' }, ctx);
    assert.ok(r.spoolId);
    assert.equal(r.bytes, utf8Length(`min.js lines 1-1 of 1\n1\t${line}`));
    assert.ok(utf8Length(r.content) <= ctx.previewLimitBytes);
    const page = await readSpoolTool.run({ id: r.spoolId, offset: 0 }, ctx);
    assert.match(page.content, /^\[s\d+: bytes 0-\d+ of \d+\]\nmin\.js lines 1-1 of 1\n1\txxx/);
  });

  it('refuses binary files with a clear message', async () => {
    const r = await readFileTool.run({ path: 'pic.png' }, ctx);
    assert.equal(r.ok, false);
    assert.match(r.content, /read_file refused: pic\.png is a binary file \(12 bytes\), not text/);
  });

  it('says when a file does not exist (low signal) or is a folder', async () => {
    const missing = await readFileTool.run({ path: 'nope.ts' }, ctx);
    assert.equal(missing.ok, false);
    assert.equal(missing.lowSignal, true);
    assert.match(missing.content, /nope\.ts does not exist/);
    assert.match((await readFileTool.run({ path: 'src' }, ctx)).content, /src is a folder; use list_files/);
  });

  it('marks an empty file as low signal', async () => {
    const r = await readFileTool.run({ path: 'empty.txt' }, ctx);
    assert.equal(r.lowSignal, true);
    assert.match(r.content, /empty\.txt is empty/);
  });

  it('rejects a start line past the end and an end before the start', async () => {
    assert.match(
      (await readFileTool.run({ path: 'src/a.ts', start_line: 9 }, ctx)).content,
      /start_line 9 is past the end; src\/a\.ts has 3 lines/,
    );
    assert.match(
      (await readFileTool.run({ path: 'src/a.ts', start_line: 3, end_line: 2 }, ctx)).content,
      /end_line 2 is before start_line 3/,
    );
  });

  it('refuses paths outside the workspace: .., absolute, ~, file and folder symlinks', async () => {
    ws.symlink('leak.txt', join(ws.outside, 'secret.txt'));
    ws.symlink('out', ws.outside, 'dir');
    for (const path of [
      '../outside/secret.txt',
      join(ws.outside, 'secret.txt'),
      '~/secret.txt',
      'leak.txt',
      'out/secret.txt',
    ]) {
      const r = await readFileTool.run({ path }, ctx);
      assert.equal(r.ok, false, path);
      assert.match(r.content, /^read_file refused: path '.*' (is outside the workspace|starts with '~')/, path);
      assert.ok(!r.content.includes('secret\n'), 'nothing of the file leaked');
    }
  });

  it('reads through a symlink that stays inside, showing the path asked for', async () => {
    ws.symlink('alias.ts', ws.path('src/a.ts'));
    assert.equal(
      (await readFileTool.run({ path: 'alias.ts', end_line: 1 }, ctx)).content,
      'alias.ts lines 1-1 of 3\n1\tone',
    );
  });
});
