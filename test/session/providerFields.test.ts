/**
 * Round-trip fields and retry waits through a whole session: DeepSeek's reasoning_content survives
 * the session archive, so a resumed session's next request still carries it; a retry's wait is a
 * `model.retrying` event on the bus, which the panel shows as a notice.
 */
import assert from 'node:assert/strict';
import { EventTranslator } from '../../src/host/panel/translate';
import type { RecordedRequest, ScriptedTurn } from '../support/scriptedServer';
import { sse } from '../support/scriptedServer';
import { DEEPSEEK_MODEL, deepseekCheck, deepseekTextTurn, deepseekToolTurn } from '../support/providerFixtures';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

describe('provider fields and retries through a session', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('DeepSeek: a resumed session sends reasoning_content back on the archived tool-calling message', async () => {
    const reasoning = 'I need the greeting module first.';
    const call = { id: 'call_ds_9', name: 'read_file', args: { path: 'src/greet.ts' } };
    const expected = new Map([[call.id, reasoning]]);
    const script = (req: RecordedRequest, n: number): ScriptedTurn | undefined => {
      const refused = deepseekCheck(req, expected);
      if (refused) return refused;
      if (n === 0) return deepseekToolTurn(reasoning, call);
      if (n === 1) return deepseekTextTurn('Ask first.', 'Should greetings be localised?');
      return deepseekTextTurn('Now plan.', planResponse(samplePlan()));
    };
    h = await startHarness(script, {
      files: { 'src/greet.ts': 'export const greet = (n: string) => `hi ${n}`;\n' },
      config: { planningModel: DEEPSEEK_MODEL, interactive: false },
    });
    const first = await h.session.start('add a greeting helper');
    assert.equal(first.kind, 'completed', JSON.stringify(first)); // the planner asked a question in prose
    const resumed = await h.resume(h.session.id, { config: { planningModel: DEEPSEEK_MODEL, interactive: false } });
    assert.ok(resumed);
    const stop = await resumed.submit('No, English only.');
    assert.equal(stop?.kind, 'awaiting_approval', JSON.stringify(stop));
    const last = h.server.requests.at(-1)!;
    const toolMsg = last.body.messages.find((m) => m.role === 'assistant' && Array.isArray(m.tool_calls));
    assert.equal(toolMsg?.reasoning_content, reasoning);
    // Reasoning is never answer text in the transcript.
    const texts = h.eventsOf('item.completed').filter((e) => e.item.kind === 'assistant_text');
    assert.ok(texts.every((e) => !(e.item.text ?? '').includes(reasoning)));
  });

  it("a retry's wait travels as model.retrying, and the panel shows it", async () => {
    h = await startHarness(
      [
        sse.httpError(429, 'Rate limit reached', { headers: { 'retry-after': '120' } }),
        sse.textTurn(planResponse(samplePlan())),
      ],
      { maxRetries: 1, config: { interactive: false } },
    );
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval');
    const [retry] = h.eventsOf('model.retrying');
    assert.ok(retry);
    assert.equal(retry.wait_ms, 120_000);
    assert.equal(retry.attempt, 2);
    assert.equal(retry.max_attempts, 2);
    const ops = new EventTranslator({ relativePath: (p) => p }).translate(retry);
    assert.deepEqual(
      ops.map((o) => o.op === 'item.add' && o.item.kind === 'notice' && o.item.text),
      ['Retrying in 2 min (attempt 2 of 2): the endpoint answered 429 and asked to wait 2 min. Stop cancels the wait.'],
    );
  });
});
