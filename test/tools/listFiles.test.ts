import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createListFilesTool, listFilesTool } from '../../src/core/tools/listFiles';
import type { ToolContext } from '../../src/core/tools/types';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { contextFor } from './helpers';

describe('list_files', () => {
  let ws: TempWorkspace;
  let ctx: ToolContext;
  beforeEach(() => {
    ws = makeTempWorkspace({
      'README.md': '',
      'src/index.ts': '',
      'src/lib/util.ts': '',
      'src/lib/deep/x.ts': '',
      'docs/guide.md': '',
      'empty/': '',
    });
    ctx = contextFor(ws);
  });
  afterEach(() => ws.cleanup());

  it('lists breadth-first, folders marked with /', async () => {
    const r = await listFilesTool.run({}, ctx);
    assert.equal(r.ok, true);
    assert.equal(
      r.content,
      [
        'README.md',
        'docs/',
        'empty/',
        'src/',
        'docs/guide.md',
        'src/index.ts',
        'src/lib/',
        'src/lib/deep/',
        'src/lib/util.ts',
        'src/lib/deep/x.ts',
      ].join('\n'),
    );
  });

  it('limits the depth', async () => {
    assert.equal((await listFilesTool.run({ depth: 1 }, ctx)).content, 'README.md\ndocs/\nempty/\nsrc/');
    assert.equal(
      (await listFilesTool.run({ path: 'src', depth: 2 }, ctx)).content,
      'src/index.ts\nsrc/lib/\nsrc/lib/deep/\nsrc/lib/util.ts',
    );
  });

  it('names heavy folders without opening them', async () => {
    ws.write('node_modules/pkg/index.js', '');
    ws.write('dist/out.js', '');
    ws.write('.git/HEAD', '');
    ws.write('src/__pycache__/m.pyc', '');
    const r = await listFilesTool.run({ depth: 2 }, ctx);
    for (const dir of ['.git', 'dist', 'node_modules', 'src/__pycache__']) {
      assert.ok(r.content.includes(`${dir}/ (skipped: dependency/build folder)`), dir);
    }
    assert.ok(!r.content.includes('index.js'));
    assert.ok(!r.content.includes('HEAD'));
    assert.ok(!r.content.includes('m.pyc'));
  });

  it('respects .gitignore files at the root and in subfolders, with negation and info/exclude', async () => {
    ws.write('.gitignore', '*.log\nsecret/\n!keep.log\n');
    ws.write('app.log', '');
    ws.write('keep.log', '');
    ws.write('secret/key.pem', '');
    ws.write('src/.gitignore', 'generated.ts\n');
    ws.write('src/generated.ts', '');
    ws.write('docs/generated.ts', '');
    ws.write('.git/info/exclude', 'local-notes.md\n');
    ws.write('local-notes.md', '');
    const r = await listFilesTool.run({}, ctx);
    const lines = r.content.split('\n');
    assert.ok(lines.includes('keep.log'), 'negation re-includes');
    assert.ok(lines.includes('docs/generated.ts'), 'src/.gitignore does not apply to docs/');
    for (const gone of ['app.log', 'secret/', 'secret/key.pem', 'src/generated.ts', 'local-notes.md']) {
      assert.ok(!lines.includes(gone), `${gone} is hidden`);
    }
    assert.match(r.content, /\[4 entries hidden by \.gitignore\]/);
  });

  it('applies parent .gitignore files when listing a subfolder', async () => {
    ws.write('.gitignore', 'lib/\n');
    const r = await listFilesTool.run({ path: 'src' }, ctx);
    assert.equal(r.content, 'src/index.ts\n[1 entries hidden by .gitignore]');
  });

  it('caps at 200 entries by default and says how many were left out', async () => {
    for (let i = 0; i < 150; i++) ws.write(`many/a${String(i).padStart(3, '0')}.txt`, '');
    for (let i = 0; i < 150; i++) ws.write(`many/sub/b${String(i).padStart(3, '0')}.txt`, '');
    const r = await listFilesTool.run({ path: 'many' }, ctx);
    const lines = r.content.split('\n');
    assert.equal(lines.length, 201);
    assert.equal(lines[0], 'many/a000.txt');
    assert.equal(lines[199], 'many/sub/b048.txt');
    assert.equal(lines[200], '[200 entries shown, 101 left out (limit 200): list a subfolder or pass a smaller depth]');
  });

  it('takes another cap from its options', async () => {
    const r = await createListFilesTool({ maxEntries: 3 }).run({}, ctx);
    assert.equal(
      r.content,
      'README.md\ndocs/\nempty/\n[3 entries shown, 7 left out (limit 3): list a subfolder or pass a smaller depth]',
    );
  });

  it('marks symlinks and does not follow them', async () => {
    ws.symlink('link-out', ws.outside, 'dir');
    ws.write('../outside/secret.txt', '');
    ws.symlink('src/alias.ts', ws.path('src/index.ts'));
    const r = await listFilesTool.run({}, ctx);
    assert.ok(r.content.split('\n').includes('link-out@'));
    assert.ok(r.content.split('\n').includes('src/alias.ts@'));
    assert.ok(!r.content.includes('secret'));
    assert.match(r.content, /\[@ marks a symlink; it is not followed\]/);
  });

  it('refuses folders outside the workspace', async () => {
    ws.symlink('link-out', ws.outside, 'dir');
    for (const path of ['..', ws.outside, '~', 'link-out']) {
      const r = await listFilesTool.run({ path }, ctx);
      assert.equal(r.ok, false, path);
      assert.match(r.content, /^list_files refused: path '.*' (is outside the workspace|starts with '~')/);
    }
  });

  it('reports empty folders, missing paths and files as such', async () => {
    const empty = await listFilesTool.run({ path: 'empty' }, ctx);
    assert.equal(empty.lowSignal, true);
    assert.equal(empty.content, 'empty is an empty folder');
    const missing = await listFilesTool.run({ path: 'nope' }, ctx);
    assert.equal(missing.lowSignal, true);
    assert.match(missing.content, /nope does not exist/);
    assert.match(
      (await listFilesTool.run({ path: 'README.md' }, ctx)).content,
      /README\.md is a file, not a folder; use read_file/,
    );
  });

  it('lists an absolute path inside the workspace relative to the root', async () => {
    assert.equal((await listFilesTool.run({ path: join(ws.root, 'docs') }, ctx)).content, 'docs/guide.md');
  });

  it('keeps the queue order while folders are read ahead, and says which could not be read', async () => {
    for (let i = 0; i < 12; i++) ws.write(`many/d${String(i).padStart(2, '0')}/f.txt`, '');
    const unreadable = new Set([ws.path('many/d03'), ws.path('many/d07')]);
    const inFlight = { now: 0, most: 0 };
    const reader = Object.create(ws.reader) as typeof ws.reader;
    reader.readDir = async (dir: string) => {
      inFlight.most = Math.max(inFlight.most, ++inFlight.now);
      try {
        // Later folders answer first: the listing must not follow the order of the answers.
        await new Promise((r) => setTimeout(r, dir.endsWith('d00') ? 30 : 1));
        if (unreadable.has(dir)) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
        return await ws.reader.readDir(dir);
      } finally {
        inFlight.now--;
      }
    };
    const r = await listFilesTool.run({ path: 'many' }, contextFor(ws, { reader }));
    const dirs = Array.from({ length: 12 }, (_, i) => `many/d${String(i).padStart(2, '0')}/`);
    const files = dirs.filter((_, i) => i !== 3 && i !== 7).map((d) => `${d}f.txt`);
    assert.equal(r.content, [...dirs, ...files, '[2 folders could not be read]'].join('\n'));
    assert.ok(inFlight.most > 1, 'no folder was read ahead');
  });

  it('reads a .gitignore only in the folders whose listing has one', async () => {
    ws.write('src/lib/.gitignore', 'util.ts\n');
    const reads: string[] = [];
    const reader = Object.create(ws.reader) as typeof ws.reader;
    reader.readFile = (p: string) => {
      reads.push(p.slice(ws.root.length + 1));
      return ws.reader.readFile(p);
    };
    const r = await listFilesTool.run({}, contextFor(ws, { reader }));
    assert.ok(!r.content.split('\n').includes('src/lib/util.ts'), r.content);
    assert.deepEqual(reads.sort(), ['.git/info/exclude', '.gitignore', 'src/lib/.gitignore']);
  });
});
