/**
 * One reasoning channel: inline `<think>` / `<thought>` (split across chunks), Mistral's thinking
 * parts and reasoning fields all become reasoning events, never answer text, and never go back as
 * assistant content.
 */
import assert from 'node:assert/strict';
import { InlineReasoningSplitter, splitInlineReasoning } from '../../src/core/agent/inlineReasoning';
import { accumulateChunks } from '../../src/core/agent/streamAccumulator';
import type { ModelRequest } from '../../src/core/agent/model';
import { OpenAIModelClient } from '../../src/node/openaiModelClient';
import { ScriptedServer } from '../support/scriptedServer';
import type { ScriptedTurn } from '../support/scriptedServer';
import { collect } from '../support/scriptedModel';
import { geminiThoughtTags, magistralThinkingParts, minimaxInlineThink } from '../support/providerFixtures';

const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'plan it' }] };

async function through(turn: ScriptedTurn) {
  const server = await ScriptedServer.start([turn]);
  try {
    const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 });
    const r = await collect(client.stream(request));
    assert.equal(r.error, undefined, String(r.error));
    return r;
  } finally {
    await server.close();
  }
}

describe('reasoning channel', () => {
  describe('InlineReasoningSplitter', () => {
    it('splits a tag cut anywhere across chunks, character by character', () => {
      const content = '  <think>weigh options</think>\n\nThe answer.';
      const s = new InlineReasoningSplitter();
      let text = '';
      let reasoning = '';
      for (const ch of content) {
        const p = s.push(ch);
        text += p.text;
        reasoning += p.reasoning;
      }
      const e = s.end();
      assert.equal(reasoning + e.reasoning, 'weigh options');
      assert.equal(text + e.text, 'The answer.');
    });

    it('leaves content alone when it does not open with a tag, and a later tag is text', () => {
      assert.deepEqual(splitInlineReasoning('Use <think> tags like this.'), {
        text: 'Use <think> tags like this.',
        reasoning: '',
      });
      assert.deepEqual(splitInlineReasoning('<thin'), { text: '<thin', reasoning: '' });
      assert.deepEqual(splitInlineReasoning('<thinking is fun'), { text: '<thinking is fun', reasoning: '' });
    });

    it('an unclosed block stays reasoning', () => {
      assert.deepEqual(splitInlineReasoning('<thought>still going'), { text: '', reasoning: 'still going' });
    });
  });

  it('MiniMax: <think> in content is reasoning, the answer has no tags, the stored content has none', async () => {
    const r = await through(minimaxInlineThink('Check the parser first.', 'Here is the plan.', false));
    assert.equal(r.reasoning, '\nCheck the parser first.\n');
    assert.equal(r.text, 'Here is the plan.');
    assert.equal(r.done?.content, 'Here is the plan.');
    assert.equal(r.done?.roundTrip, undefined, 'inline reasoning has no field to go back in');
  });

  it('MiniMax: reasoning sent both in a field and inline is shown once', async () => {
    const r = await through(minimaxInlineThink('Check the parser first.', 'Here is the plan.', true));
    assert.equal(r.reasoning, 'Check the parser first.');
    assert.equal(r.text, 'Here is the plan.');
    assert.equal(r.done?.content, 'Here is the plan.');
    // It goes back only in the field the provider used.
    assert.deepEqual(r.done?.roundTrip?.fields, { reasoning: 'Check the parser first.' });
  });

  it('Gemini include_thoughts: <thought> split across chunks is reasoning, never answer text', async () => {
    const r = await through(geminiThoughtTags('Looking at the call sites.', 'Two call sites need changes.'));
    assert.equal(r.reasoning, 'Looking at the call sites.');
    assert.equal(r.text, 'Two call sites need changes.');
    assert.equal(r.done?.content, 'Two call sites need changes.');
  });

  it('magistral: content parts of type thinking are reasoning (they were dropped before)', async () => {
    const r = await through(magistralThinkingParts('Reading the tests before deciding.', 'The tests cover it.'));
    assert.equal(r.reasoning, 'Reading the tests before deciding.');
    assert.equal(r.text, 'The tests cover it.');
    assert.equal(r.done?.content, 'The tests cover it.');
  });

  it('a plan after inline thinking reaches the plan parser with no thinking in it', async () => {
    const events = [];
    const chunks = [
      { choices: [{ index: 0, delta: { content: '<think>draft it</think>' } }] },
      { choices: [{ index: 0, delta: { content: '<proposed_plan>\n# Plan' } }] },
      { choices: [{ index: 0, delta: { content: '\n</proposed_plan>' }, finish_reason: 'stop' }] },
    ];
    for await (const e of accumulateChunks(chunks)) events.push(e);
    const done = events.find((e) => e.type === 'done');
    assert.equal(done?.type === 'done' && done.content, '<proposed_plan>\n# Plan\n</proposed_plan>');
  });

  it('reasoning_details stream merged by index and go back whole', async () => {
    const details = (text: string, extra: Record<string, unknown> = {}) => ({
      choices: [
        {
          index: 0,
          delta: {
            reasoning_details: [{ type: 'reasoning.text', text, format: 'anthropic-claude-v1', index: 0, ...extra }],
          },
        },
      ],
    });
    const events = [];
    for await (const e of accumulateChunks(
      [
        details('First '),
        details('second.'),
        details('', { signature: 'sig==' }),
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      ],
      { origin: 'o' },
    ))
      events.push(e);
    const done = events.find((e) => e.type === 'done');
    assert.deepEqual(done?.type === 'done' && done.roundTrip, {
      origin: 'o',
      fields: {
        reasoning_details: [
          {
            type: 'reasoning.text',
            text: 'First second.',
            format: 'anthropic-claude-v1',
            index: 0,
            signature: 'sig==',
          },
        ],
      },
    });
  });
});
