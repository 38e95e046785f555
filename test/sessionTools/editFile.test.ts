import assert from 'node:assert/strict';
import { lstatSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTool } from '../../src/core/tools';
import { editFileTool as tool } from '../../src/core/tools/build/editFile';
import type { AgentToolContext } from '../../src/core/tools/session/context';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { agentContextFor, RefusingWriter } from './helpers';

const SOURCE = [
  'export function area(r: number): number {',
  '  return Math.PI * r * r;',
  '}',
  '',
  'export function twice(x: number): number {',
  '  return x * 2;',
  '}',
  '',
  'export const LIMIT = 2;',
  '',
].join('\n');

describe('edit_file', () => {
  let ws: TempWorkspace;
  let ctx: AgentToolContext;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'src/geo.ts': SOURCE });
    ctx = agentContextFor(ws);
  });
  afterEach(() => ws.cleanup());

  const read = (rel: string) => readFileSync(ws.path(rel));

  /** Runs a call that must fail, and proves the file is byte-for-byte unchanged and no temp file was left. */
  async function failsWithoutWriting(args: Parameters<typeof tool.run>[0], rel = 'src/geo.ts') {
    const before = read(rel);
    const mtime = statSync(ws.path(rel)).mtimeMs;
    const refusing = new RefusingWriter();
    const r = await tool.run(args, { ...ctx, writer: refusing } as AgentToolContext);
    assert.equal(r.ok, false);
    assert.equal(refusing.calls, 0, 'the writer was not called');
    assert.ok(read(rel).equals(before), 'the file is byte-for-byte unchanged');
    assert.equal(statSync(ws.path(rel)).mtimeMs, mtime);
    // And with the real writer too: still nothing written.
    const again = await tool.run(args, ctx);
    assert.equal(again.content, r.content);
    assert.ok(read(rel).equals(before));
    assert.deepEqual(readdirSync(ws.path('src')).sort(), ['geo.ts']);
    return r.content;
  }

  it('replaces text that occurs exactly once, and says where', async () => {
    const r = await tool.run(
      { path: 'src/geo.ts', old_text: '  return x * 2;', new_text: '  // doubled\n  return x + x;' },
      ctx,
    );
    assert.equal(r.ok, true, r.content);
    assert.equal(r.content, 'edited src/geo.ts: 1 replacement at line 6 (+1 lines per replacement)');
    assert.equal(read('src/geo.ts').toString(), SOURCE.replace('  return x * 2;', '  // doubled\n  return x + x;'));
  });

  it('takes new_text literally: "$&", "$1" and "$$" are not replacement patterns', async () => {
    await tool.run({ path: 'src/geo.ts', old_text: 'LIMIT = 2', new_text: 'LIMIT = "$& $1 $$ $`"' }, ctx);
    assert.match(read('src/geo.ts').toString(), /export const LIMIT = "\$& \$1 \$\$ \$`";\n/);
  });

  it('refuses ambiguous text, says how many matches and where, and writes nothing', async () => {
    const msg = await failsWithoutWriting({ path: 'src/geo.ts', old_text: ': number {', new_text: ': number  {' });
    assert.match(msg, /old_text occurs 2 times in src\/geo\.ts \(at lines 1, 5\); nothing was changed/);
    assert.match(msg, /Include more surrounding lines .* or set replace_all: true/);
  });

  it('replaces every occurrence with replace_all', async () => {
    const r = await tool.run({ path: 'src/geo.ts', old_text: 'number', new_text: 'bigint', replace_all: true }, ctx);
    assert.equal(r.content, 'edited src/geo.ts: 4 replacements from line 1 (same line count)');
    assert.equal(read('src/geo.ts').toString(), SOURCE.replaceAll('number', 'bigint'));
  });

  it('counts non-overlapping occurrences, as it replaces them', async () => {
    ws.write('a.txt', 'aaaa');
    const r = await tool.run({ path: 'a.txt', old_text: 'aa', new_text: 'b', replace_all: true }, ctx);
    assert.equal(r.ok, true);
    assert.equal(read('a.txt').toString(), 'bb');
  });

  it('refuses missing text and points at the lines it matches when whitespace is ignored', async () => {
    const msg = await failsWithoutWriting({
      path: 'src/geo.ts',
      old_text: 'export function twice(x: number): number {\n    return x * 2;\n}',
      new_text: 'x',
    });
    assert.match(msg, /^edit_file: old_text was not found in src\/geo\.ts; nothing was changed\./);
    assert.match(msg, /It matches lines 5-7 if whitespace is ignored/);
  });

  it('refuses missing text and names the line its first recognisable line is near', async () => {
    const msg = await failsWithoutWriting({
      path: 'src/geo.ts',
      old_text: '// header\nreturn Math.PI * r * r;\n  // not there',
      new_text: 'x',
    });
    assert.match(msg, /Its line 2 \("return Math\.PI \* r \* r;"\) is near line 2 of the file/);
  });

  it('refuses text that is nowhere in the file and suggests reading it again', async () => {
    const msg = await failsWithoutWriting({ path: 'src/geo.ts', old_text: 'class Circle {}', new_text: 'x' });
    assert.match(msg, /None of its lines are in the file: read the file again/);
  });

  it('refuses an empty old_text (pointing to write_file) and a no-op edit', async () => {
    assert.match(await failsWithoutWriting({ path: 'src/geo.ts', old_text: '', new_text: 'x' }), /use write_file/);
    assert.match(
      await failsWithoutWriting({ path: 'src/geo.ts', old_text: 'LIMIT', new_text: 'LIMIT' }),
      /nothing to change/,
    );
  });

  it('refuses a missing file, a folder, a binary file and invalid UTF-8', async () => {
    ws.write('bin.dat', new Uint8Array([0x41, 0x00, 0x42]));
    ws.write('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const missing = await tool.run({ path: 'src/none.ts', old_text: 'a', new_text: 'b' }, ctx);
    assert.match(missing.content, /src\/none\.ts does not exist; create it with write_file/);
    const folder = await tool.run({ path: 'src', old_text: 'a', new_text: 'b' }, ctx);
    assert.match(folder.content, /src is a folder/);
    assert.match(await failsWithoutWriting({ path: 'bin.dat', old_text: 'A', new_text: 'C' }, 'bin.dat'), /binary/);
    assert.match(
      await failsWithoutWriting({ path: 'latin1.txt', old_text: 'caf', new_text: 'tea' }, 'latin1.txt'),
      /not valid UTF-8/,
    );
  });

  it('refuses paths outside the workspace, through .. and through a symlink', async () => {
    ws.symlink('out', ws.outside, 'dir');
    writeFileSync(join(ws.outside, 'x.txt'), 'a\n');
    for (const path of ['../outside/x.txt', 'out/x.txt', '~/x.txt', `${ws.outside}/x.txt`]) {
      const r = await tool.run({ path, old_text: 'a', new_text: 'b' }, ctx);
      assert.equal(r.ok, false, path);
      assert.match(r.content, /^edit_file refused: .*(outside the workspace|home folder)/, path);
    }
    assert.deepEqual(readdirSync(ws.outside), ['x.txt']);
    assert.equal(readFileSync(join(ws.outside, 'x.txt'), 'utf8'), 'a\n');
  });

  it('edits through a symlink inside the workspace: the target changes, the link stays', async () => {
    ws.symlink('link.ts', 'src/geo.ts');
    const r = await tool.run({ path: 'link.ts', old_text: 'LIMIT = 2', new_text: 'LIMIT = 3' }, ctx);
    assert.equal(r.ok, true, r.content);
    assert.match(read('src/geo.ts').toString(), /LIMIT = 3/);
    assert.ok(lstatSync(ws.path('link.ts')).isSymbolicLink(), 'link.ts is still a symlink');
  });

  it('keeps CRLF line ends when old_text was written with LF', async () => {
    const crlf = SOURCE.replace(/\n/g, '\r\n');
    ws.write('win.ts', crlf);
    const r = await tool.run(
      {
        path: 'win.ts',
        old_text: 'export function twice(x: number): number {\n  return x * 2;',
        new_text: 'export function twice(x: number): number {\n  return x + x;',
      },
      ctx,
    );
    assert.equal(r.ok, true, r.content);
    assert.equal(read('win.ts').toString(), crlf.replace('x * 2', 'x + x'));
  });

  it('keeps a byte order mark and every byte outside the edit', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é = 1\nβ = 2\n')]);
    ws.write('bom.txt', bom);
    await tool.run({ path: 'bom.txt', old_text: 'β = 2', new_text: 'β = 3' }, ctx);
    const expected = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('é = 1\nβ = 3\n')]);
    assert.ok(read('bom.txt').equals(expected));
  });

  it('validates its arguments as the model sends them', async () => {
    const r = await runTool(tool, JSON.stringify({ path: 'src/geo.ts', old_text: 'a' }), ctx);
    assert.equal(r.ok, false);
    assert.match(r.content, /^edit_file: invalid arguments \(new_text: /);
  });

  it('fails clearly without a writer', async () => {
    const { writer: _none, ...rest } = ctx;
    await assert.rejects(
      tool.run({ path: 'src/geo.ts', old_text: 'LIMIT', new_text: 'MAX' }, rest),
      /edit_file is not available here: .*cannot change files here.*"writer"/,
    );
  });
});
