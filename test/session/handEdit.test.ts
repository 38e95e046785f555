/** The person's own edit of the plan file at the gate: a valid one is the next revision, an invalid one changes nothing. */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PlanApprovalRequest } from '../../src/core/lifecycle/ports';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

describe('hand edits of the plan at the gate', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const atGate = async () => {
    h = await startHarness([sse.textTurn(planResponse(samplePlan('Add notes', 'notes.txt')))], {
      config: { interactive: false },
    });
    const stop = await h.session.start('add notes');
    assert.equal(stop.kind, 'awaiting_approval');
    const file = h.session.planFile!;
    return { h, file, history: join(file.replace(/\.md$/, '.history')), sidecar: file.replace(/\.md$/, '.tasks.md') };
  };

  it('a valid edit becomes revision 2 by the person; the tracker follows and the gate shows it', async () => {
    const { h, file, history, sidecar } = await atGate();
    const edited = readFileSync(file, 'utf8').replace('Add the greet function', 'Add the greeting helper');
    writeFileSync(file, edited);
    const r = await h.session.planEdited(file);
    assert.deepEqual(r, { kind: 'revision', revision: 2 });
    assert.deepEqual(readdirSync(history).sort(), ['001.md', '002.md', '002.meta.json']);
    assert.match(readFileSync(join(history, '002.md'), 'utf8'), /1\. Add the greeting helper/);
    assert.match(readFileSync(sidecar, 'utf8'), /- \[ \] Add the greeting helper/);
    assert.match(readFileSync(file, 'utf8'), /- \[ \] Add the greeting helper/); // the embedded block too
    const gate = h.eventsOf('plan.approval.requested').at(-1)!;
    assert.deepEqual(
      [gate.card.revision, gate.card.author, gate.card.steps],
      [2, 'person', ['Add the greeting helper']],
    );
    assert.match(gate.card.previousRevision ?? '', /001\.md$/);
    const tracker = h.eventsOf('tracker.updated').at(-1)!;
    assert.equal(tracker.items[0]?.description, 'Add the greeting helper');
    assert.equal(h.session.state, 'awaiting_approval');
    // Saving the same text again is no new revision.
    assert.deepEqual(await h.session.planEdited(file), { kind: 'unchanged', revision: 2 });
  });

  it('a reloaded session still says revision 2 is the person’s: the gate reads it from the history files', async () => {
    const { h, file } = await atGate();
    writeFileSync(file, readFileSync(file, 'utf8').replace('Add the greet function', 'Add the greeting helper'));
    assert.deepEqual(await h.session.planEdited(file), { kind: 'revision', revision: 2 });
    // The window reloads: a new session over the same workspace and archive re-presents the gate.
    const asked: PlanApprovalRequest[] = [];
    const resumed = await h.resume(h.session.id, {
      config: { interactive: true },
      approve: (r) => (asked.push(r), { decision: 'cancel' }),
    });
    assert.ok(resumed);
    await resumed.reopen();
    assert.deepEqual(
      asked.map((r) => [r.card.revision, r.card.author, r.card.steps]),
      [[2, 'person', ['Add the greeting helper']]],
    );
  });

  it('an invalid edit gives errors on its lines and leaves history and tracker as they were', async () => {
    const { h, file, history, sidecar } = await atGate();
    const trackerBefore = readFileSync(sidecar, 'utf8');
    const edited = readFileSync(file, 'utf8').replace(/-> verify: \[[^\]]*\]/, '');
    writeFileSync(file, edited);
    const r = await h.session.planEdited(file);
    assert.equal(r.kind, 'invalid');
    assert.ok(r.kind === 'invalid');
    const stepLine = edited.split('\n').findIndex((l) => l.startsWith('1. Add the greet')) + 1;
    assert.deepEqual(
      r.errors.map((e) => [e.line, e.message]),
      [[stepLine, 'step 1: must include a `verify:` or `verification:` marker']],
    );
    assert.deepEqual(readdirSync(history), ['001.md']);
    assert.equal(readFileSync(sidecar, 'utf8'), trackerBefore);
    assert.equal(readFileSync(file, 'utf8'), edited); // the person's text is theirs to fix
    const gate = h.eventsOf('plan.approval.requested').at(-1)!;
    assert.equal(gate.card.validation.valid, false);
    assert.deepEqual(gate.card.revision, 1);
    // A build is refused while the file is invalid.
    await h.session.decide('execute');
    assert.equal(h.session.state, 'awaiting_approval');
  });

  it('is ignored for another file or when no plan awaits approval', async () => {
    const { h } = await atGate();
    assert.deepEqual(await h.session.planEdited('/elsewhere.md'), {
      kind: 'ignored',
      reason: 'not the plan at the gate',
    });
  });
});
