import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { SearchRequest, SearchResult } from '../../src/core/ports';
import { codeSearchTool } from '../../src/core/tools/codeSearch';
import type { ToolContext } from '../../src/core/tools/types';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { contextFor } from './helpers';

const FALLBACK_NOTE = 'JavaScript fallback (ripgrep `rg` is not installed';

for (const engine of ['ripgrep', 'javascript'] as const) {
  describe(`code_search (${engine})`, () => {
    let ws: TempWorkspace;
    let ctx: ToolContext;
    beforeEach(() => {
      ws = makeTempWorkspace({
        '.gitignore': 'gen/\n',
        'src/a.ts': 'import x from "y";\nexport function alpha() {}\nconst beta = alpha();\n',
        'src/b.py': 'def alpha():\n    pass\n',
        'gen/alpha.ts': 'alpha generated\n',
        'node_modules/m/alpha.js': 'alpha dependency\n',
        'bin/tool': new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0, 0, 1]),
      });
      ws.write('../outside/alpha.txt', 'alpha outside\n');
      // With a PATH that has no rg, createSearcher falls back to JavaScript.
      const searcher =
        engine === 'ripgrep' ? createSearcher(ws.reader) : createSearcher(ws.reader, undefined, { PATH: ws.outside });
      ctx = contextFor(ws, { searcher });
    });
    afterEach(() => ws.cleanup());

    it('groups matches by file with line numbers and names the engine', async () => {
      const r = await codeSearchTool.run({ pattern: 'alpha' }, ctx);
      assert.equal(r.ok, true);
      const lines = r.content.split('\n');
      assert.match(lines[0]!, /^3 matches in 2 files for \/alpha\/ in \. \[engine: /);
      assert.deepEqual(lines.slice(1), [
        '',
        'src/a.ts',
        '2:export function alpha() {}',
        '3:const beta = alpha();',
        '',
        'src/b.py',
        '1:def alpha():',
      ]);
      if (engine === 'ripgrep') {
        assert.ok(lines[0]!.endsWith('[engine: ripgrep]'));
      } else {
        assert.ok(lines[0]!.includes(FALLBACK_NOTE), 'says the fallback answered because rg is missing');
      }
    });

    it('shows context lines, with -- between separate groups', async () => {
      ws.write('ctx.txt', ['hit', 'a', 'b', 'c', 'd', 'e', 'f', 'hit'].join('\n'));
      const r = await codeSearchTool.run({ pattern: 'hit', path: 'ctx.txt', context: 1 }, ctx);
      assert.deepEqual(r.content.split('\n').slice(1), ['', 'ctx.txt', '1:hit', '2-a', '--', '7-f', '8:hit']);
    });

    it('filters by glob and by path', async () => {
      const byGlob = await codeSearchTool.run({ pattern: 'alpha', glob: '*.py' }, ctx);
      assert.match(byGlob.content, /^1 matches in 1 files for \/alpha\/ in \. \(glob \*\.py\)/);
      assert.ok(byGlob.content.includes('\nsrc/b.py\n'));
      const byPath = await codeSearchTool.run({ pattern: 'alpha', path: 'src/b.py' }, ctx);
      assert.ok(byPath.content.endsWith('\nsrc/b.py\n1:def alpha():'));
    });

    it('reports a miss as low signal', async () => {
      const r = await codeSearchTool.run({ pattern: 'zzz_nothing' }, ctx);
      assert.equal(r.lowSignal, true);
      assert.match(r.content, /^No matches for \/zzz_nothing\/ in \./);
    });

    it('stops at 300 matches and says more exist', async () => {
      ws.write('big.txt', Array.from({ length: 400 }, (_, i) => `hit ${i} ${'p'.repeat(40)}`).join('\n'));
      const r = await codeSearchTool.run({ pattern: '^hit' }, ctx);
      assert.match(r.content, /^300\+ matches in 1 files/);
      assert.match(
        r.content,
        /\[stopped at 300 matches; more exist: narrow the pattern, path or glob to see the rest\]$/,
      );
      assert.ok(r.spoolId, 'the result is larger than the preview limit, so it was spooled');
      const full = ctx.spool.read(r.spoolId, 0, r.bytes)!.text;
      assert.equal(full.split('\n').filter((l) => /^\d+:hit/.test(l)).length, 300);
    });

    it('cuts lines at 500 characters', async () => {
      ws.write('wide.txt', `hit ${'w'.repeat(1000)}`);
      const r = await codeSearchTool.run({ pattern: 'hit', path: 'wide.txt' }, ctx);
      const line = r.content.split('\n').at(-1)!;
      assert.equal(line, `1:hit ${'w'.repeat(496)}… [line cut: 1004 chars]`);
    });

    it('reports an invalid pattern clearly', async () => {
      const r = await codeSearchTool.run({ pattern: 'alpha(' }, ctx);
      assert.equal(r.ok, false);
      assert.match(r.content, /^code_search failed: .*(regex|regular expression)/i);
    });

    it('refuses a search path outside the workspace', async () => {
      ws.symlink('out', ws.outside, 'dir');
      for (const path of ['..', ws.outside, 'out', '~']) {
        const r = await codeSearchTool.run({ pattern: 'alpha', path }, ctx);
        assert.equal(r.ok, false);
        assert.match(r.content, /^code_search refused: path/);
        assert.ok(!r.content.includes('alpha outside'));
      }
    });
  });
}

describe('code_search result paths', () => {
  it('shows paths relative to the workspace when a subfolder is searched', async () => {
    const ws = makeTempWorkspace({ 'pkg/lib/x.ts': 'find me\n' });
    try {
      const seen: SearchRequest[] = [];
      const searcher = {
        async search(req: SearchRequest): Promise<SearchResult> {
          seen.push(req);
          return {
            files: [{ path: 'lib/x.ts', lines: [{ line: 1, text: 'find me', match: true }] }],
            matchCount: 1,
            truncated: false,
            engine: 'ripgrep',
          };
        },
      };
      const r = await codeSearchTool.run(
        { pattern: 'find', path: 'pkg', context: 2, ignore_case: true },
        contextFor(ws, { searcher }),
      );
      assert.ok(r.content.endsWith('\npkg/lib/x.ts\n1:find me'));
      assert.deepEqual(seen, [
        { root: join(ws.root, 'pkg'), pattern: 'find', contextLines: 2, maxMatches: 300, caseInsensitive: true },
      ]);
    } finally {
      ws.cleanup();
    }
  });
});
