/**
 * The native gate (the QuickPick and the palette's approve commands) against the engine the host
 * really builds: it reads the open review comments from the engine's card, kept current by the
 * engine while the gate is open, and asks "Approve with N unresolved comments?" once per attempt.
 */
import assert from 'node:assert/strict';
import type { ApprovalDecision, GateCardInfo } from '../../src/core/index';
import type { ApprovalData } from '../../src/host/prompts/hostApprover';
import { confirmApproval, runNativeGate, type NativeGateUi } from '../../src/host/prompts/nativeGate';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { startEngineHost, until, type EngineHost } from './engineHost';

/** A QuickPick, modal and input box that answer from lists and record what they were shown. */
function scriptedUi(
  picks: ApprovalDecision[],
  confirms: boolean[],
  feedback: string[] = [],
  commands: ('plan' | 'commands' | undefined)[] = [],
) {
  const shown: string[] = [];
  const ui: NativeGateUi = {
    pick: async (items, title) => {
      shown.push(`pick: ${title} | ${items.find((i) => i.value === 'revise')!.detail}`);
      return picks.shift();
    },
    confirm: async (message) => {
      shown.push(`confirm: ${message}`);
      return confirms.shift() ?? false;
    },
    feedback: async () => {
      shown.push('feedback');
      return feedback.shift();
    },
    commands: async (message) => {
      shown.push(`commands: ${message}`);
      return commands.shift();
    },
  };
  return { ui, shown };
}

function openCard(h: EngineHost): { id: string; card: GateCardInfo } {
  const entry = h.pending.first('approval')!;
  return { id: entry.id, card: (entry.data as ApprovalData).request.card };
}

/** What `NativePrompts.approval` does with the flow's answer. */
async function nativeGate(h: EngineHost, ui: NativeGateUi): Promise<boolean> {
  const { id, card } = openCard(h);
  const answer = await runNativeGate(card, ui);
  return answer !== undefined && h.controller.decide(answer.decision, answer.feedback, id);
}

const reply = (id: string, text: string) =>
  sse.toolTurn([{ name: 'reply_to_review_comment', args: { id, reply: text, status: 'addressed' } }]);

describe('the native gate and open review comments', () => {
  let h: EngineHost | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a comment added at the open gate reaches its card; approving asks once, Back returns to the choices', async () => {
    h = await startEngineHost([
      sse.textTurn(planResponse(samplePlan())),
      reply('c1', 'It logs through the existing logger now.'),
      sse.textTurn(planResponse(samplePlan('Add a greeting helper, logged'))),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('Done.'),
    ]);
    const run = h.controller.start('add a greeting helper', 'plan');
    await until(() => h!.pending.has('approval'), 'the first gate');
    const planFile = h.controller.current!.planFile!;
    assert.equal(openCard(h).card.openComments, undefined);

    // The person comments on step 1 while the gate is open: the engine announces the gate again.
    const added = await h.controller.current!.review.add(planFile, { anchor: { kind: 'step', index: 1 } }, 'log it');
    assert.ok(added.ok);
    await until(() => (openCard(h!).card.openComments?.length ?? 0) === 1, 'the card with the comment');
    assert.deepEqual(
      h.hub.state.gate?.openComments?.map((c) => [c.id, c.label]),
      [['c1', 'step 1']],
      'the panel shows the same card',
    );

    // "No, stay in Plan mode" says the comment goes along, and the request carries it.
    const first = scriptedUi(['revise'], [], ['keep it small']);
    assert.equal(await nativeGate(h, first.ui), true);
    assert.deepEqual(first.shown, [
      'pick: Planwise: Ready to code? (revision 1 · 1 open comment) | Keep planning; the open comment goes to the planner with what you say.',
      'feedback',
    ]);
    await until(() => h!.server.requests.length >= 2, 'the revision request');
    const request = JSON.stringify(h.server.requests[1]!.body.messages);
    assert.match(request, /review_thread id=\\"c1\\" element=\\"step 1\\"/);
    assert.match(request, /keep it small/);

    // Revision 2: the thread is answered but still open. Approving asks; Back shows the choices again.
    await until(() => h!.pending.has('approval') && openCard(h!).card.revision === 2, 'the second gate');
    assert.deepEqual(
      openCard(h).card.openComments?.map((c) => [c.id, c.answered]),
      [['c1', true]],
    );
    const second = scriptedUi(['execute', 'fresh_context'], [false, true]);
    assert.equal(await nativeGate(h, second.ui), true);
    assert.deepEqual(second.shown, [
      'pick: Planwise: Ready to code? (revision 2 · 1 open comment) | Keep planning; the open comment goes to the planner with what you say.',
      'confirm: Approve with 1 unresolved comment?',
      'pick: Planwise: Ready to code? (revision 2 · 1 open comment) | Keep planning; the open comment goes to the planner with what you say.',
      'confirm: Approve with 1 unresolved comment?',
    ]);
    const stop = await run;
    assert.equal(stop?.kind, 'completed');
    assert.equal(h.hub.state.tracker?.percent, 100);
  });

  it('a thread resolved at the gate leaves nothing to ask; a request already confirmed is not asked again', async () => {
    h = await startEngineHost([sse.textTurn(planResponse(samplePlan()))]);
    void h.controller.start('add a greeting helper', 'plan');
    await until(() => h!.pending.has('approval'), 'the gate');
    const planFile = h.controller.current!.planFile!;
    const review = h.controller.current!.review;
    assert.ok((await review.add(planFile, { line: 5 }, 'say why')).ok);
    assert.ok((await review.add(planFile, { anchor: { kind: 'step', index: 1 } }, 'log it')).ok);
    await until(() => (openCard(h!).card.openComments?.length ?? 0) === 2, 'two open comments');

    const asked = scriptedUi([], [false]);
    assert.equal(await confirmApproval(openCard(h).card, asked.ui, false), false);
    assert.deepEqual(asked.shown, ['confirm: Approve with 2 unresolved comments?']);
    const again = scriptedUi([], []);
    assert.equal(await confirmApproval(openCard(h).card, again.ui, true), true, 'confirmed before: not asked');
    assert.deepEqual(again.shown, []);

    assert.ok((await review.resolve(planFile, 'c1')).ok);
    assert.ok((await review.resolve(planFile, 'c2')).ok);
    await until(() => openCard(h!).card.openComments === undefined, 'no open comments');
    assert.equal(h.hub.state.gate?.openComments, undefined);
    const none = scriptedUi(['execute'], []);
    const answer = await runNativeGate(openCard(h).card, none.ui);
    assert.equal(answer?.decision, 'execute');
    assert.deepEqual(none.shown, [
      'pick: Planwise: Ready to code? (revision 1) | Keep planning; say what should change.',
    ]);
    await h.controller.decide('cancel');
  });
});
