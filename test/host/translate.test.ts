import assert from 'node:assert/strict';
import { EventBus } from '../../src/core/events/bus';
import type { ThreadEvent, ThreadEventBody } from '../../src/core/events/types';
import { EventTranslator, summariseArgs, toBudget } from '../../src/host/panel/translate';
import {
  applyOps,
  emptyViewState,
  DeltaOpSchema,
  type DeltaOp,
  type NoticeItem,
  type ViewState,
} from '../../src/protocol';

const ROOT = '/ws';

/** Feeds engine events through the translator and the shared reducer, like the panel does. */
function harness(takesKey?: () => boolean) {
  const bus = new EventBus(() => 1_700_000_000_000);
  const translator = new EventTranslator({
    relativePath: (p) => (p.startsWith(`${ROOT}/`) ? p.slice(ROOT.length + 1) : p),
    ...(takesKey ? { takesKey } : {}),
  });
  let state: ViewState = emptyViewState();
  const allOps: DeltaOp[] = [];
  bus.on((e: ThreadEvent) => {
    const ops = translator.translate(e);
    for (const op of ops) assert.equal(DeltaOpSchema.safeParse(op).success, true, `invalid op ${JSON.stringify(op)}`);
    allOps.push(...ops);
    state = applyOps(state, ops);
  });
  return {
    emit: (...events: ThreadEventBody[]) => events.forEach((e) => bus.emit(e)),
    host: (ops: DeltaOp[]) => {
      allOps.push(...ops);
      state = applyOps(state, ops);
    },
    translator,
    get state() {
      return state;
    },
    ops: allOps,
  };
}

describe('engine events → panel deltas', () => {
  it('streams assistant text as appends and ends the item on completion', () => {
    const h = harness();
    h.emit(
      { type: 'turn.started', turn_id: 't1' },
      { type: 'item.started', turn_id: 't1', item: { id: 'a1', kind: 'assistant_text', text: '' } },
      { type: 'item.updated', turn_id: 't1', item: { id: 'a1', kind: 'assistant_text', delta: 'Hel' } },
      { type: 'item.updated', turn_id: 't1', item: { id: 'a1', kind: 'assistant_text', delta: 'lo' } },
    );
    assert.deepEqual(h.state.transcript, [{ id: 'a1', kind: 'assistant', text: 'Hello', streaming: true }]);
    assert.equal(h.state.lifecycle.busy, true);
    h.emit(
      { type: 'item.completed', turn_id: 't1', item: { id: 'a1', kind: 'assistant_text', text: 'Hello.' } },
      { type: 'turn.completed', turn_id: 't1', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
    );
    assert.deepEqual(h.state.transcript, [{ id: 'a1', kind: 'assistant', text: 'Hello.', streaming: false }]);
    assert.equal(h.state.lifecycle.busy, false);
    assert.deepEqual(
      h.ops.filter((o) => o.op === 'item.append').map((o) => (o as { text: string }).text),
      ['Hel', 'lo'],
    );
  });

  it('shows a tool call with its verdict, then its result on the same row (completed without a start)', () => {
    const h = harness();
    const callItem = {
      id: 'call-c1',
      kind: 'tool_call' as const,
      tool: {
        callId: 'c1',
        name: 'exec_command',
        arguments: '{"command":"git log -5"}',
        title: 'Ran `git log -5`',
        subject: '`git log -5`',
      },
      verdict: { allowed: true, reason: 'read-only' },
    };
    h.emit(
      { type: 'item.started', turn_id: 't', item: callItem },
      { type: 'item.completed', turn_id: 't', item: callItem },
      {
        type: 'item.completed',
        turn_id: 't',
        item: {
          id: 'result-c1',
          kind: 'tool_result',
          result: { callId: 'c1', ok: true, bytes: 812.4, preview: 'abc' },
        },
      },
    );
    assert.deepEqual(h.state.transcript, [
      {
        id: 'call-c1',
        kind: 'tool_call',
        callId: 'c1',
        name: 'exec_command',
        title: 'Ran `git log -5`',
        subject: '`git log -5`',
        argsSummary: 'git log -5',
        verdict: { allowed: true, reason: 'read-only' },
        outcome: 'ok',
        bytes: 812,
        preview: 'abc',
      },
    ]);
  });

  it('streams a plan from plan.delta into one item and completes it with the saved file', () => {
    const h = harness();
    h.emit(
      { type: 'plan.delta', turn_id: 't', delta: '# Plan\n' },
      { type: 'plan.delta', turn_id: 't', delta: '## Summary\n' },
    );
    assert.equal(h.state.transcript.length, 1);
    assert.equal(h.state.transcript[0]!.kind, 'plan');
    h.emit({
      type: 'item.completed',
      turn_id: 't',
      item: {
        id: 'plan-9',
        kind: 'plan',
        plan: { file: `${ROOT}/.vtcode/plans/x.md`, markdown: '# Plan\n## Summary\nfinal', valid: true, revision: 2 },
      },
    });
    assert.equal(h.state.transcript.length, 1, 'the saved plan replaces the streamed one, not a second card');
    assert.deepEqual(h.state.transcript[0], {
      id: 'plan-t-1',
      kind: 'plan',
      markdown: '# Plan\n## Summary\nfinal',
      file: '.vtcode/plans/x.md',
      revision: 2,
      valid: true,
      streaming: false,
    });
    h.emit({ type: 'plan.delta', turn_id: 't', delta: 'a revision' });
    assert.equal(h.state.transcript.length, 2, 'a later plan in the same turn is a new card');
  });

  it("folds the engine's copy of the person's message into the host's echo", () => {
    const h = harness();
    h.host(h.translator.echoUser('host-user-1', 'Add retries'));
    h.emit({ type: 'item.completed', turn_id: 't', item: { id: 'user-1', kind: 'user_message', text: 'Add retries' } });
    assert.deepEqual(h.state.transcript, [{ id: 'host-user-1', kind: 'user', text: 'Add retries' }]);
    h.emit({
      type: 'item.completed',
      turn_id: 't',
      item: { id: 'user-2', kind: 'user_message', text: 'Something else' },
    });
    assert.equal(h.state.transcript.length, 2, 'a message the host did not echo is shown');
  });

  it('keeps lifecycle state, mode and busy in step with the engine', () => {
    const h = harness();
    h.emit({ type: 'thread.started', thread_id: 's', mode: 'plan', task: 'x' });
    h.emit({ type: 'state.changed', state: 'planning', mode: 'plan' });
    assert.deepEqual(h.state.lifecycle, { state: 'planning', mode: 'plan', busy: true });
    h.emit(
      { type: 'state.changed', state: 'awaiting_approval', mode: 'plan' },
      { type: 'thread.completed', thread_id: 's' },
    );
    assert.deepEqual(h.state.lifecycle, { state: 'awaiting_approval', mode: 'plan', busy: false });
    const before = h.ops.length;
    h.emit({ type: 'state.changed', state: 'awaiting_approval', mode: 'plan' });
    assert.equal(h.ops.length, before, 'no op when nothing changed');
  });

  it('runs the fresh-context handoff as steps and ends it when the build turn starts', () => {
    const h = harness();
    h.host([
      {
        op: 'gate.set',
        gate: {
          requestId: 'r',
          title: 't',
          summary: '',
          steps: [],
          moreSteps: 0,
          validation: { valid: true, problems: [] },
          contextPercent: 60,
          proposedDuringExecution: false,
          revision: 1,
          hasPreviousRevision: false,
        },
      },
    ]);
    h.emit({ type: 'plan.approval.resolved', decision: 'fresh_context', automatic: false });
    assert.equal(h.state.gate, null);
    h.emit(
      { type: 'progress', message: 'Preparing fresh execution thread...' },
      { type: 'progress', message: 'Restoring approved plan...' },
    );
    assert.deepEqual(h.state.handoff, {
      steps: [
        { label: 'Preparing fresh execution thread...', status: 'done' },
        { label: 'Restoring approved plan...', status: 'active' },
      ],
    });
    h.emit({
      type: 'context.reset',
      trigger: 'plan_approval',
      plan_preserved: true,
      previous_context_usage_percent: 61.6,
      tool_budget_reset: true,
    });
    h.emit({ type: 'turn.started', turn_id: 'b1' });
    assert.equal(h.state.handoff, null);
    const notices = h.state.transcript.filter((i) => i.kind === 'notice').map((i) => (i as { text: string }).text);
    assert.match(notices[0]!, /fresh context/i);
    assert.match(notices[1]!, /62% full/);
  });

  it('ignores progress outside a handoff', () => {
    const h = harness();
    h.emit({ type: 'progress', message: 'thinking' });
    assert.deepEqual(h.ops, []);
  });

  it('records a revise decision with its feedback, and limit grants clear the prompt', () => {
    const h = harness();
    h.host([{ op: 'grantMore.set', prompt: { requestId: 'g', kind: 'tool_loop', used: 40, max: 40 } }]);
    h.emit(
      { type: 'plan.approval.resolved', decision: 'revise', automatic: false, feedback: 'keep the old API' },
      { type: 'tool_loop_limit_increased', granted: 50, max: 90 },
      { type: 'budget_exhausted', budget: 'session_calls', used: 400, max: 400 },
    );
    assert.equal(h.state.grantMore, null);
    const texts = h.state.transcript.map((i) => (i as { text?: string }).text ?? '');
    assert.match(texts[0]!, /Staying in planning[\s\S]*keep the old API/);
    assert.match(texts[1]!, /50 more model round trips \(limit now 90\)/);
    assert.match(texts[2]!, /tool calls this session 400\/400/);
    assert.equal((h.state.transcript[2] as { level: string }).level, 'warning');
  });

  it('clamps the budget into the protocol ranges and maps the tracker with relative paths', () => {
    const h = harness();
    h.emit({
      type: 'budget.updated',
      budget: {
        toolCalls: { used: 3, max: 120 },
        loops: { used: 1, max: 60 },
        previewBytes: { used: 1000.7, max: 98304 },
        blockedCalls: { consecutive: 0, total: 1, fuse: 32 },
        tokens: { input: 1200, output: 300, cap: 0 },
        contextPercent: 104.2,
      },
    });
    assert.equal(h.state.budget?.contextPercent, 100);
    assert.equal(h.state.budget?.previewBytes.used, 1001);
    h.emit({
      type: 'tracker.updated',
      plan_file: `${ROOT}/.vtcode/plans/x.md`,
      title: 'Retry',
      items: [
        {
          path: '1',
          description: 'Add retry',
          status: 'completed',
          files: ['src/a.ts'],
          verify: ['npm test'],
          entries: [
            {
              kind: 'command',
              text: 'npm test',
              command: 'npm test',
              result: { status: 'passed', exitCode: 0, at: 5, durationMs: 9 },
            },
          ],
          awaitingCheck: false,
          children: [
            {
              path: '1.1',
              description: 'sub',
              status: 'pending',
              files: [],
              verify: ['confirm the log shows three attempts'],
              entries: [{ kind: 'check', text: 'confirm the log shows three attempts' }],
              awaitingCheck: false,
              children: [],
            },
          ],
        },
      ],
      counts: { done: 0, inProgress: 0, pending: 1, blocked: 0, total: 1 },
      percent: 0,
    });
    assert.equal(h.state.tracker?.planFile, '.vtcode/plans/x.md');
    assert.equal(h.state.tracker?.items[0]?.children[0]?.path, '1.1');
    assert.deepEqual(h.state.tracker?.items[0]?.entries[0]?.result, {
      status: 'passed',
      exitCode: 0,
      at: 5,
      durationMs: 9,
    });
    assert.equal(h.state.tracker?.items[0]?.children[0]?.entries[0]?.kind, 'check');
    // The engine's counts travel as they are: the translator counts nothing.
    assert.deepEqual(h.state.tracker?.counts, { done: 0, inProgress: 0, pending: 1, blocked: 0, total: 1 });
    assert.equal(h.state.tracker?.percent, 0);
  });

  it('turns an error into one error notice with Retry and Change provider, and ends the busy state', () => {
    for (const recoverable of [false, true]) {
      const h = harness();
      h.emit({ type: 'turn.started', turn_id: 't' }, { type: 'error', message: 'model unreachable', recoverable });
      assert.equal(h.state.lifecycle.busy, false, 'the run that failed has ended');
      assert.deepEqual(h.state.transcript.at(-1), {
        id: 'host-notice-2',
        kind: 'notice',
        level: 'error',
        text: 'model unreachable',
        actions: ['retry', 'changeProvider'],
      });
    }
  });

  it('a refused or missing key (the engine says auth) offers Set API Key first, unless the provider takes no key', () => {
    const auth = { type: 'error', message: 'The model endpoint refused the key (401).', recoverable: true } as const;
    const actions = (h: ReturnType<typeof harness>) => (h.state.transcript.at(-1) as NoticeItem).actions;
    const endpoint = harness(() => true);
    endpoint.emit({ ...auth, kind: 'auth' });
    assert.deepEqual(actions(endpoint), ['setApiKey', 'retry', 'changeProvider']);
    const other = harness(() => true);
    other.emit({ ...auth, kind: 'unreachable' });
    assert.deepEqual(actions(other), ['retry', 'changeProvider']);
    // VS Code's models refuse with consent, not a key.
    const lm = harness(() => false);
    lm.emit({ ...auth, kind: 'auth' });
    assert.deepEqual(actions(lm), ['retry', 'changeProvider']);
  });

  it('summarises answered questions as one notice', () => {
    const h = harness();
    h.emit({
      type: 'item.completed',
      turn_id: 't',
      item: {
        id: 'iv',
        kind: 'interview',
        interview: {
          questions: [
            { id: 'q1', header: 'Scope', question: 'Which API?', options: [{ label: 'v1' }, { label: 'v2' }] },
          ],
          answers: [{ questionId: 'q1', choice: 'v2', note: 'new clients only' }],
          outcome: 'answered',
        },
      },
    });
    assert.equal((h.state.transcript[0] as { text: string }).text, 'Scope: Which API? → v2 (new clients only)');
  });

  it('summarises tool arguments briefly', () => {
    assert.equal(summariseArgs('{"path":"src/a.ts"}'), 'src/a.ts');
    assert.equal(summariseArgs('{"pattern":"TODO","glob":"*.ts","max":5}'), 'TODO · glob=*.ts · max=5');
    assert.equal(summariseArgs('not json'), 'not json');
    assert.equal(summariseArgs(JSON.stringify({ command: 'x'.repeat(500) })).length, 200);
  });

  it('keeps whole numbers whole in budgets', () => {
    const b = toBudget({
      toolCalls: { used: Number.NaN, max: 1 },
      loops: { used: 1, max: 1 },
      previewBytes: { used: 1, max: 1 },
      blockedCalls: { consecutive: -2, total: 1, fuse: 1 },
      tokens: { input: 1, output: 1, cap: 1 },
      contextPercent: -3,
    });
    assert.equal(b.toolCalls.used, 0);
    assert.equal(b.blockedCalls.consecutive, 0);
    assert.equal(b.contextPercent, 0);
  });
});

describe("the build's closing audit → the panel's final card", () => {
  it('an event archived before the card existed (no counts, no session) still shows, as a notice', () => {
    const h = harness();
    h.emit({
      type: 'plan.execution.completed',
      plan_file: `${ROOT}/.vtcode/plans/p.md`,
      report_file: `${ROOT}/.vtcode/plans/p.report.md`,
      outcome: 'done',
      complete: true,
      report: { summary: 'Changed 1 file (+1 −0): a.ts. No blockers remain.' },
      markdown: '',
    } as never);
    assert.deepEqual(
      h.state.transcript.map((i) => [i.kind, 'text' in i ? i.text : '']),
      [['notice', 'Build done. Changed 1 file (+1 −0): a.ts. No blockers remain. Report: .vtcode/plans/p.report.md']],
    );
  });
});
