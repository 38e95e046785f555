/**
 * One outage is one notice: a request's retries, from the real engine over the scripted server,
 * become one panel notice updated in place, settled in the past tense (no longer a warning) when
 * the request goes through, fails for good or is stopped, and a session replayed from its
 * archive never shows a countdown that is over.
 */
import assert from 'node:assert/strict';
import type { ThreadEvent } from '../../src/core/index';
import { EventTranslator } from '../../src/host/panel/translate';
import { applyOps, emptyViewState, type NoticeItem, type ViewState } from '../../src/protocol';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

const unavailable = () => sse.httpError(503, 'Service Unavailable', { headers: { 'retry-after-ms': '5' } });

/** The panel as the translator builds it from `events`; `after` runs at the end (a resume's sync). */
function panelOf(
  events: readonly ThreadEvent[],
  after?: (t: EventTranslator) => ReturnType<EventTranslator['translate']>,
) {
  const t = new EventTranslator({ relativePath: (p) => p });
  let state: ViewState = emptyViewState();
  const texts: string[] = [];
  for (const e of events) {
    state = applyOps(state, t.translate(e));
    for (const n of notices(state)) if (!texts.includes(n.text)) texts.push(n.text);
  }
  if (after) state = applyOps(state, after(t));
  return { state, notices: notices(state), texts, translator: t };
}

const notices = (s: ViewState) => s.transcript.filter((i): i is NoticeItem => i.kind === 'notice');

describe('one outage, one notice', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('three failed tries then an answer: one notice, updated in place, then settled as info', async () => {
    h = await startHarness([unavailable(), unavailable(), unavailable(), sse.textTurn(planResponse(samplePlan()))], {
      maxRetries: 3,
      config: { interactive: false },
    });
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval');
    assert.equal(h.eventsOf('model.retrying').length, 3);
    const p = panelOf(h.events);
    assert.equal(p.notices.filter((n) => /attempt/.test(n.text)).length, 1, JSON.stringify(p.notices));
    // While it lasted, the one notice said each attempt in turn.
    assert.deepEqual(
      p.texts.filter((t) => t.startsWith('Retrying in')).map((t) => t.match(/attempt \d of \d/)![0]),
      ['attempt 2 of 4', 'attempt 3 of 4', 'attempt 4 of 4'],
    );
    const [notice] = p.notices.filter((n) => /attempt/.test(n.text));
    assert.equal(notice!.level, 'info', 'a settled outage is no longer a warning');
    assert.match(notice!.text, /^The model answered on attempt 4 of 4 \(before that: .*503/);
    assert.equal(p.translator.retryNotice, undefined);
  });

  it('a request that fails for good: the notice says so in the past tense, and the error card follows', async () => {
    h = await startHarness([unavailable(), unavailable()], { maxRetries: 1, config: { interactive: false } });
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'error');
    const p = panelOf(h.events);
    const retry = p.notices.find((n) => /request/.test(n.text) && n.level !== 'error');
    assert.deepEqual([retry?.level, retry?.text], ['info', 'Sent the request 2 times; it did not go through.']);
    assert.equal(p.notices.filter((n) => n.level === 'error').length, 1);
    assert.equal(p.notices.filter((n) => n.level === 'warning').length, 0, 'no yellow card is left');
  });

  it('two outages in one session are two notices; each countdown patches its own', () => {
    const t = new EventTranslator({ relativePath: (p) => p });
    const at = 1_700_000_000_000;
    const retrying = (seq: number, attempt: number): ThreadEvent => ({
      type: 'model.retrying',
      turn_id: 't',
      attempt,
      max_attempts: 4,
      wait_ms: 1000,
      reason: 'the endpoint answered 503',
      seq,
      at,
    });
    t.translate(retrying(1, 2));
    const first = t.retryNotice;
    t.translate(retrying(2, 3));
    assert.equal(t.retryNotice, first, 'the second retry of the request patches the first notice');
    t.translate({
      type: 'item.updated',
      turn_id: 't',
      item: { id: 'a', kind: 'assistant_text', delta: 'Hi' },
      seq: 3,
      at,
    });
    assert.equal(t.retryNotice, undefined);
    const ops = t.translate(retrying(4, 2));
    assert.equal(ops[0]?.op, 'item.add', 'a later outage is a notice of its own');
    assert.notEqual(t.retryNotice, first);
  });

  it('Stop during the wait, and an archive cut off mid-wait: replayed, nothing counts down', () => {
    const at = 1_700_000_000_000;
    const events: ThreadEvent[] = [
      { type: 'thread.started', thread_id: 's', mode: 'plan', task: 'x', seq: 1, at },
      { type: 'turn.started', turn_id: 't', seq: 2, at },
      {
        type: 'model.retrying',
        turn_id: 't',
        attempt: 2,
        max_attempts: 4,
        wait_ms: 1000,
        reason: 'the endpoint answered 503',
        seq: 3,
        at,
      },
    ];
    const stopped = panelOf([...events, { type: 'run.stopped', what: 'planning', seq: 4, at }]);
    assert.equal(stopped.notices[0]!.text, 'Stopped while retrying (attempt 2 of 4): the endpoint answered 503.');
    // The window closed during the wait: the resume replays the archive, then says nothing runs.
    const resumed = panelOf(events, (t) => t.syncLifecycle({ state: 'planning', mode: 'plan', busy: false }));
    assert.deepEqual(
      resumed.notices.map((n) => [n.level, n.text]),
      [['info', 'Interrupted while retrying (attempt 2 of 4): the endpoint answered 503.']],
    );
    assert.doesNotMatch(JSON.stringify(resumed.state.transcript), /Retrying in/);
  });
});
