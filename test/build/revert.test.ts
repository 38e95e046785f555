import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterRevert, parseManifest, planRevert } from '../../src/core/build/revert';
import { deleteFileTool } from '../../src/core/tools/build/deleteFile';
import { editFileTool } from '../../src/core/tools/build/editFile';
import { writeFileTool } from '../../src/core/tools/build/writeFile';
import { readFileTool } from '../../src/core/tools/readFile';
import { FileCheckpointStore } from '../../src/node/fileCheckpointStore';
import { applyRevertOnDisk, readOnDisk } from '../../src/node/revertFiles';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { tree, guardedContext } from './helpers';

const BINARY = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe, 0x00, 0x0d, 0x0a]);
const BINARY_AFTER = Uint8Array.from([0x00, 0x00, 0x10, 0x80, 0xff]);

describe('checkpoints and Revert Build (byte for byte against the pre-build tree)', () => {
  let ws: TempWorkspace;
  let storage: string;
  beforeEach(() => {
    ws = makeTempWorkspace({
      'src/edit.ts': 'export const a = 1;\r\nexport const b = 2;\r\n',
      'src/gone.ts': 'to be deleted\n',
      'assets/logo.png': BINARY,
      'untouched.md': 'never touched\n',
    });
    storage = join(ws.outside, 'storage');
  });
  afterEach(() => ws.cleanup());

  /** A build: step 1 edits and creates, step 2 deletes and rewrites a binary file, step 3 edits again. */
  async function build() {
    const store = new FileCheckpointStore(storage, 's1');
    const { ctx, ledger } = guardedContext(ws, { mode: 'record', store });
    const pre = tree(ws.root);
    ledger.stepStarted('1');
    await readFileTool.run({ path: 'src/edit.ts' }, ctx);
    assert.equal(
      (await editFileTool.run({ path: 'src/edit.ts', old_text: 'a = 1', new_text: 'a = 10' }, ctx)).ok,
      true,
    );
    assert.equal((await writeFileTool.run({ path: 'src/new/created.ts', content: 'new\n' }, ctx)).ok, true);
    await ledger.stepCompleted('1');
    const afterStep1 = tree(ws.root);
    ledger.stepStarted('2');
    assert.equal((await deleteFileTool.run({ path: 'src/gone.ts' }, ctx)).ok, true);
    // A binary rewrite (no build tool writes bytes; run_command output would), recorded as a tool records it.
    await ledger.beforeWrite('assets/logo.png', BINARY);
    writeFileSync(ws.path('assets/logo.png'), BINARY_AFTER);
    await ledger.afterWrite('assets/logo.png', BINARY, BINARY_AFTER);
    await ledger.stepCompleted('2');
    ledger.stepStarted('3');
    assert.equal(
      (await editFileTool.run({ path: 'src/edit.ts', old_text: 'b = 2', new_text: 'b = 20' }, ctx)).ok,
      true,
    );
    assert.equal((await writeFileTool.run({ path: 'late.txt', content: 'late\n' }, ctx)).ok, true);
    return { store, ledger, pre, afterStep1 };
  }

  async function loaded(store: FileCheckpointStore) {
    const manifest = parseManifest(await store.readManifest());
    assert.ok(manifest, 'the manifest is in the session storage');
    return manifest;
  }

  it('keeps checkpoints in the session storage, not in the workspace', async () => {
    const { store } = await build();
    assert.ok(statSync(join(storage, 's1.checkpoints', 'manifest.json')).isFile());
    assert.deepEqual(
      Object.keys(tree(ws.root)).filter((p) => p.includes('checkpoint')),
      [],
    );
    const manifest = await loaded(store);
    assert.deepEqual(Object.keys(manifest.baseline).sort(), [
      'assets/logo.png',
      'late.txt',
      'src/edit.ts',
      'src/gone.ts',
      'src/new/created.ts',
    ]);
    assert.deepEqual(manifest.baseline['src/new/created.ts'], { kind: 'absent' });
    assert.deepEqual(
      manifest.checkpoints.map((c) => c.step),
      ['1', '2'],
    );
  });

  it('reverts the whole build: edited and binary files restored, created removed, deleted restored, the rest untouched', async () => {
    const { store, pre } = await build();
    const manifest = await loaded(store);
    const r = await planRevert(manifest, store, readOnDisk);
    assert.ok(r.ok);
    const ops = Object.fromEntries(r.plan.items.map((i) => [i.path, i.op]));
    assert.deepEqual(ops, {
      'src/edit.ts': 'restore',
      'src/new/created.ts': 'remove',
      'src/gone.ts': 'restore',
      'assets/logo.png': 'restore',
      'late.txt': 'remove',
    });
    assert.ok(r.plan.items.every((i) => !i.personChanged));
    assert.match(r.plan.diff, /-export const a = 10;\r\n-export const b = 20;\r\n\+export const a = 1;/);
    assert.match(r.plan.diff, /Binary file assets\/logo\.png: 5 bytes -> 11 bytes/);
    assert.ok(!r.plan.diff.includes('untouched.md'));
    await applyRevertOnDisk(r.plan.items);
    assert.deepEqual(tree(ws.root), pre, 'the tree is byte for byte what it was before the build');
  });

  it('reverts to step N: the checkpoint taken when step 1 completed', async () => {
    const { store, afterStep1 } = await build();
    const r = await planRevert(await loaded(store), store, readOnDisk, '1');
    assert.ok(r.ok);
    await applyRevertOnDisk(r.plan.items);
    assert.deepEqual(tree(ws.root), afterStep1);
    const none = await planRevert(await loaded(store), store, readOnDisk, '3');
    assert.equal(none.ok, false);
    if (!none.ok) assert.match(none.error, /step 3 never completed.*steps with one: 1, 2/);
  });

  it('marks a file the person changed after the build, so the host asks before reverting it', async () => {
    const { store, pre } = await build();
    writeFileSync(ws.path('src/edit.ts'), 'the person rewrote this\n');
    const manifest = await loaded(store);
    const r = await planRevert(manifest, store, readOnDisk);
    assert.ok(r.ok);
    const changed = r.plan.items.filter((i) => i.personChanged).map((i) => i.path);
    assert.deepEqual(changed, ['src/edit.ts']);
    // The person says no for that file: everything else is reverted, their text stays.
    await applyRevertOnDisk(r.plan.items.filter((i) => !i.personChanged));
    const now = tree(ws.root);
    assert.equal(readFileSync(ws.path('src/edit.ts'), 'utf8'), 'the person rewrote this\n');
    assert.deepEqual({ ...now, 'src/edit.ts': pre['src/edit.ts'] }, pre);
    // A second revert sees nothing left to do but the file the person kept.
    const again = await planRevert(
      afterRevert(
        manifest,
        r.plan.items.filter((i) => !i.personChanged),
      ),
      store,
      readOnDisk,
    );
    assert.ok(again.ok);
    assert.deepEqual(
      again.plan.items.map((i) => i.path),
      ['src/edit.ts'],
    );
  });

  it("an Undo of Planwise's own revert, and a revert's own states, are not the person's changes", async () => {
    const { store } = await build();
    const built = tree(ws.root);
    const manifest = await loaded(store);
    // Revert to step 1, then Undo it (the editor puts the build's result back): nothing is the person's.
    const toStep1 = await planRevert(manifest, store, readOnDisk, '1');
    assert.ok(toStep1.ok);
    await applyRevertOnDisk(toStep1.plan.items);
    const m1 = afterRevert(manifest, toStep1.plan.items);
    assert.deepEqual(m1.current, manifest.current, "the build's result stays what the build left");
    // `tree` holds each file's bytes in base64.
    const undo = async (to: Record<string, string>) => {
      for (const item of toStep1.plan.items) {
        const want = to[item.path];
        if (want === undefined) await applyRevertOnDisk([{ ...item, op: 'remove' }]);
        else writeFileSync(ws.path(item.path), Buffer.from(want, 'base64'));
      }
    };
    await undo(built);
    const afterUndo = await planRevert(m1, store, readOnDisk, '1');
    assert.ok(afterUndo.ok);
    assert.deepEqual(
      afterUndo.plan.items.map((i) => [i.path, i.personChanged]),
      toStep1.plan.items.map((i) => [i.path, false]),
    );
    // Revert to step 1 again, then the whole build: the files step 1's revert left are not the person's either.
    await applyRevertOnDisk(afterUndo.plan.items);
    const m2 = afterRevert(m1, afterUndo.plan.items);
    const whole = await planRevert(m2, store, readOnDisk);
    assert.ok(whole.ok);
    assert.ok(whole.plan.items.length > 0);
    assert.deepEqual(
      whole.plan.items.filter((i) => i.personChanged).map((i) => i.path),
      [],
    );
    // A change of the person's after all that is theirs, and only that file is asked about.
    writeFileSync(ws.path('src/edit.ts'), 'the person rewrote this\n');
    const mine = await planRevert(m2, store, readOnDisk);
    assert.ok(mine.ok);
    assert.deepEqual(
      mine.plan.items.filter((i) => i.personChanged).map((i) => i.path),
      ['src/edit.ts'],
    );
  });
});
