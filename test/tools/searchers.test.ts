import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchRequest, Searcher } from '../../src/core/ports';
import { JsSearcher } from '../../src/core/tools/jsSearch';
import { RipgrepSearcher, createSearcher, findRipgrep } from '../../src/node/ripgrepSearcher';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

const rg = findRipgrep();

function tree(): TempWorkspace {
  return makeTempWorkspace({
    '.gitignore': 'ignored.txt\nlogs/\n*.gen.ts\n!keep.gen.ts\n',
    'a.ts': 'const needle = 1;\nline two\nline three\nneedle again\n',
    'b/c.ts': 'x\ny\nNEEDLE upper\nz\n',
    'b/d.py': 'needle = "py"\r\nother\r\n',
    'b.ts': 'needle in b.ts\n',
    'ignored.txt': 'needle ignored\n',
    'logs/x.log': 'needle in logs\n',
    'sub/.gitignore': 'local.ts\n',
    'sub/local.ts': 'needle local\n',
    'sub/kept.ts': 'needle kept\n',
    'out.gen.ts': 'needle generated\n',
    'keep.gen.ts': 'needle kept generated\n',
    'node_modules/pkg/index.js': 'needle dependency\n',
    'dist/bundle.js': 'needle built\n',
    '.github/workflow.yml': 'needle hidden\n',
    'image.bin': new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2]),
  });
}

function request(ws: TempWorkspace, extra: Partial<SearchRequest> = {}): SearchRequest {
  return { root: ws.root, pattern: 'needle', contextLines: 0, maxMatches: 300, ...extra };
}

describe('searchers', () => {
  it('findRipgrep finds an executable rg on PATH and nothing on a PATH without one', () => {
    assert.ok(rg, 'this suite expects rg to be installed');
    assert.match(rg, /rg(\.exe)?$/);
    const dir = mkdtempSync(join(tmpdir(), 'planwise-path-'));
    try {
      assert.equal(findRipgrep({ PATH: dir }), undefined);
      writeFileSync(join(dir, 'rg'), '#!/bin/sh\n');
      assert.equal(findRipgrep({ PATH: dir }), undefined, 'a non-executable rg is skipped');
      chmodSync(join(dir, 'rg'), 0o755);
      assert.equal(findRipgrep({ PATH: dir }), join(dir, 'rg'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('createSearcher picks ripgrep when it exists and the JavaScript fallback otherwise', () => {
    const ws = makeTempWorkspace();
    try {
      assert.ok(createSearcher(ws.reader) instanceof RipgrepSearcher);
      assert.ok(createSearcher(ws.reader, rg) instanceof RipgrepSearcher);
      assert.ok(createSearcher(ws.reader, null) instanceof JsSearcher);
      assert.ok(createSearcher(ws.reader, undefined, { PATH: ws.root }) instanceof JsSearcher);
      assert.ok(createSearcher(ws.reader, ws.path('no-rg-here')) instanceof JsSearcher);
    } finally {
      ws.cleanup();
    }
  });

  const engines: [string, (ws: TempWorkspace) => Searcher][] = [
    ['ripgrep', (ws) => new RipgrepSearcher(rg!, ws.reader)],
    ['javascript', (ws) => new JsSearcher(ws.reader)],
  ];

  for (const [engine, make] of engines) {
    describe(engine, () => {
      let ws: TempWorkspace;
      beforeEach(() => (ws = tree()));
      afterEach(() => ws.cleanup());

      it('finds matches in path order, honouring .gitignore, heavy folders and binary files', async () => {
        const r = await make(ws).search(request(ws));
        assert.equal(r.engine, engine);
        assert.deepEqual(
          r.files.map((f) => f.path),
          ['.github/workflow.yml', 'a.ts', 'b/d.py', 'b.ts', 'keep.gen.ts', 'sub/kept.ts'],
        );
        assert.equal(r.matchCount, 7);
        assert.equal(r.truncated, false);
        assert.deepEqual(r.files[1]!.lines, [
          { line: 1, text: 'const needle = 1;', match: true },
          { line: 4, text: 'needle again', match: true },
        ]);
        assert.deepEqual(r.files[2]!.lines, [{ line: 1, text: 'needle = "py"', match: true }], 'CR is stripped');
      });

      it('gives context lines around matches, merged where they overlap', async () => {
        const r = await make(ws).search(request(ws, { glob: 'a.ts', contextLines: 1 }));
        assert.deepEqual(r.files, [
          {
            path: 'a.ts',
            lines: [
              { line: 1, text: 'const needle = 1;', match: true },
              { line: 2, text: 'line two', match: false },
              { line: 3, text: 'line three', match: false },
              { line: 4, text: 'needle again', match: true },
            ],
          },
        ]);
      });

      it('filters by glob on the file name or the relative path', async () => {
        const byName = await make(ws).search(request(ws, { glob: '*.py' }));
        assert.deepEqual(
          byName.files.map((f) => f.path),
          ['b/d.py'],
        );
        const byPath = await make(ws).search(request(ws, { glob: 'b/**' }));
        assert.deepEqual(
          byPath.files.map((f) => f.path),
          ['b/d.py'],
        );
        const braces = await make(ws).search(request(ws, { glob: '*.{py,yml}' }));
        assert.deepEqual(
          braces.files.map((f) => f.path),
          ['.github/workflow.yml', 'b/d.py'],
        );
      });

      it('searches case-insensitively on request, or with a leading (?i)', async () => {
        const flag = await make(ws).search(request(ws, { glob: 'c.ts', caseInsensitive: true }));
        assert.equal(flag.matchCount, 1);
        const inline = await make(ws).search(request(ws, { glob: 'c.ts', pattern: '(?i)needle' }));
        assert.equal(inline.matchCount, 1);
        const plain = await make(ws).search(request(ws, { glob: 'c.ts' }));
        assert.equal(plain.matchCount, 0);
      });

      it('searches a single file given as the root', async () => {
        const r = await make(ws).search(request(ws, { root: ws.path('b/c.ts'), pattern: 'y|z' }));
        assert.deepEqual(r.files, [
          {
            path: 'c.ts',
            lines: [
              { line: 2, text: 'y', match: true },
              { line: 4, text: 'z', match: true },
            ],
          },
        ]);
      });

      it('stops at maxMatches and says more exist, but not when exactly that many exist', async () => {
        ws.write('many.txt', Array.from({ length: 50 }, (_, i) => `hit ${i}`).join('\n') + '\n');
        ws.write('more.txt', 'hit more\n');
        const cut = await make(ws).search(request(ws, { pattern: '^hit', maxMatches: 20, contextLines: 0 }));
        assert.equal(cut.matchCount, 20);
        assert.equal(cut.truncated, true);
        assert.deepEqual(
          cut.files.map((f) => f.path),
          ['many.txt'],
        );
        assert.equal(cut.files[0]!.lines.at(-1)!.text, 'hit 19');
        const exact = await make(ws).search(request(ws, { pattern: '^hit', maxMatches: 51 }));
        assert.equal(exact.matchCount, 51);
        assert.equal(exact.truncated, false);
      });

      it('does not let a glob bring back gitignored files', async () => {
        const r = await make(ws).search(request(ws, { glob: '*.{txt,ts}' }));
        assert.deepEqual(
          r.files.map((f) => f.path),
          ['a.ts', 'b.ts', 'keep.gen.ts', 'sub/kept.ts'],
        );
      });

      it('applies the workspace .gitignore files above a searched subfolder', async () => {
        ws.write('sub/x.gen.ts', 'needle generated in sub\n');
        ws.write('sub/deeper/y.gen.ts', 'needle generated deeper\n');
        const r = await make(ws).search(request(ws, { root: ws.path('sub') }));
        assert.deepEqual(
          r.files.map((f) => f.path),
          ['kept.ts'],
        );
        assert.equal(r.matchCount, 1);
      });

      it('ignores .gitignore files above the workspace root', async () => {
        ws.write('../.gitignore', '*\n');
        const r = await make(ws).search(request(ws));
        assert.equal(r.matchCount, 7);
      });

      it('reports an invalid regular expression', async () => {
        await assert.rejects(make(ws).search(request(ws, { pattern: 'a(b' })), /regex|regular expression/i);
      });

      it('stops when cancelled', async () => {
        const controller = new AbortController();
        controller.abort(new Error('user cancelled'));
        await assert.rejects(make(ws).search(request(ws, { signal: controller.signal })), /user cancelled/);
      });
    });
  }

  it('both engines give identical results on the same tree', async () => {
    const ws = tree();
    try {
      ws.write(
        'ctx.txt',
        Array.from({ length: 40 }, (_, i) => (i % 7 === 0 ? `needle ${i}` : `filler ${i}`)).join('\n'),
      );
      const cases = [
        {},
        { contextLines: 2 },
        { contextLines: 3, maxMatches: 4 },
        { glob: '!*.ts' },
        { glob: '*.txt' },
        { glob: '*.ts' },
      ];
      for (const extra of cases) {
        const a = await new RipgrepSearcher(rg!, ws.reader).search(request(ws, extra));
        const b = await new JsSearcher(ws.reader).search(request(ws, extra));
        assert.deepEqual({ ...b, engine: 'ripgrep' }, a, `differ for ${JSON.stringify(extra)}`);
      }
    } finally {
      ws.cleanup();
    }
  });

  // ripgrep searches in parallel (unsorted) and the searcher sorts; a search past the cap runs
  // again with --sort path. Either way the files must come in ripgrep's own --sort path order.
  it("gives ripgrep's --sort path order whether the search ran in parallel or sorted", async () => {
    const names = ['b', 'b.ts', 'b-c', 'b/c', 'B', 'a b', 'é', 'z', 'Z9', 'ä/x', 'x\u{1F600}', 'x\uFFFD', '_', '~'];
    const files: Record<string, string> = {};
    for (const [i, name] of names.entries()) {
      for (let j = 0; j < 30; j++) files[`${name}/d${j % 3}/f${j}.txt`] = `hit ${i}.${j}\n`;
      files[`${name}.txt`] = `hit ${i}\n`;
    }
    const ws = makeTempWorkspace(files);
    try {
      const sortedByRg = spawnSync(rg!, ['--files-with-matches', '--sort', 'path', '--no-config', '--', 'hit', '.'], {
        cwd: ws.root,
        encoding: 'utf8',
      })
        .stdout.split('\n')
        .filter(Boolean)
        .map((p) => p.replace(/^\.\//, ''));
      assert.equal(sortedByRg.length, names.length * 31);
      const searcher = new RipgrepSearcher(rg!, ws.reader);
      // Every match under the cap: the parallel run, sorted here.
      const all = await searcher.search(request(ws, { pattern: '^hit', maxMatches: 10_000 }));
      assert.equal(all.truncated, false);
      assert.deepEqual(
        all.files.map((f) => f.path),
        sortedByRg,
      );
      // The JavaScript fallback walks in the same order.
      const js = await new JsSearcher(ws.reader).search(request(ws, { pattern: '^hit', maxMatches: 10_000 }));
      assert.deepEqual(
        js.files.map((f) => f.path),
        sortedByRg,
      );
      // Past the cap: the first 100 matches in that order, and the same files as a prefix of it.
      const cut = await searcher.search(request(ws, { pattern: '^hit', maxMatches: 100 }));
      assert.equal(cut.truncated, true);
      assert.equal(cut.matchCount, 100);
      assert.deepEqual(cut.files, all.files.slice(0, 100));
    } finally {
      ws.cleanup();
    }
  });
});
