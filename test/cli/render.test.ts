import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { BudgetSnapshot, ThreadEvent, ThreadEventBody } from '../../src/core/events/types';
import { LineInput } from '../../src/cli/prompts/lineInput';
import { Printer } from '../../src/cli/render/printer';
import { makeRedactor } from '../../src/cli/render/redact';
import { colorEnabled, makeStyle } from '../../src/cli/render/style';
import { toolCallLine } from '../../src/cli/render/toolCall';
import { TranscriptRenderer } from '../../src/cli/render/transcript';
import { trackerLines } from '../../src/cli/render/tracker';
import { Capture } from './cliHarness';

function transcript(bodies: ThreadEventBody[]): string {
  const out = new Capture();
  const r = new TranscriptRenderer(new Printer(out), makeStyle(false), (f) => f.replace('/ws/', ''));
  bodies.forEach((b, i) => r.handle({ ...b, seq: i + 1, at: 0 } as ThreadEvent));
  return out.text;
}

const budget = (calls: number): BudgetSnapshot => ({
  toolCalls: { used: calls, max: 120 },
  loops: { used: 2, max: 60 },
  previewBytes: { used: 0, max: 1 },
  blockedCalls: { consecutive: 0, total: 0, fuse: 8 },
  tokens: { input: 0, output: 0, cap: 0 },
  contextPercent: 7,
});

const item = (kind: 'assistant_text' | 'reasoning', delta: string): ThreadEventBody => ({
  type: 'item.updated',
  turn_id: 't',
  item: { id: kind, kind, delta },
});

describe('the terminal transcript', () => {
  it('streams text, holds whitespace until text follows, and puts blocks on their own lines', () => {
    const text = transcript([
      item('reasoning', 'Look'),
      item('reasoning', 'ing.'),
      item('assistant_text', '\n'),
      item('assistant_text', 'Here'),
      item('assistant_text', ' is'),
      item('assistant_text', '\n\n'),
      {
        type: 'item.started',
        turn_id: 't',
        item: {
          id: 'c',
          kind: 'tool_call',
          tool: {
            callId: 'c1',
            name: 'exec_command',
            arguments: '{"command":"rm -rf src"}',
            title: 'Ran `rm -rf src`',
            subject: '`rm -rf src`',
          },
          verdict: { allowed: false, reason: "blocked: 'rm' is not read-only" },
        },
      },
      {
        type: 'item.completed',
        turn_id: 't',
        item: { id: 'r', kind: 'tool_result', result: { callId: 'c1', ok: false, bytes: 1, preview: 'blocked' } },
      },
      { type: 'item.completed', turn_id: 't', item: { id: 'n', kind: 'notice', text: 'Careful.', level: 'warning' } },
    ]);
    assert.equal(
      text,
      "thinking: Looking.\nHere is\n  ✗ Not run: `rm -rf src` — blocked: 'rm' is not read-only\n! Careful.\n",
    );
  });

  it('shows the budget once per turn when it changed, and the tracker only while building', () => {
    const tracker: ThreadEventBody = {
      type: 'tracker.updated',
      title: 'Plan',
      items: [
        {
          path: '1',
          description: 'Do it',
          status: 'in_progress',
          files: [],
          verify: [],
          entries: [],
          awaitingCheck: false,
          children: [],
        },
      ],
      counts: { done: 0, inProgress: 1, pending: 0, blocked: 0, total: 1 },
      percent: 0,
    };
    const text = transcript([
      { type: 'budget.updated', budget: budget(1) },
      { type: 'budget.updated', budget: budget(2) },
      { type: 'turn.completed', turn_id: 't', usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } },
      { type: 'turn.completed', turn_id: 't', usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } },
      tracker,
      { type: 'state.changed', state: 'executing', mode: 'build' },
      { type: 'turn.started', turn_id: 'b' },
      tracker,
    ]);
    assert.equal(
      text,
      '  [2 of 120 tool calls · 2 of 60 model requests · 7% of context]\nPlan (0/1 completed, 0%)\n  └─ [-] Do it\n',
    );
  });

  it('a call the person or the policy refused from inside is printed as not run, with the reason', () => {
    const text = transcript([
      {
        type: 'item.started',
        turn_id: 't',
        item: {
          id: 'call-1',
          kind: 'tool_call',
          tool: { callId: '1', name: 'run_command', arguments: '{}', title: 'Ran `touch x`', subject: '`touch x`' },
          verdict: { allowed: true, reason: 'asks' },
        },
      },
      {
        type: 'item.completed',
        turn_id: 't',
        item: {
          id: 'result-1',
          kind: 'tool_result',
          result: {
            callId: '1',
            ok: false,
            bytes: 9,
            preview: 'blocked: the person did not allow it',
            outcome: 'refused',
          },
        },
      },
    ]);
    assert.equal(text, '  ✗ Not run: `touch x` — blocked: the person did not allow it\n');
  });

  it('prints the whole tracker once per build, then only the steps that changed, with the progress', () => {
    const leaf = (path: string, description: string, status: 'pending' | 'in_progress' | 'completed') => ({
      path,
      description,
      status,
      files: [],
      verify: [],
      entries: [],
      awaitingCheck: false,
      children: [],
    });
    const tracker = (a: 'pending' | 'in_progress' | 'completed', b: 'pending' | 'in_progress' | 'completed') => {
      const done = [a, b].filter((s) => s === 'completed').length;
      return {
        type: 'tracker.updated' as const,
        title: 'Plan',
        items: [leaf('1', 'First', a), leaf('2', 'Second', b)],
        counts: {
          done,
          inProgress: [a, b].filter((s) => s === 'in_progress').length,
          pending: 0,
          blocked: 0,
          total: 2,
        },
        percent: done * 50,
      };
    };
    const executing: ThreadEventBody = { type: 'state.changed', state: 'executing', mode: 'build' };
    const text = transcript([
      executing,
      tracker('pending', 'pending'),
      tracker('in_progress', 'pending'),
      tracker('in_progress', 'pending'),
      tracker('completed', 'in_progress'),
      { type: 'state.changed', state: 'awaiting_approval', mode: 'plan' },
      executing,
      tracker('completed', 'in_progress'),
    ]);
    assert.equal(
      text,
      [
        'Plan (0/2 completed, 0%)',
        '  ├─ □ First',
        '  └─ □ Second',
        '  [-] First (0/2 completed, 0%)',
        '  [x] First',
        '  [-] Second (1/2 completed, 50%)',
        'Plan (1/2 completed, 50%)',
        '  ├─ [x] First',
        '  └─ [-] Second',
        '',
      ].join('\n'),
    );
  });

  it('reports questions that could not be asked, and answers that were given', () => {
    const questions = [{ id: 'q', header: 'Runner', question: 'Which?', options: [{ label: 'a' }, { label: 'b' }] }];
    const text = transcript([
      {
        type: 'item.completed',
        turn_id: '',
        item: { id: 'i', kind: 'interview', interview: { questions, outcome: 'denied' } },
      },
      {
        type: 'item.completed',
        turn_id: '',
        item: {
          id: 'j',
          kind: 'interview',
          interview: { questions, outcome: 'answered', answers: [{ questionId: 'q', choice: 'b', note: 'fast' }] },
        },
      },
    ]);
    assert.equal(
      text,
      '! 1 question not asked: this run is non-interactive.\n    Runner: Which?\n✓ Runner: b — fast\n',
    );
  });
});

describe('transcript pieces', () => {
  it("prints a call in its tool's words once it has run, and a refused call as not run", () => {
    const plain = makeStyle(false);
    const call = {
      id: 'call-1',
      kind: 'tool_call' as const,
      tool: {
        callId: '1',
        name: 'code_search',
        arguments: '{}',
        title: 'Searched src for `parse(`',
        subject: '`parse(`',
      },
      verdict: { allowed: true, reason: 'allowed' },
    };
    assert.equal(toolCallLine(call, plain), '  ✓ Searched src for `parse(`');
    assert.equal(toolCallLine(call, plain, false), '  ! Searched src for `parse(`');
    const refused = { ...call, verdict: { allowed: false, reason: 'blocked: output redirection' } };
    assert.equal(toolCallLine(refused, plain), '  ✗ Not run: `parse(` — blocked: output redirection');
    // An archive written before calls had titles still reads.
    const old = { ...call, tool: { callId: '1', name: 'read_file', arguments: '{"path":"a.ts"}' } };
    assert.equal(toolCallLine(old, plain), '  ✓ read_file {"path":"a.ts"}');
  });

  it("prints a file tool's line in its result's words, with the lines it added and removed", () => {
    const call = {
      id: 'call-2',
      kind: 'tool_call' as const,
      tool: { callId: '2', name: 'write_file', arguments: '{}', title: 'Wrote src/new.ts', subject: 'src/new.ts' },
      verdict: { allowed: true, reason: 'allowed' },
    };
    const text = transcript([
      { type: 'item.started', turn_id: 't', item: call },
      { type: 'item.completed', turn_id: 't', item: call },
      {
        type: 'item.completed',
        turn_id: 't',
        item: {
          id: 'result-2',
          kind: 'tool_result',
          result: {
            callId: '2',
            ok: true,
            bytes: 40,
            preview: 'created src/new.ts (3 lines, 40 bytes)',
            outcome: 'ok',
            title: 'Created src/new.ts',
            change: { path: 'src/new.ts', action: 'created', added: 3, removed: 0, diff: '', omitted: 0 },
          },
        },
      },
    ]);
    assert.equal(text, '  ✓ Created src/new.ts +3 \u22120\n');
  });

  it('draws the tracker tree with the rules glyphs, a failed verify, a step awaiting a check, and the engine counts', () => {
    const leaf = { files: [], verify: [], entries: [], awaitingCheck: false, children: [] };
    const lines = trackerLines(
      {
        title: 'T',
        items: [
          {
            ...leaf,
            path: '1',
            description: 'Parent',
            status: 'in_progress',
            children: [
              { ...leaf, path: '1.1', description: 'Done', status: 'completed' },
              {
                ...leaf,
                path: '1.2',
                description: 'Failing',
                status: 'in_progress',
                verify: ['npm test'],
                entries: [
                  {
                    kind: 'command',
                    text: 'npm test',
                    command: 'npm test',
                    result: { status: 'failed', exitCode: 1, at: 0, durationMs: 5 },
                  },
                ],
              },
              {
                ...leaf,
                path: '1.3',
                description: 'Looked at',
                status: 'in_progress',
                verify: ['confirm the panel shows the plan'],
                entries: [{ kind: 'check', text: 'confirm the panel shows the plan' }],
                awaitingCheck: true,
              },
            ],
          },
          { ...leaf, path: '2', description: 'Later', status: 'pending' },
        ],
        // The renderer prints the engine's numbers as they come; it counts nothing itself.
        counts: { done: 1, inProgress: 2, pending: 1, blocked: 0, total: 4 },
        percent: 25,
      },
      makeStyle(false),
    );
    assert.deepEqual(lines, [
      'T (1/4 completed, 25%)',
      '  ├─ Parent',
      '  │  ├─ [x] Done',
      '  │  ├─ [-] Failing',
      '  │  │     verify failed (exit 1): npm test',
      '  │  └─ [-] Looked at (awaiting your check)',
      '  └─ □ Later',
    ]);
  });

  it('masks secrets, and colours only a TTY without NO_COLOR', () => {
    const redact = makeRedactor(['sk-secret-123', undefined, 'ab']);
    assert.equal(redact('key sk-secret-123 and ab'), 'key *** and ab');
    assert.equal(colorEnabled({ isTTY: true }, {}), true);
    assert.equal(colorEnabled({ isTTY: true }, { NO_COLOR: '1' }), false);
    assert.equal(colorEnabled({ isTTY: true }, { NO_COLOR: '' }), true);
    assert.equal(colorEnabled({}, {}), false);
  });
});

describe('terminal line input', () => {
  it('keeps lines that arrive before the prompt, echoes them, and gives null at the end of input', async () => {
    const stdin = new PassThrough();
    const out = new Capture();
    const input = new LineInput(stdin, out, new Printer(out), false);
    stdin.write('first\nsecond\n');
    assert.equal(await input.ask('A? '), 'first');
    await new Promise((r) => setImmediate(r));
    assert.equal(await input.ask('B? '), 'second');
    const third = input.ask('C? ');
    stdin.end('third\n');
    assert.equal(await third, 'third');
    assert.equal(await input.ask('D? '), null);
    input.close();
    assert.equal(out.text, 'A? first\nB? second\nC? third\nD? \n');
  });
});
