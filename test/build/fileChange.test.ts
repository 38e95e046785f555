/**
 * A file tool measures what it changed once: lines added and removed and a unified diff, on real
 * files, checked against git's own diff of the same two texts; the dispatcher carries them in the
 * call's result event with the row's words ("Edited src/a.ts", "Created notes.txt").
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ItemPayload } from '../../src/core/index';
import { DIFF_MAX_LINES, fileChange } from '../../src/core/build/fileChange';
import { editFileTool } from '../../src/core/tools/build/editFile';
import { writeFileTool } from '../../src/core/tools/build/writeFile';
import type { AgentToolContext } from '../../src/core/tools/session/context';
import { Printer } from '../../src/cli/render/printer';
import { makeStyle } from '../../src/cli/render/style';
import { TranscriptRenderer } from '../../src/cli/render/transcript';
import { Capture } from '../cli/cliHarness';
import { agentContextFor } from '../sessionTools/helpers';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness } from '../support/sessionHarness';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

/** git's reading of the same change: `git diff --no-index` of two real files (added, removed, hunks). */
function gitDiff(before: string | undefined, after: string): { added: number; removed: number; hunks: string } {
  const dir = mkdtempSync(join(tmpdir(), 'planwise-gitdiff-'));
  try {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    writeFileSync(b, after);
    const old = before === undefined ? '/dev/null' : a;
    if (before !== undefined) writeFileSync(a, before);
    const run = (...args: string[]) => {
      try {
        return execFileSync('git', ['diff', '--no-index', '--no-color', ...args, old, b], { cwd: dir }).toString();
      } catch (err) {
        // Exit code 1: the files differ.
        return String((err as { stdout: Buffer }).stdout);
      }
    };
    const [added = '0', removed = '0'] = run('--numstat').trim().split(/\s+/);
    const patch = run('-U3');
    // git follows a hunk's `@@` line with the nearest line above it that looks like a heading.
    const hunks = patch
      .slice(patch.search(/^@@/m))
      .replace(/\n$/, '')
      .replace(/^(@@ [^@]+ @@).*$/gm, '$1');
    return { added: Number(added), removed: Number(removed), hunks: patch.includes('@@') ? hunks : '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The diff's hunks: without the file headers. */
const hunksOf = (diff: string) =>
  diff
    .split('\n')
    .filter((l) => !/^(---|\+\+\+) /.test(l))
    .join('\n');

const lines = (n: number, word = 'line') => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n') + '\n';

describe('file changes measured once, in the engine', () => {
  let ws: TempWorkspace;
  let ctx: AgentToolContext;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'src/a.ts': lines(20) });
    ctx = agentContextFor(ws);
  });
  afterEach(() => ws.cleanup());

  it('edit_file: the counts and the hunks are what git says of the same change', async () => {
    const before = lines(20);
    const r = await editFileTool.run(
      { path: 'src/a.ts', old_text: 'line 5\nline 6\n', new_text: 'line five\nnew a\nnew b\nline 6 changed\n' },
      ctx,
    );
    assert.equal(r.ok, true, r.content);
    const change = r.change!;
    const git = gitDiff(before, (await ws.reader.readFile(ws.path('src/a.ts'))).toString());
    assert.deepEqual([change.added, change.removed], [git.added, git.removed]);
    assert.deepEqual([change.added, change.removed], [4, 2]);
    assert.equal(change.action, 'edited');
    assert.equal(change.path, 'src/a.ts');
    assert.equal(hunksOf(change.diff), git.hunks);
    assert.match(change.diff, /^--- a\/src\/a\.ts\n\+\+\+ b\/src\/a\.ts\n@@ -2,8 \+2,10 @@\n/);
    assert.equal(change.omitted, 0);
  });

  it('edit_file with replace_all: every replacement counted, in separate hunks as git has them', async () => {
    ws.write('src/b.ts', `${lines(3, 'x')}${lines(10)}${lines(3, 'x')}`);
    const before = (await ws.reader.readFile(ws.path('src/b.ts'))).toString();
    const r = await editFileTool.run(
      { path: 'src/b.ts', old_text: 'x 2\n', new_text: 'y 2\ny 3\n', replace_all: true },
      ctx,
    );
    assert.equal(r.ok, true, r.content);
    const after = (await ws.reader.readFile(ws.path('src/b.ts'))).toString();
    const git = gitDiff(before, after);
    assert.deepEqual([r.change!.added, r.change!.removed], [git.added, git.removed]);
    assert.deepEqual([r.change!.added, r.change!.removed], [4, 2]);
    assert.equal(hunksOf(r.change!.diff), git.hunks);
    assert.equal(r.change!.diff.match(/^@@ /gm)?.length, 2);
  });

  it('write_file: a new file is Created with every line added, against /dev/null', async () => {
    const content = 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n';
    const r = await writeFileTool.run({ path: 'src/new.ts', content }, ctx);
    assert.equal(r.ok, true, r.content);
    const git = gitDiff(undefined, content);
    assert.deepEqual([r.change!.action, r.change!.added, r.change!.removed], ['created', 3, 0]);
    assert.deepEqual([r.change!.added, r.change!.removed], [git.added, git.removed]);
    assert.match(r.change!.diff, /^--- \/dev\/null\n\+\+\+ b\/src\/new\.ts\n@@ -0,0 \+1,3 @@\n\+export const a = 1;/);
    assert.equal(hunksOf(r.change!.diff), git.hunks);
  });

  it('write_file over an existing file: Wrote, counted against what it replaced (a missing last newline too)', async () => {
    const before = lines(20);
    const after = lines(20).replace('line 10\n', 'line ten\n').replace(/\n$/, '');
    const r = await writeFileTool.run({ path: 'src/a.ts', content: after }, ctx);
    assert.equal(r.ok, true, r.content);
    const git = gitDiff(before, after);
    assert.equal(r.change!.action, 'replaced');
    assert.deepEqual([r.change!.added, r.change!.removed], [git.added, git.removed]);
    assert.deepEqual([r.change!.added, r.change!.removed], [2, 2]);
    assert.equal(hunksOf(r.change!.diff), git.hunks);
    assert.match(r.change!.diff, /\n\\ No newline at end of file$/);
  });

  it('write_file with the same content: nothing added or removed, no diff', async () => {
    const r = await writeFileTool.run({ path: 'src/a.ts', content: lines(20) }, ctx);
    assert.deepEqual([r.change!.added, r.change!.removed, r.change!.diff], [0, 0, '']);
  });

  it('a failed call carries no change', async () => {
    const r = await editFileTool.run({ path: 'src/a.ts', old_text: 'not there', new_text: 'x' }, ctx);
    assert.equal(r.ok, false);
    assert.equal(r.change, undefined);
  });

  it('a huge change is counted whole and its diff cut, saying how many lines were left out', () => {
    const change = fileChange('big.txt', 'created', undefined, lines(5000));
    assert.equal(change.added, 5000);
    const shown = change.diff.split('\n');
    assert.equal(shown.length, DIFF_MAX_LINES);
    assert.equal(shown.length + change.omitted, 5000 + 3);
    const wide = fileChange('wide.txt', 'created', undefined, `${'x'.repeat(100_000)}\n`);
    assert.ok(wide.diff.length < 1000, 'a very long line is cut');
    assert.match(wide.diff, /… \[line cut: 100001 chars\]$/);
  });

  it('travels in the result event of a build: row words, counts and diff', async function () {
    this.timeout(30_000);
    const h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan('Edit the files', 'src/a.ts'))),
        sse.toolTurn([
          { name: 'edit_file', args: { path: 'src/a.ts', old_text: 'line 3\n', new_text: 'line 3\nline 3b\n' } },
        ]),
        sse.toolTurn([{ name: 'write_file', args: { path: 'src/a.ts', content: 'only\n' } }]),
        sse.textTurn('Done.'),
      ],
      { files: { 'src/a.ts': lines(5) }, approve: () => ({ decision: 'execute' }) },
    );
    try {
      const results: ItemPayload[] = [];
      h.session.bus.on((e) => {
        if (e.type === 'item.completed' && e.item.kind === 'tool_result') results.push(e.item);
      });
      // The CLI prints the same events.
      const out = new Capture();
      const cli = new TranscriptRenderer(new Printer(out), makeStyle(false), (f) => f);
      h.session.bus.on((e) => cli.handle(e));
      await h.session.start('edit the files');
      const printed = out.text.split('\n').filter((l) => /^ {2}✓ (Edited|Wrote|Created) /.test(l));
      assert.deepEqual(printed, ['  ✓ Edited src/a.ts +1 \u22120', '  ✓ Wrote src/a.ts +1 \u22126']);
      const seen = results.map((i) => [i.result!.title, i.result!.change?.added, i.result!.change?.removed]);
      assert.deepEqual(seen, [
        ['Edited src/a.ts', 1, 0],
        ['Wrote src/a.ts', 1, 6],
      ]);
      assert.match(results[0]!.result!.change!.diff, /\n line 3\n\+line 3b\n line 4\n/);
      assert.equal(results[0]!.result!.change!.note, undefined, 'saved to disk: nothing to say');
    } finally {
      await h.close();
    }
  });
});
