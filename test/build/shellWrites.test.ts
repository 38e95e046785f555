/**
 * The build agent's shell under the plan (issue 16): files a real `sh` command writes, edits or
 * deletes are checkpointed and scope-checked like a file tool's writes; Revert Build restores them
 * byte for byte; strict mode and "stop and replan" undo the command's writes outside the scope.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closedReport } from '../../src/core/build/closing';
import { renderReport } from '../../src/core/build/report';
import { parseManifest, planRevert } from '../../src/core/build/revert';
import { editFileTool } from '../../src/core/tools/build/editFile';
import { runCommandTool } from '../../src/core/tools/build/runCommand';
import { readFileTool } from '../../src/core/tools/readFile';
import type { BufferWriter } from '../../src/core/build/ports';
import { FileCheckpointStore } from '../../src/node/fileCheckpointStore';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { applyRevertOnDisk, readOnDisk } from '../../src/node/revertFiles';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { tree, guardedContext, planWith } from './helpers';

const PLAN = planWith([
  'Generate the table -> files: src/table.txt, gen/ -> verify: npm test',
  'Tidy the config -> files: config.ini -> verify: npm test',
]);

const BINARY = Uint8Array.from([0x00, 0xff, 0x10, 0x0d, 0x0a, 0x00, 0x89]);

describe('run_command during a build: what the shell changed is checkpointed and scope-checked', () => {
  let ws: TempWorkspace;
  let storage: string;
  beforeEach(() => {
    ws = makeTempWorkspace({
      'src/table.txt': 'alpha\nbeta\ngamma\n',
      'config.ini': 'mode=slow\r\nlevel=1\r\n',
      'gen/blob.bin': BINARY,
      'notes.md': 'keep me\n',
      '.gitignore': 'ignored/\n',
      'ignored/cache.txt': 'cache\n',
    });
    storage = join(ws.outside, 'storage');
  });
  afterEach(() => ws.cleanup());

  it('sed -i, a redirect, rm and a binary write: checkpointed, in the report, and reverted byte for byte', async () => {
    const store = new FileCheckpointStore(storage, 's1');
    const { ctx, ledger } = guardedContext(ws, { mode: 'record', plan: PLAN, store });
    const pre = tree(ws.root);
    ledger.stepStarted('1');
    const r1 = await runCommandTool.run(
      { command: "sed -i 's/beta/BETA/' src/table.txt && sh -c 'echo x > gen/out.txt' && rm gen/blob.bin" },
      ctx,
    );
    assert.equal(r1.ok, true, r1.content);
    assert.match(
      r1.content,
      /files this command changed \(checkpointed for Revert Build\): gen\/blob\.bin \(deleted\), gen\/out\.txt \(created\), src\/table\.txt \(edited\)/,
    );
    await ledger.stepCompleted('1');
    const afterStep1 = tree(ws.root);
    ledger.stepStarted('2');
    const r2 = await runCommandTool.run(
      {
        command:
          "sed -i 's/slow/fast/' config.ini && printf '\\000\\001\\377' > gen/new.bin && echo n >> notes.md && echo c > ignored/x.txt",
      },
      ctx,
    );
    assert.equal(r2.ok, true, r2.content);
    assert.match(r2.content, /notes\.md \(edited\)/);
    assert.doesNotMatch(r2.content, /ignored\//, 'gitignored output is not watched');

    // The ledger: every change against its step, notes.md out of scope and recorded as such.
    assert.deepEqual([...ledger.touched].sort(), [
      'config.ini',
      'gen/blob.bin',
      'gen/new.bin',
      'gen/out.txt',
      'notes.md',
      'src/table.txt',
    ]);
    assert.deepEqual(
      ledger.drift.map((d) => [d.path, d.action, d.allowedBy, d.step, d.command?.startsWith('sed -i')]),
      [['notes.md', 'edit', 'recorded (scope mode record)', '2', true]],
    );
    await ledger.close('done');
    const report = closedReport(ledger.snapshot, {
      planFile: ws.path('plan.md'),
      title: 'Plan',
      tracker: undefined,
      latest: () => undefined,
    });
    assert.ok(report);
    assert.deepEqual(report.changed.map((f) => [f.path, f.added, f.removed]).sort(), [
      ['config.ini', 1, 1],
      ['gen/blob.bin', 0, 0],
      ['gen/new.bin', 0, 0],
      ['gen/out.txt', 1, 0],
      ['notes.md', 1, 0],
      ['src/table.txt', 1, 1],
    ]);
    assert.match(renderReport(report), /- notes\.md \(edit via `sed -i 's\/slow\/fast\/' config\.ini/);

    // Revert Build from the stored manifest: to step 1, then the whole build.
    const manifest = parseManifest(await store.readManifest());
    assert.ok(manifest);
    const toStep1 = await planRevert(manifest, store, readOnDisk, '1');
    assert.ok(toStep1.ok);
    await applyRevertOnDisk(toStep1.plan.items);
    assert.deepEqual(tree(ws.root), { ...afterStep1, 'ignored/x.txt': Buffer.from('c\n').toString('base64') });
    const whole = await planRevert(manifest, store, readOnDisk);
    assert.ok(whole.ok);
    await applyRevertOnDisk(whole.plan.items);
    assert.deepEqual(tree(ws.root), { ...pre, 'ignored/x.txt': Buffer.from('c\n').toString('base64') });
    assert.deepEqual(readFileSync(ws.path('gen/blob.bin')), Buffer.from(BINARY));
  });

  it('strict: the command runs, its writes outside the scope are undone and the result says so; in-scope ones stay', async () => {
    const { ctx, ledger } = guardedContext(ws, { mode: 'strict', plan: PLAN });
    const pre = tree(ws.root);
    await readFileTool.run({ path: 'notes.md' }, ctx);
    const r = await runCommandTool.run(
      { command: "sh -c 'echo x > out.txt' && sed -i 's/keep/KEEP/' notes.md && echo row >> src/table.txt" },
      ctx,
    );
    assert.equal(r.ok, false);
    assert.match(r.content, /exit code 0/);
    assert.match(
      r.content,
      /undone: notes\.md \(edited\), out\.txt \(created\): outside the approved plan's scope \(src\/table\.txt, gen, config\.ini\); scope mode is strict/,
    );
    assert.match(r.content, /propose a revised plan that names these files/);
    assert.equal(existsSync(ws.path('out.txt')), false, 'the created file is removed');
    assert.equal(readFileSync(ws.path('notes.md'), 'utf8'), 'keep me\n', 'the edited file is put back');
    assert.equal(
      readFileSync(ws.path('src/table.txt'), 'utf8'),
      'alpha\nbeta\ngamma\nrow\n',
      'the in-scope change stays',
    );
    assert.deepEqual(ledger.touched, ['src/table.txt']);
    assert.deepEqual(ledger.drift, []);
    const now = tree(ws.root);
    delete now['src/table.txt'];
    const was = { ...pre };
    delete was['src/table.txt'];
    assert.deepEqual(now, was, 'byte for byte, nothing else changed');
  });

  it('strict puts a file back on disk, never through the editor writer (an open document may lag the disk)', async () => {
    const node = new NodeWorkspaceWriter();
    const editorWrites: string[] = [];
    const editor: BufferWriter = {
      writeFileAtomic: async (path) => {
        editorWrites.push(path);
      },
      mkdirp: (p) => node.mkdirp(p),
      remove: (p) => node.remove(p),
    };
    const { ctx } = guardedContext(ws, { mode: 'strict', plan: PLAN, writer: editor, diskWriter: node });
    const r = await runCommandTool.run({ command: "sed -i 's/keep/KEEP/' notes.md" }, ctx);
    assert.match(r.content, /undone: notes\.md \(edited\)/);
    assert.equal(readFileSync(ws.path('notes.md'), 'utf8'), 'keep me\n');
    assert.deepEqual(editorWrites, []);
  });

  it('ask: the person is asked about each out-of-scope change after the command; "stop and replan" undoes it and ends the turn', async () => {
    const { ctx, ledger, approver } = guardedContext(ws, {
      mode: 'ask',
      plan: PLAN,
      choices: ['allow_file', 'replan'],
    });
    const r = await runCommandTool.run({ command: 'echo a > a.txt && echo b > b.txt && echo t >> src/table.txt' }, ctx);
    assert.deepEqual(
      approver.scopeRequests.map((q) => [q.path, q.action, q.command]),
      [
        ['a.txt', 'create', 'echo a > a.txt && echo b > b.txt && echo t >> src/table.txt'],
        ['b.txt', 'create', 'echo a > a.txt && echo b > b.txt && echo t >> src/table.txt'],
      ],
    );
    assert.equal(readFileSync(ws.path('a.txt'), 'utf8'), 'a\n', 'allowed: kept');
    assert.equal(existsSync(ws.path('b.txt')), false, 'stop and replan: undone');
    assert.equal(r.ok, false);
    assert.match(
      r.endsTurn ?? '',
      /stop and replan \(`echo a > a\.txt[^`]*` created b\.txt, outside the approved plan's scope\)/,
    );
    assert.equal(ledger.replanReason !== undefined, true);
    assert.deepEqual(
      ledger.drift.map((d) => [d.path, d.allowedBy]),
      [['a.txt', 'person (this file)']],
    );
    assert.deepEqual([...ledger.touched].sort(), ['a.txt', 'src/table.txt']);
  });

  it("a file the shell changed is not the agent's read: an edit from the older read is refused as changed since read", async () => {
    const { ctx } = guardedContext(ws, { mode: 'record', plan: PLAN });
    await readFileTool.run({ path: 'src/table.txt' }, ctx);
    const r = await runCommandTool.run({ command: "sed -i 's/gamma/GAMMA/' src/table.txt" }, ctx);
    assert.equal(r.ok, true, r.content);
    const stale = await editFileTool.run({ path: 'src/table.txt', old_text: 'alpha', new_text: 'ALPHA' }, ctx);
    assert.equal(stale.ok, false);
    assert.match(stale.content, /changed since you read it/);
    await readFileTool.run({ path: 'src/table.txt' }, ctx);
    const fresh = await editFileTool.run({ path: 'src/table.txt', old_text: 'alpha', new_text: 'ALPHA' }, ctx);
    assert.equal(fresh.ok, true, fresh.content);
    assert.equal(readFileSync(ws.path('src/table.txt'), 'utf8'), 'ALPHA\nbeta\nGAMMA\n');
  });

  it('a same-size rewrite with the same mtime right after the scan is still seen (a fresh mtime vouches for nothing)', async () => {
    const { ctx, ledger } = guardedContext(ws, { mode: 'record', plan: PLAN, now: Date.now });
    // config.ini was written a moment ago; the command rewrites it at the same size and puts its
    // mtime back, as a file system with coarse timestamps would show it.
    writeFileSync(ws.path('config.ini'), 'mode=slow\r\nlevel=1\r\n');
    assert.equal((await runCommandTool.run({ command: 'true' }, ctx)).ok, true);
    const r = await runCommandTool.run(
      {
        command:
          "cp -p config.ini ../outside/ref && sed -i 's/level=1/level=2/' config.ini && touch -r ../outside/ref config.ini",
      },
      ctx,
    );
    assert.match(r.content, /config\.ini \(edited\)/);
    assert.deepEqual(ledger.touched, ['config.ini']);
  });

  it('a read-only command the gate admitted is not watched, and one that changes nothing adds no note', async () => {
    const { ctx, ledger } = guardedContext(ws, { mode: 'strict', plan: PLAN });
    const ls = await runCommandTool.run({ command: 'ls src' }, ctx);
    assert.equal(ls.ok, true);
    assert.doesNotMatch(ls.content, /files this command changed|undone/);
    const noop = await runCommandTool.run({ command: "sh -c 'exit 0'" }, ctx);
    assert.equal(noop.ok, true);
    assert.doesNotMatch(noop.content, /\[files this command changed|undone/);
    assert.deepEqual(ledger.touched, []);
  });
});
