import assert from 'node:assert/strict';
import { EXIT_PHRASES, STAY_PHRASES } from '../../src/core/lifecycle/intents';
import type { InterviewQuestion } from '../../src/core/lifecycle/ports';
import { parseGateAnswer } from '../../src/cli/prompts/gate';
import { pickOption } from '../../src/cli/prompts/interviewer';

const decision = (text: string) => {
  const a = parseGateAnswer(text);
  return a.kind === 'decision' ? a.response : a.kind;
};

describe('the approval gate on the terminal: what a typed line means', () => {
  it('maps the three numbered choices', () => {
    assert.deepEqual(decision('1'), { decision: 'execute' });
    assert.deepEqual(decision(' 2) '), { decision: 'fresh_context' });
    assert.equal(decision('3'), 'stay');
    assert.equal(decision('   '), 'empty');
  });

  it('reads intent phrases: exit implements, stay revises with the text as feedback, cancel cancels', () => {
    for (const p of EXIT_PHRASES) assert.deepEqual(decision(p), { decision: 'execute' }, p);
    for (const p of STAY_PHRASES) assert.deepEqual(decision(p), { decision: 'revise', feedback: p }, p);
    assert.deepEqual(decision('cancel'), { decision: 'cancel' });
    assert.deepEqual(decision('/plan off'), { decision: 'cancel' });
    assert.deepEqual(decision('ok'), { decision: 'execute' });
  });

  it('stay wins over exit, and a negated approval is not one', () => {
    assert.deepEqual(decision('looks good but keep planning'), {
      decision: 'revise',
      feedback: 'looks good but keep planning',
    });
    assert.deepEqual(decision("don't approve yet, add tests"), {
      decision: 'revise',
      feedback: "don't approve yet, add tests",
    });
  });

  it('anything unclear is revision feedback, never approval', () => {
    for (const text of ['4', 'hmm', 'what about error handling?', 'yes please', 'implementation details?']) {
      const r = decision(text);
      assert.deepEqual(r, { decision: 'revise', feedback: text }, text);
    }
  });

  it('an approval that asks to clear the context chooses the fresh thread', () => {
    assert.deepEqual(decision('approve, and clear the context first'), { decision: 'fresh_context' });
    assert.deepEqual(decision('implement it in a fresh context'), { decision: 'fresh_context' });
  });
});

describe('interview answers on the terminal', () => {
  const q: InterviewQuestion = {
    id: 'q1',
    header: 'Runner',
    question: 'Which test runner?',
    options: [{ label: 'mocha', recommended: true }, { label: 'Node test runner' }],
  };

  it('accepts the option number or its label, and nothing else', () => {
    assert.equal(pickOption(q, '1'), 0);
    assert.equal(pickOption(q, '2.'), 1);
    assert.equal(pickOption(q, 'node TEST runner'), 1);
    assert.equal(pickOption(q, '3'), undefined);
    assert.equal(pickOption(q, '0'), undefined);
    assert.equal(pickOption(q, 'jest'), undefined);
  });
});
