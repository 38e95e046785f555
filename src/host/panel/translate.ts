/**
 * The one place where engine events become panel deltas. Pure: it keeps only what it needs to
 * pick between adding and patching (which item ids the panel has, the plan item a turn streams
 * into, the lifecycle and handoff so far) and never touches VS Code.
 */
import type { ItemPayload, ThreadEvent } from '../../core/api/sessions';
import type { DeltaOp, Lifecycle, NoticeAction } from '../../protocol';
import { toBudget, toTrackerNode } from './translateParts';
import { toReportItem } from './reportItem';
import { toInstructionsItem } from './instructionsItem';
import {
  budgetReachedText,
  compactedText,
  decisionText,
  freshContextText,
  interviewLines,
  noticeId,
} from './eventText';
import { RetryNotice } from './retryNotice';
import { RunStatus } from './runStatus';
import { patchOf, resultOnCallRow, rowOf, type Kind } from './itemShape';

export { summariseArgs, toBudget, toTrackerNode } from './translateParts';
export { compactedText, noticeId, retryText } from './eventText';

export interface TranslateContext {
  /** Workspace-relative form of an absolute path (unchanged when outside every root). */
  relativePath(path: string): string;
  /** The provider in use takes an API key (an endpoint does; VS Code's models do not). Default: yes. */
  takesKey?(): boolean;
}

const KIND_OF: Record<ItemPayload['kind'], Kind | undefined> = {
  user_message: 'user',
  assistant_text: 'assistant',
  reasoning: 'thinking',
  tool_call: 'tool_call',
  tool_result: 'tool_result',
  plan: 'plan',
  notice: 'notice',
  interview: undefined,
};

export class EventTranslator {
  /** Panel item id → kind, for every item the panel has. */
  private readonly known = new Map<string, Kind>();
  /** Engine item id → panel item id (a plan the panel started from `plan.delta`). */
  private readonly alias = new Map<string, string>();
  /** turn id → id of the plan item streaming in that turn. */
  private readonly planOfTurn = new Map<string, string>();
  /** The lifecycle and the handoff's steps, as the panel shows them. */
  private readonly run = new RunStatus();
  /** The notice of a request's retries while they last. */
  private readonly retry = new RetryNotice();
  private planCount = 0;
  /** The notice of the last gate decision (kept in a fresh thread, above the plan's handover). */
  private decisionNotice: string | undefined;
  /** Texts the host already showed as user items, waiting for the engine's own copy. */
  private readonly echoes: { id: string; text: string }[] = [];

  constructor(private readonly ctx: TranslateContext) {}

  get currentLifecycle(): Lifecycle {
    return this.run.current;
  }

  /** Forget everything (a new session starts with an empty panel). */
  reset(lifecycle: Lifecycle = { state: 'idle', mode: 'plan', busy: false }): void {
    this.known.clear();
    this.alias.clear();
    this.planOfTurn.clear();
    this.run.reset(lifecycle);
    this.retry.reset();
    this.decisionNotice = undefined;
    this.echoes.length = 0;
  }

  /**
   * "Clear context and implement": the panel shows a fresh thread, as the model has one. It keeps
   * the approved plan (the newest plan item) and the decision; the earlier conversation stays in
   * the session's archive.
   */
  private freshThread(): DeltaOp[] {
    const plan = [...this.known].filter(([, kind]) => kind === 'plan').at(-1)?.[0];
    const keep = [plan, this.decisionNotice].filter((id): id is string => id !== undefined && this.known.has(id));
    for (const id of [...this.known.keys()]) if (!keep.includes(id)) this.known.delete(id);
    for (const [engineId, panelId] of [...this.alias]) if (!keep.includes(panelId)) this.alias.delete(engineId);
    this.echoes.length = 0;
    return [{ op: 'transcript.restart', keep }];
  }

  /**
   * The lifecycle as the host knows it now (after a resume, nothing is running). Retries that
   * were under way when the run ended (an archive cut off mid-wait) are over.
   */
  syncLifecycle(lifecycle: Lifecycle): DeltaOp[] {
    const settled = lifecycle.busy ? [] : this.retry.settle('interrupted');
    return [...settled, ...this.run.sync(lifecycle)];
  }

  /**
   * The host shows the person's text at once; when the engine later reports the same text as a
   * user message, that item is folded into this one instead of appearing twice.
   */
  echoUser(id: string, text: string): DeltaOp[] {
    this.expectUser(id, text);
    return [{ op: 'item.add', item: { id, kind: 'user', text } }];
  }

  /** The panel's row `id` already shows `text`: the engine's next user message with that text folds into it. */
  expectUser(id: string, text: string): void {
    this.known.set(id, 'user');
    this.echoes.push({ id, text: text.trim() });
    if (this.echoes.length > 20) this.echoes.shift();
  }

  /** The id of the notice of the retries under way, which the countdown patches. */
  get retryNotice(): string | undefined {
    return this.retry.id;
  }

  translate(event: ThreadEvent): DeltaOp[] {
    // Whatever follows a request's retries ends them: the next output (it went through), the
    // error (it failed for good) or the person's Stop.
    const end = this.retry.id !== undefined ? RetryNotice.endOf(event) : undefined;
    const settled = end ? this.retry.settle(end) : [];
    const ops = this.translateEvent(event);
    return settled.length > 0 ? [...settled, ...ops] : ops;
  }

  private translateEvent(event: ThreadEvent): DeltaOp[] {
    switch (event.type) {
      case 'thread.started':
        return this.run.set({ mode: event.mode, busy: true });
      case 'turn.started':
        return [...this.run.endHandoff(), ...this.run.set({ busy: true })];
      case 'turn.completed':
      case 'thread.completed':
        return this.run.set({ busy: false });
      case 'state.changed':
        return this.run.set({ state: event.state, mode: event.mode });
      case 'item.started':
      case 'item.updated':
        return this.item(event.item, event.turn_id, false, event.seq);
      case 'item.completed':
        return this.item(event.item, event.turn_id, true, event.seq);
      case 'plan.delta':
        return this.planDelta(event.turn_id, event.delta);
      case 'plan.approval.requested':
        return [];
      case 'plan.approval.resolved': {
        if (event.decision === 'fresh_context' || event.decision === 'execute') this.run.startHandoff();
        this.decisionNotice = noticeId(event.seq);
        return [{ op: 'gate.set', gate: null }, this.notice(event.seq, 'info', decisionText(event))];
      }
      case 'context.reset':
        return [...this.freshThread(), this.notice(event.seq, 'info', freshContextText(event))];
      case 'session_tool_limit_increased':
        return [
          { op: 'grantMore.set', prompt: null },
          this.notice(
            event.seq,
            'info',
            `Granted ${event.granted} more tool calls this session (limit now ${event.max}).`,
          ),
        ];
      case 'tool_loop_limit_increased':
        return [
          { op: 'grantMore.set', prompt: null },
          this.notice(event.seq, 'info', `Granted ${event.granted} more model round trips (limit now ${event.max}).`),
        ];
      case 'budget_exhausted':
        return [this.notice(event.seq, 'warning', budgetReachedText(event))];
      case 'budget.updated':
        return [{ op: 'budget.set', budget: toBudget(event.budget) }];
      case 'tracker.updated':
        return [
          {
            op: 'tracker.set',
            tracker: {
              title: event.title,
              ...(event.plan_file ? { planFile: this.ctx.relativePath(event.plan_file) } : {}),
              items: event.items.map(toTrackerNode),
              counts: { ...event.counts },
              percent: event.percent,
            },
          },
        ];
      case 'verify.recorded':
        return []; // shown through the tracker.updated that follows it

      case 'progress':
        return this.run.progress(event.message);
      case 'model.retrying':
        // One request's retries are one notice, updated in place.
        return this.retry.announce(event, (id) => this.known.set(id, 'notice'));
      case 'context.compacted':
        return [this.notice(event.seq, 'info', compactedText(event))];
      case 'plan.execution.completed': {
        // The build's final card, from the engine's closing audit.
        const item = toReportItem(event, (p) => this.ctx.relativePath(p));
        if (!item) {
          const text = `Build ${event.outcome}${event.complete ? '' : ' (incomplete)'}. ${event.report.summary} Report: ${this.ctx.relativePath(event.report_file)}`;
          return [this.notice(event.seq, event.complete ? 'info' : 'warning', text)];
        }
        this.known.set(item.id, 'build_report');
        return [{ op: 'item.add', item }];
      }
      case 'review.thread.created':
      case 'review.thread.replied':
      case 'review.thread.outdated':
      case 'review.thread.reanchored':
      case 'review.thread.resolved':
      case 'review.thread.reopened':
      case 'review.requested':
        return []; // shown as comment threads on the plan file (src/host/review)
      case 'instructions.loaded':
      case 'instructions.added': {
        const item = toInstructionsItem(event);
        this.known.set(item.id, 'instructions');
        return [{ op: 'item.add', item }];
      }
      case 'run.stopped': {
        // The person's Stop: a neutral line with nothing to fix, and nothing is busy.
        const id = noticeId(event.seq);
        this.known.set(id, 'notice');
        const text = event.what === 'build' ? 'Build stopped.' : 'Stopped.';
        return [
          ...this.endPlanStreams(),
          { op: 'item.add', item: { id, kind: 'notice', level: 'info', text } },
          ...this.run.set({ busy: false }),
        ];
      }
      case 'model.waiting':
        return this.run.set({ waitingSince: event.waiting ? event.at - event.silent_ms : undefined });
      case 'error': {
        // The run that failed has ended: one notice, inline, with what the person can do next.
        const id = noticeId(event.seq);
        this.known.set(id, 'notice');
        // A refused or missing key: the card offers to set it first.
        const key = event.kind === 'auth' && this.ctx.takesKey?.() !== false;
        const actions: NoticeAction[] = key ? ['setApiKey', 'retry', 'changeProvider'] : ['retry', 'changeProvider'];
        const item = { id, kind: 'notice', level: 'error', text: event.message, actions };
        return [...this.endPlanStreams(), { op: 'item.add', item } as DeltaOp, ...this.run.set({ busy: false })];
      }
    }
  }

  private notice(seq: number, level: 'info' | 'warning' | 'error', text: string): DeltaOp {
    const id = noticeId(seq);
    this.known.set(id, 'notice');
    return { op: 'item.add', item: { id, kind: 'notice', level, text } };
  }

  private planDelta(turnId: string, delta: string): DeltaOp[] {
    let id = this.planOfTurn.get(turnId);
    const ops: DeltaOp[] = [];
    if (id === undefined) {
      id = `plan-${turnId}-${++this.planCount}`;
      this.planOfTurn.set(turnId, id);
      this.known.set(id, 'plan');
      ops.push({
        op: 'item.add',
        item: { id, kind: 'plan', markdown: '', file: '', revision: 0, valid: false, streaming: true },
      });
    }
    if (delta !== '') ops.push({ op: 'item.append', id, text: delta });
    return ops;
  }

  private item(item: ItemPayload, turnId: string, completed: boolean, seq: number): DeltaOp[] {
    if (item.kind === 'interview') return completed ? this.interviewRecord(item, seq) : [];
    const kind = KIND_OF[item.kind];
    if (kind === undefined) return [];
    if (kind === 'user' && !this.alias.has(item.id) && !this.known.has(item.id)) {
      const text = (item.text ?? item.delta ?? '').trim();
      const echo = this.echoes.findIndex((e) => e.text === text);
      if (echo >= 0) {
        this.alias.set(item.id, this.echoes[echo]!.id);
        this.echoes.splice(echo, 1);
        return [];
      }
    }
    let id = this.alias.get(item.id) ?? item.id;
    if (kind === 'plan' && !this.known.has(id)) {
      const streamed = this.planOfTurn.get(turnId);
      if (streamed !== undefined && this.known.get(streamed) === 'plan') {
        this.alias.set(item.id, streamed);
        id = streamed;
      }
    }
    // One row per tool call: the result lands on its call's row when the panel has that row.
    if (kind === 'tool_result' && item.result && !this.known.has(id)) {
      const callRow = this.alias.get(`call-${item.result.callId}`) ?? `call-${item.result.callId}`;
      if (this.known.get(callRow) === 'tool_call') {
        this.alias.set(item.id, callRow);
        return [{ op: 'item.patch', id: callRow, patch: resultOnCallRow(item.result) }];
      }
    }
    if (!this.known.has(id)) {
      this.known.set(id, kind);
      if (kind === 'plan' && completed) this.forgetTurnPlan(id);
      return [{ op: 'item.add', item: rowOf(id, kind, item, !completed, (p) => this.ctx.relativePath(p)) }];
    }
    const ops: DeltaOp[] = [];
    if (item.delta !== undefined && item.delta !== '') ops.push({ op: 'item.append', id, text: item.delta });
    const patch = patchOf(kind, item, completed, (p) => this.ctx.relativePath(p));
    if (Object.keys(patch).length > 0) ops.push({ op: 'item.patch', id, patch });
    if (completed && kind === 'plan') this.forgetTurnPlan(id);
    return ops;
  }

  /** A run that ended (stopped, failed) leaves no plan streaming: what came is shown as it stands. */
  private endPlanStreams(): DeltaOp[] {
    const ops: DeltaOp[] = [...this.planOfTurn.values()].map((id) => ({
      op: 'item.patch' as const,
      id,
      patch: { streaming: false },
    }));
    this.planOfTurn.clear();
    return ops;
  }

  private forgetTurnPlan(id: string): void {
    for (const [turn, planId] of this.planOfTurn) if (planId === id) this.planOfTurn.delete(turn);
  }

  private interviewRecord(item: ItemPayload, seq: number): DeltaOp[] {
    const iv = item.interview;
    if (!iv) return [];
    if (iv.outcome === 'cancelled')
      return [this.notice(seq, 'info', 'The questions were dismissed without an answer.')];
    if (iv.outcome === 'denied') return [this.notice(seq, 'warning', 'Questions are not available in this session.')];
    const lines = interviewLines(iv);
    return [this.notice(seq, 'info', lines.join('\n'))];
  }
}
