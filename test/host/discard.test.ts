/**
 * What a new Start Planning or Cancel Plan would throw away, read from the host the extension
 * really builds (engine, pending table, panel hub) over a scripted model: a plan waiting at the
 * gate, then a finished build whose report offers Revert. The palette's question keeps by
 * default: Esc or "Keep" changes nothing, only the discard button goes ahead.
 */
import assert from 'node:assert/strict';
import { confirmDiscard, discardQuestion, type DiscardUi } from '../../src/host/prompts/discard';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { startEngineHost, until, type EngineHost } from './engineHost';

/** A modal that answers from a list and records what it showed. */
function scriptedModal(answers: (string | undefined)[]) {
  const shown: string[] = [];
  const ui: DiscardUi = {
    ask: async (message, detail, buttons) => {
      shown.push(`${message} | ${detail} | ${buttons.join(' / ')}`);
      return answers.shift();
    },
  };
  return { ui, shown };
}

describe('the palette asks before discarding a waiting plan or a finished build', () => {
  let h: EngineHost | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a waiting plan: Esc and Keep keep it, the discard button goes ahead; then a finished build is at stake', async () => {
    h = await startEngineHost([
      sse.textTurn(planResponse(samplePlan('Add a greeting helper', 'src/greet.ts'))),
      sse.toolTurn([{ name: 'write_file', args: { path: 'src/greet.ts', content: 'export const greet = 1;\n' } }]),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('Done.'),
    ]);
    assert.equal(h.controller.atStake(), undefined, 'nothing before a session');
    const run = h.controller.start('add a greeting helper', 'plan');
    await until(() => h!.pending.has('approval'), 'the gate');
    assert.equal(h.controller.atStake(), 'plan');

    const modal = scriptedModal([undefined, 'Keep the plan', 'Cancel the plan']);
    assert.equal(await confirmDiscard(modal.ui, 'start', h.controller.atStake()), false, 'Esc keeps');
    assert.equal(await confirmDiscard(modal.ui, 'cancel', h.controller.atStake()), false, 'Keep keeps');
    assert.ok(h.pending.has('approval'), 'the plan still waits');
    assert.deepEqual(modal.shown, [
      'Start a new plan and discard the waiting one? | A new plan replaces the plan waiting for your approval; nothing of it has been built. | Keep the plan / Discard and start',
      'Cancel the plan waiting for your approval? | Nothing has been built. The plan file stays on disk, but this session stops planning. | Keep the plan / Cancel the plan',
    ]);
    assert.equal(await confirmDiscard(modal.ui, 'cancel', h.controller.atStake()), true, 'the discard button');

    // Instead of cancelling, the person approves: after the build, its Revert is what a new plan would clear.
    assert.ok(await h.controller.decide('execute'));
    const stop = await run;
    assert.equal(stop?.kind, 'completed');
    assert.ok(h.hub.state.transcript.some((i) => i.kind === 'build_report'));
    assert.equal(h.controller.atStake(), 'build');
    const after = scriptedModal(['Keep the build report']);
    assert.equal(await confirmDiscard(after.ui, 'start', 'build'), false);
    assert.match(
      after.shown[0]!,
      /^Start a new plan\? \| A new plan replaces the finished build's report and its Revert buttons/,
    );
    assert.equal(await confirmDiscard(after.ui, 'cancel', 'build'), true, 'Cancel Plan has no build to discard');

    // Resume Session would put another session in the panel's place: it asks the same way.
    const resume = scriptedModal([undefined, 'Keep the build report', 'Resume the other session']);
    assert.equal(await confirmDiscard(resume.ui, 'resume', h.controller.atStake()), false, 'Esc keeps');
    assert.equal(await confirmDiscard(resume.ui, 'resume', h.controller.atStake()), false, 'Keep keeps');
    assert.equal(await confirmDiscard(resume.ui, 'resume', h.controller.atStake()), true, 'the discard button');
    assert.equal(
      resume.shown[0],
      "Resume another session? | The resumed session replaces the finished build's report and its Revert buttons in the panel. The build's files stay as they are; Resume Session brings this session back. | Keep the build report / Resume the other session",
    );
    assert.equal(await confirmDiscard(resume.ui, 'resume', undefined), true, 'nothing at stake: nothing asked');
    assert.equal(resume.shown.length, 3);
  });

  it('Build at the gate (once the person said so) cancels the plan, and the toggle then shows Build', async () => {
    h = await startEngineHost([sse.textTurn(planResponse(samplePlan()))]);
    void h.controller.start('add a greeting helper', 'plan');
    await until(() => h!.pending.has('approval'), 'the gate');
    await h.controller.setMode('build');
    assert.equal(h.pending.has('approval'), false);
    assert.equal(h.hub.state.gate, null);
    assert.equal(h.hub.state.lifecycle.mode, 'build', 'the toggle shows the mode the next start takes');
    assert.equal(h.controller.atStake(), undefined);
    await h.controller.setMode('plan');
    assert.equal(h.hub.state.lifecycle.mode, 'plan');
  });

  it('the safe choice comes first, so it is the modal’s default button', () => {
    for (const action of ['start', 'cancel', 'resume'] as const) {
      const q = discardQuestion(action, 'plan');
      assert.equal(q.keep, 'Keep the plan');
      assert.notEqual(q.go, q.keep);
    }
  });
});
