import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { TerminalApprover } from '../../src/cli/prompts/approver';
import { LineInput } from '../../src/cli/prompts/lineInput';
import { Printer } from '../../src/cli/render/printer';
import { makeStyle } from '../../src/cli/render/style';
import { Capture } from './cliHarness';
import { EXIT_PHRASES, STAY_PHRASES } from '../../src/core/lifecycle/intents';
import type { InterviewQuestion } from '../../src/core/lifecycle/ports';
import { parseGateAnswer, printGate } from '../../src/cli/prompts/gate';
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

describe('the approval gate on the terminal: open review comments', () => {
  const card = (openComments: number) => ({
    title: 'Plan',
    summary: 'Do it.',
    steps: ['Edit src/a.ts'],
    moreSteps: 0,
    validation: { valid: true, problems: [] },
    contextPercent: 1,
    revision: 1,
    proposedDuringExecution: false,
    ...(openComments > 0
      ? {
          openComments: Array.from({ length: openComments }, (_, k) => ({
            id: `c${k + 1}`,
            label: `step ${k + 1}`,
            line: 3 + k,
            outdated: false,
            answered: false,
          })),
        }
      : {}),
  });
  async function gate(openComments: number, lines: string) {
    const stdin = new PassThrough();
    const out = new Capture();
    const printer = new Printer(out);
    const input = new LineInput(stdin, out, printer, false);
    const approver = new TerminalApprover(input, printer, makeStyle(false), { onDetach: () => {}, shown: (f) => f });
    stdin.end(lines);
    const response = await approver.approvePlan({ card: card(openComments), planFile: 'p.md' });
    input.close();
    return { response, text: out.text };
  }

  it('approving with unresolved comments asks once; n goes back to the choices, y approves', async () => {
    const r = await gate(2, '1\nn\n1\ny\n');
    assert.deepEqual(r.response, { decision: 'execute' });
    assert.equal(r.text.match(/Approve with 2 unresolved comments\? \[y\/N\]/g)?.length, 2);
  });

  it('no question without open comments, and none for a revision', async () => {
    const none = await gate(0, '1\n');
    assert.deepEqual(none.response, { decision: 'execute' });
    assert.doesNotMatch(none.text, /unresolved/);
    const revise = await gate(1, 'keep planning: split step 2\n');
    assert.equal(revise.response.decision, 'revise');
    assert.doesNotMatch(revise.text, /unresolved/);
  });
});

describe('the approval gate on the terminal: what it prints', () => {
  const card = {
    title: 'Rate limits',
    summary: 'Add a limiter.',
    steps: ['Add the bucket'],
    moreSteps: 0,
    validation: { valid: true, problems: [] },
    contextPercent: 12,
    revision: 2,
    proposedDuringExecution: false,
  };
  it("says the revision and what changed, in the engine's words; a first draft says neither", () => {
    const out = new Capture();
    const changes = { added: 0, removed: 1, changed: 1, summary: '1 step removed, 1 changed' };
    printGate(new Printer(out), makeStyle(false), { card: { ...card, changes }, planFile: '/ws/p.md' }, 'p.md');
    assert.match(out.text, /\n {2}revision 2 · 1 step removed, 1 changed\n/);
    const first = new Capture();
    printGate(new Printer(first), makeStyle(false), { card: { ...card, revision: 1 }, planFile: '/ws/p.md' }, 'p.md');
    assert.doesNotMatch(first.text, /revision/);
  });

  it("says when the revision is the person's own edit", () => {
    const out = new Capture();
    const changes = { added: 0, removed: 0, changed: 1, summary: '1 step changed' };
    const edited = { ...card, changes, author: 'person' as const };
    printGate(new Printer(out), makeStyle(false), { card: edited, planFile: '/ws/p.md' }, 'p.md');
    assert.match(out.text, /\n {2}revision 2 · your edit · 1 step changed\n/);
  });
});
