import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { deleteFileTool } from '../../src/core/tools/build/deleteFile';
import { editFileTool } from '../../src/core/tools/build/editFile';
import { writeFileTool } from '../../src/core/tools/build/writeFile';
import { readFileTool } from '../../src/core/tools/readFile';
import { scopeOf, guardedContext, planWith } from './helpers';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

const PLAN = planWith([
  'Parser -> files: [src/parser.ts] -> verify: [npm test]',
  'Panel -> files: [src/panel/] -> verify: [npm test]',
  'Fixtures -> files: [test/**/*.json] -> verify: [npm test]',
]);

describe('scope guard in the build tools', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'src/parser.ts': 'export const a = 1;\n', 'src/other.ts': 'export const o = 1;\n' });
  });
  afterEach(() => ws.cleanup());
  const text = (rel: string) => readFileSync(ws.path(rel), 'utf8');

  for (const mode of ['ask', 'record', 'strict'] as const) {
    it(`${mode}: a write inside the scope (file, folder, glob) goes through without asking`, async () => {
      const g = guardedContext(ws, { mode, plan: PLAN });
      const edit = await editFileTool.run({ path: 'src/parser.ts', old_text: '= 1', new_text: '= 2' }, g.ctx);
      assert.equal(edit.ok, true, edit.content);
      assert.equal((await writeFileTool.run({ path: 'src/panel/card.ts', content: 'x\n' }, g.ctx)).ok, true);
      assert.equal((await writeFileTool.run({ path: 'test/a/b.json', content: '{}\n' }, g.ctx)).ok, true);
      assert.equal(text('src/parser.ts'), 'export const a = 2;\n');
      assert.equal(g.approver.scopeRequests.length, 0);
      assert.deepEqual(g.ledger.drift, []);
      assert.deepEqual(g.ledger.touched, ['src/parser.ts', 'src/panel/card.ts', 'test/a/b.json']);
    });
  }

  it('ask: an out-of-scope write is put to the person; "allow this file" lets that file through only', async () => {
    const g = guardedContext(ws, { mode: 'ask', plan: PLAN, choices: ['allow_file', 'allow_file'] });
    const r = await editFileTool.run({ path: 'src/other.ts', old_text: '= 1', new_text: '= 5' }, g.ctx);
    assert.equal(r.ok, true, r.content);
    assert.deepEqual(g.approver.scopeRequests, [
      { path: 'src/other.ts', action: 'edit', scope: ['src/parser.ts', 'src/panel', 'test/**/*.json'] },
    ]);
    // The same file again: not asked again.
    assert.equal((await editFileTool.run({ path: 'src/other.ts', old_text: '= 5', new_text: '= 6' }, g.ctx)).ok, true);
    assert.equal(g.approver.scopeRequests.length, 1);
    // Another file: asked again.
    assert.equal((await writeFileTool.run({ path: 'src/new.ts', content: 'n\n' }, g.ctx)).ok, true);
    assert.equal(g.approver.scopeRequests.length, 2);
    assert.equal(g.approver.scopeRequests[1]?.action, 'create');
    assert.deepEqual(
      g.ledger.drift.map((d) => [d.path, d.allowedBy]),
      [
        ['src/other.ts', 'person (this file)'],
        ['src/new.ts', 'person (this file)'],
      ],
    );
    assert.equal(text('src/other.ts'), 'export const o = 6;\n');
  });

  it('ask: "allow for the rest of this build" lets every later out-of-scope write through without asking', async () => {
    const g = guardedContext(ws, { mode: 'ask', plan: PLAN, choices: ['allow_build'] });
    assert.equal((await writeFileTool.run({ path: 'src/x.ts', content: 'x\n' }, g.ctx)).ok, true);
    assert.equal((await writeFileTool.run({ path: 'src/y.ts', content: 'y\n' }, g.ctx)).ok, true);
    assert.equal((await editFileTool.run({ path: 'src/other.ts', old_text: '= 1', new_text: '= 2' }, g.ctx)).ok, true);
    assert.equal(g.approver.scopeRequests.length, 1);
    assert.deepEqual(
      g.ledger.drift.map((d) => [d.path, d.allowedBy]),
      [
        ['src/x.ts', 'person (rest of the build)'],
        ['src/y.ts', 'person (rest of the build)'],
        ['src/other.ts', 'person (rest of the build)'],
      ],
    );
  });

  it('ask: "stop and replan" refuses the write, asks the session to replan, and refuses every later write', async () => {
    const g = guardedContext(ws, { mode: 'ask', plan: PLAN, choices: ['replan'] });
    const r = await writeFileTool.run({ path: 'src/x.ts', content: 'x\n' }, g.ctx);
    assert.equal(r.ok, false);
    assert.match(r.content, /stop and replan/);
    assert.equal(g.replans.length, 1);
    assert.match(g.replans[0]!, /create src\/x\.ts/);
    const later = await editFileTool.run({ path: 'src/parser.ts', old_text: '= 1', new_text: '= 2' }, g.ctx);
    assert.equal(later.ok, false, 'even an in-scope write is refused once the person stopped the build');
    assert.equal(text('src/parser.ts'), 'export const a = 1;\n');
    assert.throws(() => readFileSync(ws.path('src/x.ts')));
    assert.deepEqual(g.ledger.touched, []);
  });

  it('ask without anyone to ask (headless, or a host without approveScope) refuses like strict', async () => {
    const g = guardedContext(ws, { mode: 'ask', plan: PLAN, interactive: false });
    const r = await writeFileTool.run({ path: 'src/x.ts', content: 'x\n' }, g.ctx);
    assert.equal(r.ok, false);
    assert.match(r.content, /no one can allow/);
    assert.equal(g.approver.scopeRequests.length, 0);
  });

  it('record: an out-of-scope write goes through and is recorded as drift', async () => {
    const g = guardedContext(ws, { mode: 'record', plan: PLAN });
    g.ledger.stepStarted('2');
    assert.equal((await editFileTool.run({ path: 'src/other.ts', old_text: '= 1', new_text: '= 3' }, g.ctx)).ok, true);
    assert.equal(text('src/other.ts'), 'export const o = 3;\n');
    assert.deepEqual(g.ledger.drift, [
      { path: 'src/other.ts', action: 'edit', allowedBy: 'recorded (scope mode record)', step: '2' },
    ]);
    assert.equal(g.approver.scopeRequests.length, 0);
  });

  it('strict: an out-of-scope write is refused with a tool error that asks for a revised plan', async () => {
    const g = guardedContext(ws, { mode: 'strict', plan: PLAN });
    const r = await editFileTool.run({ path: 'src/other.ts', old_text: '= 1', new_text: '= 3' }, g.ctx);
    assert.equal(r.ok, false);
    assert.match(r.content, /outside the approved plan's scope/);
    assert.match(r.content, /propose a revised plan/);
    const w = await writeFileTool.run({ path: 'elsewhere/new.ts', content: 'n\n' }, g.ctx);
    assert.equal(w.ok, false);
    assert.equal(text('src/other.ts'), 'export const o = 1;\n');
    assert.throws(() => readFileSync(ws.path('elsewhere/new.ts')));
    assert.deepEqual(g.ledger.touched, []);
  });

  it('a mid-execution replan updates the scope from the new revision', async () => {
    const g = guardedContext(ws, { mode: 'strict', plan: PLAN });
    assert.equal((await writeFileTool.run({ path: 'src/other.ts', content: 'o\n' }, g.ctx)).ok, false);
    g.ledger.setScope(
      scopeOf(
        planWith([
          'Parser -> files: [src/parser.ts] -> verify: [npm test]',
          'Other -> files: [src/other.ts] -> verify: [npm test]',
        ]),
      ),
    );
    assert.equal((await writeFileTool.run({ path: 'src/other.ts', content: 'o\n' }, g.ctx)).ok, true);
    assert.equal((await writeFileTool.run({ path: 'src/panel/card.ts', content: 'c\n' }, g.ctx)).ok, false);
  });
});

describe("nothing of the person's is lost (headless: the hash against disk)", () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'src/a.js': 'one\ntwo\nthree\n' });
  });
  afterEach(() => ws.cleanup());

  it('refuses an edit of a file changed since the agent read it, and succeeds after a new read', async () => {
    const g = guardedContext(ws, { mode: 'record' });
    assert.equal((await readFileTool.run({ path: 'src/a.js' }, g.ctx)).ok, true);
    writeFileSync(ws.path('src/a.js'), 'one\nTWO by the person\nthree\n');
    const r = await editFileTool.run({ path: 'src/a.js', old_text: 'three', new_text: '3' }, g.ctx);
    assert.equal(r.ok, false);
    assert.match(r.content, /the file changed since you read it; read it again/);
    assert.equal(readFileSync(ws.path('src/a.js'), 'utf8'), 'one\nTWO by the person\nthree\n');
    assert.equal((await readFileTool.run({ path: 'src/a.js' }, g.ctx)).ok, true);
    const again = await editFileTool.run({ path: 'src/a.js', old_text: 'three', new_text: '3' }, g.ctx);
    assert.equal(again.ok, true, again.content);
    assert.equal(readFileSync(ws.path('src/a.js'), 'utf8'), 'one\nTWO by the person\n3\n');
  });

  it("the agent's own writes count as read: consecutive edits need no re-read", async () => {
    const g = guardedContext(ws, { mode: 'record' });
    await readFileTool.run({ path: 'src/a.js' }, g.ctx);
    assert.equal((await editFileTool.run({ path: 'src/a.js', old_text: 'one', new_text: '1' }, g.ctx)).ok, true);
    assert.equal((await editFileTool.run({ path: 'src/a.js', old_text: 'two', new_text: '2' }, g.ctx)).ok, true);
    assert.equal((await writeFileTool.run({ path: 'src/a.js', content: 'all\n' }, g.ctx)).ok, true);
  });

  it('write_file over a file changed since it was read is refused too', async () => {
    const g = guardedContext(ws, { mode: 'record' });
    await readFileTool.run({ path: 'src/a.js' }, g.ctx);
    writeFileSync(ws.path('src/a.js'), 'changed\n');
    const r = await writeFileTool.run({ path: 'src/a.js', content: 'mine\n' }, g.ctx);
    assert.equal(r.ok, false);
    assert.match(r.content, /changed since you read it/);
    assert.equal(readFileSync(ws.path('src/a.js'), 'utf8'), 'changed\n');
  });
});

describe('delete_file: a delete is a write for the scope guard, and checkpointed', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'src/parser.ts': 'p\n', 'src/other.ts': 'o\n' });
  });
  afterEach(() => ws.cleanup());

  it('deletes an in-scope file and records its content first; strict refuses an out-of-scope one', async () => {
    const g = guardedContext(ws, { mode: 'strict', plan: PLAN });
    const r = await deleteFileTool.run({ path: 'src/parser.ts' }, g.ctx);
    assert.equal(r.ok, true, r.content);
    assert.equal(r.content, 'deleted src/parser.ts (2 bytes)');
    assert.throws(() => readFileSync(ws.path('src/parser.ts')));
    assert.equal(g.ledger.snapshot.baseline['src/parser.ts']?.kind, 'file');
    assert.deepEqual(g.ledger.snapshot.current['src/parser.ts'], { kind: 'absent' });
    const out = await deleteFileTool.run({ path: 'src/other.ts' }, g.ctx);
    assert.equal(out.ok, false);
    assert.match(out.content, /outside the approved plan's scope/);
    assert.equal(readFileSync(ws.path('src/other.ts'), 'utf8'), 'o\n');
  });

  it('ask: a delete outside the scope is put to the person as a delete', async () => {
    const g = guardedContext(ws, { mode: 'ask', plan: PLAN, choices: ['allow_file'] });
    assert.equal((await deleteFileTool.run({ path: 'src/other.ts' }, g.ctx)).ok, true);
    assert.equal(g.approver.scopeRequests[0]?.action, 'delete');
    assert.deepEqual(
      g.ledger.drift.map((d) => [d.path, d.action]),
      [['src/other.ts', 'delete']],
    );
  });
});
