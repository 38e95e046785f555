/**
 * Revert Build's one question, over the facts the engine computes from a real build's checkpoints
 * in a temporary workspace: it names only the files the person changed after the build (never a
 * file only Planwise's own revert, or an Undo of it, touched), once, with the safer choice first.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterRevert, parseManifest, planRevert } from '../../src/core/build/revert';
import { editFileTool } from '../../src/core/tools/build/editFile';
import { writeFileTool } from '../../src/core/tools/build/writeFile';
import { FileCheckpointStore } from '../../src/node/fileCheckpointStore';
import { applyRevertOnDisk, readOnDisk } from '../../src/node/revertFiles';
import { revertQuestion } from '../../src/host/commands/revertQuestion';
import { guardedContext } from '../build/helpers';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

describe('Revert Build asks one question, about the person’s changes only', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n' });
  });
  afterEach(() => ws.cleanup());

  async function build() {
    const store = new FileCheckpointStore(ws.outside, 's1');
    const { ctx, ledger } = guardedContext(ws, { mode: 'record', store });
    ledger.stepStarted('1');
    for (const [path, from, to] of [
      ['src/a.ts', 'a = 1', 'a = 10'],
      ['src/b.ts', 'b = 2', 'b = 20'],
    ] as const) {
      assert.equal((await editFileTool.run({ path, old_text: from, new_text: to }, ctx)).ok, true);
    }
    assert.equal((await writeFileTool.run({ path: 'src/c.ts', content: 'export const c = 3;\n' }, ctx)).ok, true);
    await ledger.stepCompleted('1');
    const manifest = parseManifest(await store.readManifest());
    assert.ok(manifest);
    return { store, manifest };
  }

  it('revert, Undo, revert again: one question with one choice, nothing asked per file', async () => {
    const { store, manifest } = await build();
    const first = await planRevert(manifest, store, readOnDisk);
    assert.ok(first.ok);
    const q1 = revertQuestion(first.plan.items, 'the state before the build');
    assert.equal(q1.message, 'Revert 3 files to the state before the build?');
    assert.deepEqual(
      q1.choices.map((c) => [c.label, c.items.length]),
      [['Revert', 3]],
    );
    assert.match(q1.detail, /^restore src\/a\.ts\nrestore src\/b\.ts\nremove src\/c\.ts\n\n/);
    const built = ['src/a.ts', 'src/b.ts', 'src/c.ts'].map((p) => readFileSync(ws.path(p)));
    await applyRevertOnDisk(q1.choices[0]!.items);
    const reverted = afterRevert(manifest, q1.choices[0]!.items);
    // The editor's Undo puts back the build's result.
    ['src/a.ts', 'src/b.ts', 'src/c.ts'].forEach((p, i) => writeFileSync(ws.path(p), built[i]!));
    const again = await planRevert(reverted, store, readOnDisk);
    assert.ok(again.ok);
    const q2 = revertQuestion(again.plan.items, 'the state before the build');
    assert.equal(q2.message, 'Revert 3 files to the state before the build?');
    assert.deepEqual(
      q2.choices.map((c) => c.label),
      ['Revert'],
    );
  });

  it('a file the person changed is named in the one question; Keep My Changes comes first and reverts the rest', async () => {
    const { store, manifest } = await build();
    writeFileSync(ws.path('src/a.ts'), 'export const a = 1000; // mine\n');
    const r = await planRevert(manifest, store, readOnDisk);
    assert.ok(r.ok);
    const q = revertQuestion(r.plan.items, 'step 1');
    assert.equal(q.message, 'Revert 3 files to step 1? src/a.ts was changed after the build.');
    assert.match(
      q.detail,
      /^Changed after the build \(your changes would be replaced\):\nrestore src\/a\.ts\n\nOnly the build changed:\nrestore src\/b\.ts\nremove src\/c\.ts\n\n/,
    );
    assert.deepEqual(
      q.choices.map((c) => [c.label, c.items.map((i) => i.path)]),
      [
        ['Revert, Keep My Changes', ['src/b.ts', 'src/c.ts']],
        ['Revert All', ['src/a.ts', 'src/b.ts', 'src/c.ts']],
      ],
    );
    await applyRevertOnDisk(q.choices[0]!.items);
    assert.equal(readFileSync(ws.path('src/a.ts'), 'utf8'), 'export const a = 1000; // mine\n');
    assert.equal(readFileSync(ws.path('src/b.ts'), 'utf8'), 'export const b = 2;\n');
  });

  it('when every file is the person’s, the only choice replaces them all, and the question counts them', async () => {
    const { store, manifest } = await build();
    writeFileSync(ws.path('src/a.ts'), 'mine a\n');
    writeFileSync(ws.path('src/b.ts'), 'mine b\n');
    writeFileSync(ws.path('src/c.ts'), 'mine c\n');
    const r = await planRevert(manifest, store, readOnDisk);
    assert.ok(r.ok);
    const q = revertQuestion(r.plan.items, 'the state before the build');
    assert.equal(q.message, 'Revert 3 files to the state before the build? 3 of them were changed after the build.');
    assert.deepEqual(
      q.choices.map((c) => c.label),
      ['Revert All'],
    );
    assert.ok(!q.detail.includes('Only the build changed'));
  });
});
