import assert from 'node:assert/strict';
import { promises as fsp, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExcludingReader, compileFilesExclude } from '../../src/host/adapters/filesExclude';
import { FILE_TYPE, VscodeWorkspaceReader, VscodeWorkspaceWriter, type FsApi } from '../../src/host/adapters/vscodeFs';
import { judgeCommand } from '../../src/core/gate';
import { createListFilesTool, execCommandTool, runTool } from '../../src/core/tools';
import { gateContextOf } from '../../src/core/tools/types';
import { RecordingRunner, contextFor } from '../tools/helpers';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

/** `vscode.workspace.fs` over Node, with VS Code's error shape ('FileNotFound'); URIs are plain paths. */
function nodeFsApi(calls: string[] = []): FsApi<string> {
  const wrap = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT')
        throw Object.assign(new Error('EntryNotFound (FileSystemError)'), { code: 'FileNotFound' });
      throw err;
    }
  };
  return {
    stat: (p) =>
      wrap(async () => {
        const s = await fsp.stat(p);
        return { type: s.isDirectory() ? FILE_TYPE.Directory : FILE_TYPE.File, size: s.size, mtime: s.mtimeMs };
      }),
    readFile: (p) => wrap(() => fsp.readFile(p)),
    readDirectory: (p) =>
      wrap(async () =>
        (await fsp.readdir(p, { withFileTypes: true })).map(
          (e) => [e.name, e.isDirectory() ? FILE_TYPE.Directory : FILE_TYPE.File] as [string, number],
        ),
      ),
    writeFile: (p, c) => wrap(async () => (calls.push(`write ${p}`), fsp.writeFile(p, c))),
    rename: (a, b) => wrap(async () => (calls.push(`rename ${a} -> ${b}`), fsp.rename(a, b))),
    createDirectory: (p) => wrap(() => fsp.mkdir(p, { recursive: true }).then(() => undefined)),
    delete: (p) => wrap(() => fsp.rm(p, { force: true })),
  };
}

describe('VS Code workspace adapters', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace({
      'src/a.ts': 'a',
      'src/a.js': 'compiled',
      'src/b.js': 'plain js',
      'out/bundle.js': 'x',
      'notes/todo.md': 'todo',
      '.gitignore': 'ignored/\n',
      'ignored/x.txt': 'x',
    });
  });
  afterEach(() => ws.cleanup());

  const reader = () =>
    new VscodeWorkspaceReader(
      [ws.root],
      nodeFsApi(),
      (p) => p,
      (p) => fsp.realpath(p),
    );

  it('reads, stats and lists through workspace.fs, reporting missing files the way the core expects', async () => {
    const r = reader();
    assert.equal(new TextDecoder().decode(await r.readFile(ws.path('src/a.ts'))), 'a');
    assert.equal((await r.stat(ws.path('src')))?.type, 'dir');
    assert.equal(await r.stat(ws.path('nope')), undefined);
    await assert.rejects(r.readFile(ws.path('nope')), (e: { code?: string }) => e.code === 'ENOENT');
    await assert.rejects(r.realpath(ws.path('nope')), (e: { code?: string }) => e.code === 'ENOENT');
    assert.deepEqual((await r.readDir(ws.path('src'))).map((e) => e.name).sort(), ['a.js', 'a.ts', 'b.js']);
  });

  it('writes atomically: a temporary file beside the target, then a rename over it', async () => {
    const calls: string[] = [];
    const w = new VscodeWorkspaceWriter(nodeFsApi(calls), (p) => p);
    await w.writeFileAtomic(ws.path('deep/new/file.txt'), 'hello');
    await w.writeFileAtomic(ws.path('deep/new/file.txt'), new TextEncoder().encode('again'));
    assert.equal(readFileSync(ws.path('deep/new/file.txt'), 'utf8'), 'again');
    assert.equal(calls.length, 4);
    assert.match(calls[0]!, /^write .*deep\/new\/\.file\.txt\.planwise-[0-9a-f]{8}\.tmp$/);
    assert.match(calls[1]!, /^rename .*\.tmp -> .*deep\/new\/file\.txt$/);
    assert.deepEqual(readdirSync(ws.path('deep/new')), ['file.txt'], 'no temporary file is left');
  });

  it('removes the temporary file when the rename fails', async () => {
    const api = nodeFsApi();
    const failing: FsApi<string> = { ...api, rename: () => Promise.reject(new Error('disk full')) };
    const w = new VscodeWorkspaceWriter(failing, (p) => p);
    ws.mkdir('d');
    await assert.rejects(w.writeFileAtomic(ws.path('d/f.txt'), 'x'), /disk full/);
    assert.deepEqual(readdirSync(ws.path('d')), []);
  });

  it('compiles files.exclude: globs, false entries and "when" siblings', () => {
    const m = compileFilesExclude({
      '**/out': true,
      '**/*.js': { when: '$(basename).ts' },
      '**/.git': true,
      notes: false,
    });
    const siblings = new Set(['a.ts', 'a.js', 'b.js']);
    assert.equal(m('out', new Set()), true);
    assert.equal(m('pkg/out', new Set()), true);
    assert.equal(m('src/a.js', siblings), true, 'a.js has a.ts beside it');
    assert.equal(m('src/b.js', siblings), false, 'b.js has no b.ts');
    assert.equal(m('notes', new Set()), false, 'false entries exclude nothing');
    assert.equal(compileFilesExclude(undefined)('anything', new Set()), false);
  });

  it('leaves files.exclude entries out of listings, on top of .gitignore, so list_files shows the Explorer tree', async () => {
    const excluding = new ExcludingReader(reader(), () =>
      compileFilesExclude({ '**/out': true, '**/*.js': { when: '$(basename).ts' } }),
    );
    assert.deepEqual((await excluding.readDir(ws.root)).map((e) => e.name).sort(), [
      '.gitignore',
      'ignored',
      'notes',
      'src',
    ]);
    assert.deepEqual((await excluding.readDir(ws.path('src'))).map((e) => e.name).sort(), ['a.ts', 'b.js']);
    assert.equal(
      new TextDecoder().decode(await excluding.readFile(ws.path('src/a.js'))),
      'compiled',
      'reads are not filtered',
    );

    const result = await runTool(createListFilesTool(), '{}', contextFor(ws, { reader: excluding }));
    const listed = result.content;
    assert.match(listed, /src\/a\.ts/);
    assert.match(listed, /src\/b\.js/);
    assert.doesNotMatch(listed, /src\/a\.js/);
    assert.doesNotMatch(listed, /out\/bundle\.js/);
    assert.doesNotMatch(listed, /ignored\/x\.txt/);
  });

  // A shell expands `l*` over what is on disk, files.exclude or not: the gate must judge the same
  // words, or a hidden symlink to a folder outside the workspace would pass as a missing path.
  it('judges shell commands on the unfiltered folders: an entry files.exclude hides is still seen by the gate', async () => {
    writeFileSync(join(ws.outside, 'secret.txt'), 'outside');
    ws.symlink('linked', ws.outside, 'dir');
    const inner = reader();
    const excluding = new ExcludingReader(inner, () => compileFilesExclude({ '**/linked': true }));
    assert.ok(!(await excluding.readDir(ws.root)).some((e) => e.name === 'linked'), 'the view hides linked');

    const ctx = contextFor(ws, { reader: excluding, gateFs: inner, runner: new RecordingRunner() });
    const judged = await judgeCommand('cat l*/secret.txt', gateContextOf(ctx));
    assert.equal(judged.verdict.allowed, false);
    assert.match(judged.verdict.reason, /outside the workspace/);
    const run = await runTool(execCommandTool, JSON.stringify({ command: 'cat l*/secret.txt' }), ctx);
    assert.equal(run.ok, false);
    assert.match(run.content, /outside the workspace/);
    assert.deepEqual((ctx.runner as RecordingRunner).calls, [], 'the command ran');
  });

  it('reads the setting at every listing, so a change applies at once', async () => {
    let setting: Record<string, unknown> = {};
    const excluding = new ExcludingReader(reader(), () => compileFilesExclude(setting));
    assert.ok((await excluding.readDir(ws.root)).some((e) => e.name === 'notes'));
    setting = { notes: true };
    assert.ok(!(await excluding.readDir(ws.root)).some((e) => e.name === 'notes'));
    assert.ok(statSync(ws.path('notes')).isDirectory());
  });

  it('lists folders outside every root unfiltered', async () => {
    const excluding = new ExcludingReader(reader(), () => compileFilesExclude({ '**': true }));
    ws.mkdir('../outside/x');
    assert.deepEqual(
      (await excluding.readDir(join(ws.outside))).map((e) => e.name),
      ['x'],
    );
  });
});
