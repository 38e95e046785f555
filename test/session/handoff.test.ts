/**
 * Handoff order: the plan and its tracker are validated before anything changes. A fresh-context
 * handoff with a missing or invalid plan leaves the thread and the gate as they were, and says why.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { SessionArchive } from '../../src/core/index';
import { FileArchiveStore } from '../../src/node/fileArchiveStore';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

describe('fresh-context handoff order', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const historyAtLastCheckpoint = async (harness: Harness) => {
    const loaded = await SessionArchive.load(new FileArchiveStore(harness.archiveDir), harness.session.id);
    return (loaded?.lastCheckpoint?.state as { history: { role: string; content: string }[] }).history;
  };

  it('an invalid plan: no thread is cleared, the gate comes back with the problem on its card', async () => {
    h = await startHarness([sse.textTurn(planResponse(samplePlan()))], {
      approve: (request, n) => {
        if (n === 1) {
          writeFileSync(request.planFile, '# Broken\n\nno sections any more\n');
          return { decision: 'fresh_context' };
        }
        return { decision: 'cancel' };
      },
    });
    const stop = await h.session.start('add a greeting helper');
    assert.equal(stop.kind, 'cancelled');
    assert.equal(h.eventsOf('context.reset').length, 0, 'the context was not reset');
    assert.equal(h.eventsOf('progress').length, 0, 'no handoff step ran');
    assert.ok(
      !h.eventsOf('plan.approval.resolved').some((e) => e.decision === 'fresh_context'),
      'no decision was taken',
    );
    const notice = h
      .eventsOf('item.completed')
      .find((e) => e.item.kind === 'notice' && /not handed/.test(e.item.text ?? ''));
    assert.match(notice?.item.text ?? '', /no longer validates/);
    const second = h.people.approvals[1]!;
    assert.equal(second.card.validation.valid, false);
    assert.ok(second.card.validation.problems.length > 0);
    const history = await historyAtLastCheckpoint(h);
    assert.ok(
      history.some((m) => m.role === 'user' && m.content === 'add a greeting helper'),
      'the thread is intact',
    );
    assert.ok(history.some((m) => m.role === 'assistant' && /proposed_plan/.test(m.content)));
  });

  it('a missing plan (headless): the decision fails with the reason and the session stays at the gate', async () => {
    h = await startHarness([sse.textTurn(planResponse(samplePlan()))], { config: { interactive: false } });
    const first = await h.session.start('add a greeting helper');
    assert.equal(first.kind, 'awaiting_approval');
    const before = await historyAtLastCheckpoint(h);
    rmSync(h.session.planFile!);
    const stop = await h.session.decide('fresh_context');
    assert.equal(stop?.kind, 'error');
    assert.match(stop?.kind === 'error' ? stop.message : '', /could not be read|does not exist/);
    assert.equal(h.session.state, 'awaiting_approval');
    assert.equal(h.eventsOf('context.reset').length, 0);
    assert.deepEqual(await historyAtLastCheckpoint(h), before);
  });
});
