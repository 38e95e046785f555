/**
 * Verify results survive a reload: the Verifier keeps each plan's finished results in
 * `<stem>.verify.json` next to it, and a new Verifier (a reloaded window, a resumed session)
 * brings them back, so a step whose commands passed still awaits the person's check and the
 * lenses show their last results. Real processes, real files in a temp workspace.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PlanWorkspace,
  type PlanChange,
  Verifier,
  VerifyJournal,
  resultIn,
  isAwaitingCheck,
  journalFileOf,
  stepVerdict,
  type VerifyRecord,
  validatePlan,
} from '../../src/core/index';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { planLenses } from '../../src/host/codelens/lenses';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { CLICK, policyFor } from '../support/commandPolicy';
import { sse } from '../support/scriptedServer';
import { planResponse, startHarness, type Harness } from '../support/sessionHarness';

const CHECK = 'open the page and confirm it shows the greeting';
const PLAN = `# Greeting

## Summary

Add a greeting.

## Implementation Steps

1. Add greet -> files: [src/greet.js] -> verify: [node -e "process.exit(0)", ${CHECK}]

## Test Cases and Validation

- tests: \`node -e "process.exit(0)"\`

## Assumptions and Defaults

- none
`;
const COMMAND = { kind: 'command' as const, text: 'node -e "process.exit(0)"', command: 'node -e "process.exit(0)"' };

describe('verify results kept across reloads (<stem>.verify.json)', () => {
  let ws: TempWorkspace;
  let planFile: string;
  let errors: string[];
  const journal = () =>
    new VerifyJournal({
      reader: ws.reader,
      writer: new NodeWorkspaceWriter(),
      onError: (file, message) => errors.push(`${file}: ${message}`),
    });
  const verifier = () =>
    new Verifier({
      runner: new NodeCommandRunner(),
      cwd: () => ws.root,
      now: Date.now,
      journal: journal(),
      policy: policyFor(ws.root, ['node *']),
    });
  /** Waits for the journal writes a record started (they run after the record is announced). */
  const settled = async (file: string, count: number, holds: (r: VerifyRecord[]) => boolean = () => true) => {
    for (let i = 0; i < 200; i++) {
      const results = existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as { results: VerifyRecord[] }).results
        : [];
      if (results.length === count && holds(results)) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.fail(`${file} never held ${count} results`);
  };

  beforeEach(() => {
    ws = makeTempWorkspace({ '.vtcode/plans/2026-12-01-greeting.md': PLAN });
    planFile = join(ws.root, '.vtcode/plans/2026-12-01-greeting.md');
    errors = [];
  });
  afterEach(() => ws.cleanup());

  it('a passed command and an unsigned check: after a reload the step still awaits the check, and the lens shows the run', async () => {
    const before = verifier();
    const ran = await before.run(planFile, '1', COMMAND, { origin: 'build' });
    assert.equal(ran.status, 'passed');
    const file = journalFileOf(planFile);
    assert.equal(file, join(ws.root, '.vtcode/plans/2026-12-01-greeting.verify.json'));
    await settled(file, 1);
    // Before the build reports the step done, the step in progress is only being built.
    const started = stepVerdict([COMMAND, { kind: 'check', text: CHECK }], (e) => before.latest(planFile, '1', e));
    assert.equal(isAwaitingCheck('in_progress', started), false);
    // The build reported it done: the check now waits for the person.
    before.requestCheck(planFile, '1', CHECK);
    await settled(file, 2);

    const after = verifier();
    assert.equal(after.latest(planFile, '1', COMMAND.text), undefined);
    assert.equal(await after.restore(planFile), 2);
    const restored = after.latest(planFile, '1', COMMAND.text);
    assert.deepEqual(restored, ran);
    const verdict = stepVerdict([COMMAND, { kind: 'check', text: CHECK }], (e) => after.latest(planFile, '1', e));
    assert.equal(isAwaitingCheck('in_progress', verdict), true);
    const lenses = planLenses({
      markdown: PLAN,
      verdict: validatePlan(PLAN),
      trusted: true,
      now: ran.at + 60_000,
      resultOf: (step, entry) => after.latest(planFile, step, entry),
      gateOpen: false,
      revisions: 1,
      // The build started the step: its check is the person's to sign off.
      stepStatus: () => 'in_progress',
    });
    const run = lenses.find((l) => l.action.kind === 'runVerify');
    assert.equal(run?.title, '▶ node -e "process.exit(0)"  ✓ passed 1 min ago');
    assert.deepEqual(
      lenses.filter((l) => l.action.kind === 'markChecked').map((l) => l.title),
      [`$(eye) Mark checked: ${CHECK}`],
    );
    assert.deepEqual(errors, []);
  });

  it("a reloaded window's plan workspace reads the plan with its kept results, and follows new ones", async () => {
    const before = verifier();
    const ran = await before.run(planFile, '1', COMMAND, { origin: 'build' });
    await settled(journalFileOf(planFile), 1);

    const after = verifier();
    const plans = new PlanWorkspace({
      reader: ws.reader,
      writer: new NodeWorkspaceWriter(),
      root: ws.root,
      now: Date.now,
      verifier: after,
    });
    const plan = await plans.plan(planFile);
    assert.deepEqual(resultIn(plan, '1', COMMAND.text), ran, 'brought back from the journal on first read');
    assert.equal(resultIn(plan, '1', CHECK), undefined);
    // The build left the step in progress; no session follows the plan now.
    const item = { description: 'Add greet', status: 'in_progress' as const, files: [], verify: [COMMAND.text, CHECK] };
    await plans.saveTracker(planFile, { title: 'Greeting', items: [{ ...item, children: [] }] });
    const change = new Promise<PlanChange>((resolve) =>
      plans.onDidChange((c) => {
        if (c.reason === 'verify') resolve(c);
      }),
    );
    after.signOff(planFile, '1', CHECK);
    const c = await change;
    assert.equal(c.record?.status, 'checked', 'the change carries the result');
    assert.equal(resultIn(c.plan!, '1', CHECK)?.status, 'checked', 'the entry follows the result');
    assert.equal(c.plan?.tracker?.items[0]?.status, 'completed', 'the sign-off settled the step without a session');
    assert.match(readFileSync(planFile.replace(/\.md$/, '.tasks.md'), 'utf8'), /- \[x\] /);
    plans.dispose();
  });

  it("a person's sign-off is kept too, and a result made before the restore is newer and wins", async () => {
    const before = verifier();
    await before.run(planFile, '1', { ...COMMAND }, { origin: 'build' });
    before.signOff(planFile, '1', CHECK);
    await settled(journalFileOf(planFile), 2);

    const after = verifier();
    const failing = { kind: 'command' as const, text: COMMAND.text, command: 'node -e "process.exit(3)"' };
    const fresh = await after.run(planFile, '1', failing, CLICK);
    assert.equal(fresh.status, 'failed');
    // The run made after the reload wrote its journal only after loading it: the sign-off is still there.
    await settled(journalFileOf(planFile), 2, (rs) => rs.some((r) => r.status === 'failed'));
    assert.equal(await after.restore(planFile), 1);
    assert.equal(after.latest(planFile, '1', CHECK)?.status, 'checked');
    assert.equal(after.latest(planFile, '1', COMMAND.text)?.exitCode, 3);
    const kept = JSON.parse(readFileSync(journalFileOf(planFile), 'utf8')) as { results: VerifyRecord[] };
    assert.deepEqual(kept.results.map((r) => [r.entry, r.status]).sort(), [
      [COMMAND.text, 'failed'],
      [CHECK, 'checked'],
    ]);
  });

  it('an unreadable journal is no results, said once with the reason, and left as it is', async () => {
    const file = journalFileOf(planFile);
    writeFileSync(file, '{"version": 1, "results": [{"step": "one"}]}');
    const v = verifier();
    assert.equal(await v.restore(planFile), 0);
    assert.equal(await v.restore(planFile), 0);
    assert.deepEqual(errors.length, 1, errors.join('\n'));
    assert.match(errors[0]!, /verify\.json: results\.0\.step/);
    assert.equal(readFileSync(file, 'utf8'), '{"version": 1, "results": [{"step": "one"}]}');
    writeFileSync(file, 'not json');
    const other = verifier();
    assert.equal(await other.restore(planFile), 0);
    assert.match(errors[1]!, /it is not JSON/);
  });

  it('forget empties the journal (the file holds another plan now)', async () => {
    const v = verifier();
    await v.run(planFile, '1', COMMAND, CLICK);
    await settled(journalFileOf(planFile), 1);
    v.forget(planFile);
    await settled(journalFileOf(planFile), 0);
    const after = verifier();
    assert.equal(await after.restore(planFile), 0);
  });

  it('no journal, no file: a Verifier without one writes nothing', async () => {
    const v = new Verifier({
      runner: new NodeCommandRunner(),
      cwd: () => ws.root,
      now: Date.now,
      policy: policyFor(ws.root),
    });
    await v.run(planFile, '1', COMMAND, CLICK);
    assert.equal(await v.restore(planFile), 0);
    assert.equal(existsSync(journalFileOf(planFile)), false);
  });

  describe('in a session resumed after a reload', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('the step still awaits the check; marking it checked completes the step in the tracker file', async () => {
      h = await startHarness(
        [
          sse.textTurn(planResponse(PLAN)),
          sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index_path: '1', status: 'completed' } }]),
          sse.textTurn('Done; the page check is yours.'),
        ],
        // The verify command is a node script: the person allow-listed it.
        { approve: () => ({ decision: 'execute' }), config: { buildAllowList: ['node *'] } },
      );
      const stop = await h.session.start('greeting');
      assert.equal(stop.kind, 'completed');
      const file = h.session.planFile!;
      assert.deepEqual(
        h
          .eventsOf('tracker.updated')
          .at(-1)!
          .items.map((i) => [i.status, i.awaitingCheck]),
        [['in_progress', true]],
      );
      // The command's pass, and the check the build asked the person for.
      await settled(journalFileOf(file), 2, (rs) => rs.map((r) => r.status).join() === 'passed,awaiting');

      // A reload: new deps, a new Verifier that has seen nothing, the session from its archive.
      const resumed = await h.resume(h.session.id);
      assert.ok(resumed);
      const seen = h.events.length;
      resumed.verifier.signOff(file, '1', CHECK);
      // Until the tracker file says so and the tracker's event arrived (the file may be written first).
      const trackerEventSince = () => h!.events.slice(seen).some((e) => e.type === 'tracker.updated');
      for (
        let i = 0;
        i < 200 && !(readFileSync(file.replace(/\.md$/, '.tasks.md'), 'utf8').includes('[x]') && trackerEventSince());
        i++
      )
        await new Promise((r) => setTimeout(r, 10));
      const updated = h.events.slice(seen).filter((e) => e.type === 'tracker.updated');
      assert.deepEqual(
        updated.at(-1)?.type === 'tracker.updated' ? updated.at(-1)!.items.map((i) => [i.status, i.awaitingCheck]) : [],
        [['completed', false]],
      );
      assert.match(readFileSync(file.replace(/\.md$/, '.tasks.md'), 'utf8'), /\[x\] Add greet/);
      resumed.dispose();
    });
  });
});
