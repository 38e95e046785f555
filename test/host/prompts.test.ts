import assert from 'node:assert/strict';
import type { InterviewQuestion, PlanApprovalRequest } from '../../src/core/lifecycle/ports';
import { GRANT_AMOUNT, GRANT_TIMEOUT_MS, HostApprover } from '../../src/host/prompts/hostApprover';
import { HostInterviewer, INTERVIEW_TIMEOUT_MS, checkAnswers } from '../../src/host/prompts/hostInterviewer';
import {
  approvalItems,
  collectAnswers,
  grantMessage,
  questionItems,
  questionTitle,
} from '../../src/host/prompts/nativeModel';
import { PendingRequests, type Timers } from '../../src/host/prompts/pending';
import type { PromptSurface } from '../../src/host/prompts/surface';
import {
  applyOps,
  emptyViewState,
  InterviewSchema,
  GateSchema,
  type DeltaOp,
  type ViewState,
} from '../../src/protocol';

function manualTimers() {
  const timers = new Map<number, { fn: () => void; ms: number }>();
  let next = 0;
  const t: Timers & { fire(ms: number): void } = {
    set: (fn, ms) => {
      timers.set(++next, { fn, ms });
      return next;
    },
    clear: (h) => void timers.delete(h as number),
    fire: (ms) => [...timers].filter(([, x]) => x.ms === ms).forEach(([id, x]) => (timers.delete(id), x.fn())),
  };
  return t;
}

function fakeSurface(visible: boolean) {
  let state: ViewState = emptyViewState();
  const offers: string[] = [];
  const confirms: string[] = [];
  let confirmAnswer = false;
  const surface: PromptSurface = {
    panelVisible: () => visible,
    update: (ops: readonly DeltaOp[]) => {
      state = applyOps(state, ops);
    },
    offerNative: (id, prompt) => offers.push(`${prompt.kind} ${id}`),
    confirmCommand: async (command, reason) => {
      confirms.push(`${command} (${reason})`);
      return confirmAnswer;
    },
  };
  return {
    surface,
    offers,
    confirms,
    get state() {
      return state;
    },
    answerConfirm: (v: boolean) => (confirmAnswer = v),
  };
}

const REQUEST: PlanApprovalRequest = {
  // The engine's card, as `plan.approval.requested` carries it: the host renders it unchanged.
  card: {
    title: 'Retry uploads',
    summary: 'Retry on 503',
    steps: ['Add retry loop', 'Log attempts'],
    moreSteps: 3,
    validation: { valid: false, problems: ['line 9: step 2 has no verify'] },
    contextPercent: 57.5,
    revision: 2,
    proposedDuringExecution: true,
    previousRevision: '/ws/.vtcode/plans/p.history/001.md',
    changes: { added: 0, removed: 1, changed: 1, summary: '1 step removed, 1 changed' },
  },
  planFile: '/ws/.vtcode/plans/p.md',
};

const QUESTIONS: InterviewQuestion[] = [
  {
    id: 'scope',
    header: 'Scope',
    question: 'Which clients?',
    options: [
      { label: 'All', recommended: true },
      { label: 'New only', description: 'v2 clients' },
    ],
    allowNote: true,
  },
  { id: 'retries', header: 'Retries', question: 'How many?', options: [{ label: '3' }, { label: '5' }] },
];

const tick = () => new Promise((r) => setImmediate(r));

describe('approvals through the pending table', () => {
  it('shows the gate card (valid per the protocol) and returns the decision the panel sends', async () => {
    const pending = new PendingRequests(manualTimers());
    const ui = fakeSurface(true);
    const approver = new HostApprover({
      pending,
      surface: ui.surface,
      relativePath: (p) => p.replace('/ws/', ''),
    });
    const decision = approver.approvePlan(REQUEST);
    await tick();
    const gate = ui.state.gate;
    assert.ok(gate);
    assert.equal(GateSchema.safeParse(gate).success, true);
    assert.deepEqual(
      { ...gate, requestId: 'x' },
      {
        requestId: 'x',
        title: 'Retry uploads',
        summary: 'Retry on 503',
        steps: ['Add retry loop', 'Log attempts'],
        moreSteps: 3,
        validation: { valid: false, problems: ['line 9: step 2 has no verify'] },
        contextPercent: 57.5,
        proposedDuringExecution: true,
        revision: 2,
        changes: '1 step removed, 1 changed',
        hasPreviousRevision: true,
        planFile: '.vtcode/plans/p.md',
      },
    );
    assert.deepEqual(ui.offers, [], 'the panel is visible: no notification');
    assert.equal(pending.resolve(gate.requestId, 'approval', { decision: 'fresh_context' }), true);
    assert.deepEqual(await decision, { decision: 'fresh_context' });
    assert.equal(ui.state.gate, null);
  });

  it('offers the native flow when the panel is hidden, and never times out a plan decision', async () => {
    const timers = manualTimers();
    const pending = new PendingRequests(timers);
    const ui = fakeSurface(false);
    const approver = new HostApprover({
      pending,
      surface: ui.surface,
      relativePath: (p) => p,
    });
    void approver.approvePlan(REQUEST);
    await tick();
    assert.equal(ui.offers.length, 1);
    assert.match(ui.offers[0]!, /^approval approval-/);
    timers.fire(GRANT_TIMEOUT_MS);
    timers.fire(INTERVIEW_TIMEOUT_MS);
    assert.equal(pending.has('approval'), true);
  });

  it('clears the gate when the engine withdraws the request (decided elsewhere)', async () => {
    const pending = new PendingRequests(manualTimers());
    const ui = fakeSurface(true);
    const approver = new HostApprover({
      pending,
      surface: ui.surface,
      relativePath: (p) => p,
    });
    const controller = new AbortController();
    const decision = approver.approvePlan(REQUEST, controller.signal);
    await tick();
    assert.ok(ui.state.gate);
    controller.abort(new Error('decided by a typed intent'));
    await assert.rejects(decision, /typed intent/);
    assert.equal(ui.state.gate, null);
  });

  it('grants the default amount, or nothing when denied or left unanswered', async () => {
    const timers = manualTimers();
    const pending = new PendingRequests(timers);
    const ui = fakeSurface(true);
    const approver = new HostApprover({
      pending,
      surface: ui.surface,
      relativePath: (p) => p,
    });
    const granted = approver.grantMore('session_tool_calls', 400, 400);
    assert.deepEqual(
      { ...ui.state.grantMore, requestId: 'x' },
      { requestId: 'x', kind: 'session_tool_calls', used: 400, max: 400 },
    );
    pending.resolve(ui.state.grantMore!.requestId, 'grantMore', true);
    assert.equal(await granted, GRANT_AMOUNT);
    assert.equal(ui.state.grantMore, null);

    const denied = approver.grantMore('tool_loop', 40, 40);
    pending.resolve(ui.state.grantMore!.requestId, 'grantMore', false);
    assert.equal(await denied, 0);

    const ignored = approver.grantMore('tool_loop', 40, 40);
    timers.fire(GRANT_TIMEOUT_MS);
    assert.equal(await ignored, 0);
  });

  it('confirms build commands in a modal, and not at all once cancelled', async () => {
    const ui = fakeSurface(true);
    const approver = new HostApprover({
      pending: new PendingRequests(),
      surface: ui.surface,
      relativePath: (p) => p,
    });
    ui.answerConfirm(true);
    assert.equal(await approver.approveCommand('npm install left-pad', 'not on the allow-list'), true);
    const aborted = new AbortController();
    aborted.abort();
    assert.equal(await approver.approveCommand('rm -rf build', 'writes', aborted.signal), false);
    assert.deepEqual(ui.confirms, ['npm install left-pad (not on the allow-list)']);
  });

  it('asks to enter planning and treats silence as no', async () => {
    const timers = manualTimers();
    const pending = new PendingRequests(timers);
    const ui = fakeSurface(true);
    const approver = new HostApprover({
      pending,
      surface: ui.surface,
      relativePath: (p) => p,
    });
    const answer = approver.enterPlanning('the repository layout changed');
    assert.equal(ui.state.enterPlanning?.reason, 'the repository layout changed');
    timers.fire(GRANT_TIMEOUT_MS);
    assert.equal(await answer, false);
    assert.equal(ui.state.enterPlanning, null);
  });
});

describe('questions through the pending table', () => {
  it('puts the questions in the wizard (valid per the protocol) and returns the answers', async () => {
    const pending = new PendingRequests(manualTimers());
    const ui = fakeSurface(true);
    const outcome = new HostInterviewer(pending, ui.surface).ask(QUESTIONS);
    const iv = ui.state.interview;
    assert.ok(iv);
    assert.equal(InterviewSchema.safeParse(iv).success, true);
    assert.deepEqual(iv.questions[0]!.options, QUESTIONS[0]!.options);
    const answers = [{ questionId: 'scope', choice: 'All', note: 'incl. mobile' }];
    pending.resolve(iv.requestId, 'interview', { kind: 'answered', answers });
    assert.deepEqual(await outcome, { kind: 'answered', answers });
    assert.equal(ui.state.interview, null);
  });

  it('counts 30 minutes without an answer as Esc', async () => {
    const timers = manualTimers();
    const ui = fakeSurface(false);
    const outcome = new HostInterviewer(new PendingRequests(timers), ui.surface).ask(QUESTIONS);
    assert.equal(ui.offers.length, 1);
    timers.fire(INTERVIEW_TIMEOUT_MS);
    assert.deepEqual(await outcome, { kind: 'cancelled' });
  });

  it('checks that answers fit the questions asked', () => {
    assert.equal(
      checkAnswers(QUESTIONS, [
        { questionId: 'scope', choice: 'All' },
        { questionId: 'retries', choice: '5' },
      ]),
      undefined,
    );
    assert.match(checkAnswers(QUESTIONS, [{ questionId: 'nope', choice: 'All' }]) ?? '', /unknown question "nope"/);
    assert.match(
      checkAnswers(QUESTIONS, [{ questionId: 'scope', choice: 'Everything' }]) ?? '',
      /"Everything" is not an option of question "Scope"/,
    );
    assert.match(checkAnswers(QUESTIONS, [{ questionId: 'retries', choice: '3', note: 'x' }]) ?? '', /takes no note/);
    assert.match(
      checkAnswers(QUESTIONS, [
        { questionId: 'scope', choice: 'All' },
        { questionId: 'scope', choice: 'New only' },
      ]) ?? '',
      /two answers/,
    );
  });
});

describe('native prompt forms', () => {
  it("offers the gate's choices in the seed's words, recommending a fresh context from 50% context", () => {
    const low = approvalItems(20);
    assert.deepEqual(
      low.map((i) => i.value),
      ['execute', 'fresh_context', 'revise', 'cancel'],
    );
    assert.match(low[0]!.label, /Yes, implement this plan/);
    assert.match(low[1]!.label, /Yes, clear context and implement/);
    assert.match(low[2]!.label, /No, stay in Plan mode/);
    assert.equal(low[0]!.description, 'recommended');
    const high = approvalItems(62);
    assert.equal(high[0]!.description, '');
    assert.match(high[1]!.description ?? '', /recommended: the context is 62% full/);
  });

  it('turns questions into QuickPick items and collects answers in order', () => {
    assert.deepEqual(questionItems(QUESTIONS[0]!), [
      { label: '$(star-full) All', description: 'recommended', value: 'All' },
      { label: 'New only', detail: 'v2 clients', value: 'New only' },
    ]);
    assert.equal(questionTitle(QUESTIONS[1]!, 1, 2), 'Retries (2/2)');
    assert.equal(questionTitle(QUESTIONS[1]!, 0, 1), 'Retries');
    assert.deepEqual(
      collectAnswers(QUESTIONS, [
        { choice: 'All', note: ' mobile too ' },
        { choice: '3', note: 'ignored' },
      ]),
      {
        kind: 'answered',
        answers: [
          { questionId: 'scope', choice: 'All', note: 'mobile too' },
          { questionId: 'retries', choice: '3' },
        ],
      },
    );
    assert.deepEqual(
      collectAnswers(QUESTIONS, [{ choice: 'All' }]),
      { kind: 'cancelled' },
      'Esc on the second question',
    );
  });

  it('words the grant prompt with the limit reached', () => {
    assert.equal(
      grantMessage('session_tool_calls', 400, 400, 50),
      'Planwise used all 400 tool calls for this session (400/400). Grant 50 more?',
    );
  });
});
