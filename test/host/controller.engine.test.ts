/**
 * The controller against the interactive engine the VS Code host really builds
 * (`createEngineAccess`, `HostApprover`, one shared `Verifier`): every gate, decision and verify
 * result here goes through the code paths a person's clicks take.
 */
import { resultIn, validatePlan } from '../../src/core/index';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { planLenses } from '../../src/host/codelens/lenses';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { startEngineHost, until, type EngineHost } from './engineHost';
import { contextKeyValues } from '../../src/host/contextKeys';

const CHECK = 'open the greeting page and confirm it shows Hello';

const checkPlan = `# Greeting page

## Summary

Show a greeting on the page.

## Implementation Steps

1. Add the greet function -> files: [src/greet.js] -> verify: [node -e "process.exit(0)", ${CHECK}]
2. Document it -> files: [README.md] -> verify: node -e "process.exit(0)"

## Test Cases and Validation

- tests: \`node -e "process.exit(0)"\`

## Assumptions and Defaults

- English only
`;

describe('session controller on the engine the host builds', () => {
  let h: EngineHost | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("shows the engine's gate card, and the person's decision builds the plan to 100%", async () => {
    h = await startEngineHost([
      sse.textTurn(planResponse(samplePlan())),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('Done.'),
    ]);
    const run = h.controller.start('add a greeting helper', 'plan');
    await until(() => h!.pending.has('approval'), 'the gate');
    const gate = h.hub.state.gate!;
    assert.equal(gate.title, 'Add a greeting helper');
    assert.deepEqual(gate.steps, ['Add the greet function']);
    assert.equal(gate.moreSteps, 0);
    assert.deepEqual(gate.validation, { valid: true, problems: [] });
    assert.equal(gate.hasPreviousRevision, false);
    assert.match(gate.planFile!, /^\.vtcode\/plans\/.+\.md$/);
    assert.equal(contextKeyValues(h.controller.contextInputs()).state, 'awaitingApproval');
    assert.equal(h.controller.isBusy, false, 'waiting for the person is not busy');
    assert.equal(
      await h.controller.decide('execute', undefined, 'someone-else'),
      false,
      'a wrong request id is refused',
    );
    assert.equal(await h.controller.decide('execute'), true);
    const stop = await run;
    assert.equal(stop?.kind, 'completed');
    assert.equal(h.hub.state.gate, null);
    assert.equal(h.hub.state.tracker?.percent, 100);
    assert.equal(h.hub.state.tracker?.items[0]?.entries[0]?.result?.status, 'passed');
    // The build gate's result is the lens's result too: one store, keyed by the entry as written.
    const planFile = h.controller.current!.planFile!;
    const markdown = readFileSync(planFile, 'utf8');
    const titles = planLenses({
      markdown,
      verdict: validatePlan(markdown),
      trusted: true,
      now: Date.now(),
      resultOf: (step, entry) => h!.verifier.latest(planFile, step, entry),
      gateOpen: false,
      revisions: 1,
    }).map((l) => l.title);
    assert.ok(titles.includes('▶ node -e "process.exit(0)"  ✓ passed just now'), titles.join('\n'));
    assert.equal(await h.controller.decide('execute'), false, 'nothing waits any more');
  });

  it('revise with feedback plans again, and the second gate offers Compare', async () => {
    h = await startEngineHost([
      sse.textTurn(planResponse(samplePlan())),
      sse.textTurn(planResponse(samplePlan('Add a greeting helper, smaller'))),
    ]);
    const run = h.controller.start('add a greeting helper', 'plan');
    await until(() => h!.pending.has('approval'), 'the first gate');
    const first = h.hub.state.gate!.requestId;
    assert.equal(await h.controller.decide('revise', 'smaller steps'), true);
    await until(() => h!.pending.has('approval') && h!.hub.state.gate?.requestId !== first, 'the second gate');
    assert.equal(h.hub.state.gate!.title, 'Add a greeting helper, smaller');
    assert.equal(h.hub.state.gate!.hasPreviousRevision, true);
    const revise = h.server.requests[1]!.body.messages.at(-1) as { content: string };
    assert.match(revise.content, /smaller steps/);
    await h.controller.decide('cancel');
    assert.equal((await run)?.kind, 'cancelled');
  });

  it('a new start answers the open gate with cancel and runs the new task', async () => {
    h = await startEngineHost([
      sse.textTurn(planResponse(samplePlan())),
      sse.textTurn('What should the second one do?'),
    ]);
    const first = h.controller.start('first plan', 'plan');
    await until(() => h!.pending.has('approval'), 'the gate');
    const firstSession = h.controller.current;
    const second = h.controller.start('second plan', 'plan');
    assert.equal((await first)?.kind, 'cancelled');
    assert.equal((await second)?.kind, 'completed');
    assert.notEqual(h.controller.current, firstSession);
    assert.equal(h.hub.state.gate, null);
  });

  it('a step with a check waits "awaiting your check" until the person marks it, then completes', async () => {
    h = await startEngineHost([
      sse.textTurn(planResponse(checkPlan)),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 2, status: 'completed' } }]),
      sse.textTurn('Step 1: I opened the page and it shows Hello. Step 2 done.'),
    ]);
    const run = h.controller.start('greeting page', 'plan');
    await until(() => h!.pending.has('approval'), 'the gate');
    await h.controller.decide('execute');
    assert.equal((await run)?.kind, 'completed');
    // The agent's claim was refused: only the person signs a check off.
    const refusal = h.server.requests[2]!.body.messages.at(-1) as { content: string };
    assert.match(refusal.content, /awaiting the person's check/);
    let t = h.hub.state.tracker!;
    assert.deepEqual(
      t.items.map((i) => [i.status, i.awaitingCheck]),
      [
        ['in_progress', true],
        ['completed', false],
      ],
    );
    assert.equal(t.percent, 50);
    const planFile = h.controller.current!.planFile!;
    await h.verify.markChecked(planFile, '1', CHECK);
    await until(() => h!.hub.state.tracker!.items[0]!.status === 'completed', 'the step to complete');
    t = h.hub.state.tracker!;
    assert.equal(t.items[0]!.awaitingCheck, false);
    assert.equal(t.items[0]!.entries[1]!.result?.status, 'checked');
    assert.equal(t.percent, 100);
    // The report follows the sign-off: one card, now complete, and the report file says so too.
    const cards = () => h!.hub.state.transcript.filter((i) => i.kind === 'build_report');
    await until(() => cards().some((c) => c.kind === 'build_report' && c.counts.stepsDone === 2), 'the card to follow');
    assert.equal(cards().length, 1, 'the card is replaced, not added');
    const card = cards()[0]!;
    assert.ok(card.kind === 'build_report');
    assert.equal(card.counts.stepsDone, 2);
    const report = readFileSync(planFile.replace(/\.md$/, '.report.md'), 'utf8');
    assert.doesNotMatch(report, /awaiting the person's check/);
    // The session's standing and the workspace's plan say the same.
    assert.equal(h.controller.current!.standing.tracker?.percent, 100);
    assert.equal(h.controller.current!.standing.tracker?.awaitingCheck, false);
    const signed = h.plans.peek(planFile)!;
    assert.equal(resultIn(signed, '1', CHECK)?.status, 'checked');
    assert.equal(resultIn(signed, '2', 'node -e "process.exit(0)"')?.status, 'passed');

    // A revert of step 2 reaches the session: the panel's tracker and the plan's file follow.
    await h.plans.reverted(planFile, '1');
    await until(() => h!.hub.state.tracker!.percent === 50, 'the tracker to follow the revert');
    assert.deepEqual(
      h.hub.state.tracker!.items.map((i) => i.status),
      ['completed', 'pending'],
    );
    assert.match(readFileSync(planFile.replace(/\.md$/, '.tasks.md'), 'utf8'), /- \[ \] /);
    assert.equal(h.controller.current!.standing.tracker?.percent, 50, 'the standing follows the revert');
    // The build's report is written again: its one card says what is done now.
    await until(
      () => cards().some((c) => c.kind === 'build_report' && c.counts.stepsDone === 1),
      'the card to follow the revert',
    );
    assert.equal(cards().length, 1, 'the card is replaced, not added');
    // The reverted step's results are gone from the plan; step 1's stay.
    const reverted = h.plans.peek(planFile)!;
    assert.deepEqual([...new Set(reverted.results.map((r) => r.step))], ['1']);
    assert.equal(resultIn(reverted, '1', CHECK)?.status, 'checked');
  });

  it('resumes a session from its archive: the pending approval comes back and deciding it builds', async () => {
    h = await startEngineHost([sse.textTurn(planResponse(samplePlan()))]);
    void h.controller.start('add a greeting helper', 'plan');
    await until(() => h!.pending.has('approval'), 'the gate');
    const id = h.controller.current!.id;
    const { ws, archiveDir } = h;
    // The window closes: a second host over the same workspace and archive takes over.
    h.controller.dispose();
    await h.server.close();
    const again = await startEngineHost(
      [
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Done.'),
      ],
      { ws, archiveDir },
    );
    try {
      await again.controller.resume(id);
      await until(() => again.pending.has('approval'), 'the gate again');
      assert.equal(again.hub.state.gate?.title, 'Add a greeting helper');
      assert.equal(again.hub.state.lifecycle.busy, false);
      assert.equal(await again.controller.decide('execute'), true);
      await until(() => again.hub.state.tracker?.percent === 100, 'the build');
    } finally {
      await again.close();
      rmSync(ws.root, { recursive: true, force: true });
      h = undefined;
    }
  });
});
