/**
 * A session's state, as small objects that own their changes: the thread, the plan, the budget
 * (usage and context share) and the verify follow-up. Flows (the planning turn, the handoff, the
 * build run) never assign these fields: they return `SessionEffect`s, and `applySessionEffect` is
 * the one place that changes the state, one effect at a time.
 */
import type { ChatMessage, Usage } from '../agent/model';
import type { BuildGuard } from '../build/guard';
import type { LifecycleEvent } from '../lifecycle/approvalMachine';
import type { TrackerHandle } from '../tools/session/context';

/** The conversation the model sees. */
export class ThreadState {
  private list: ChatMessage[] = [];

  /**
   * The live message list a turn appends its own assistant and tool messages to (`runTurn`'s
   * contract). Everything else changes through the methods below.
   */
  get messages(): ChatMessage[] {
    return this.list;
  }

  get length(): number {
    return this.list.length;
  }

  say(content: string): void {
    this.list.push({ role: 'user', content });
  }

  /** A fresh-context handoff: the build thread starts empty. */
  clear(): void {
    this.list = [];
  }

  restore(messages: readonly ChatMessage[]): void {
    this.list = [...messages];
  }

  lastAssistantText(): string {
    const last = [...this.list].reverse().find((m) => m.role === 'assistant');
    return last?.content ?? '';
  }
}

/** The persisted plan the session works on, and its live tracker. */
export class PlanState {
  private current: { stem: string; file: string } | undefined;
  private handle: TrackerHandle | undefined;

  get stem(): string | undefined {
    return this.current?.stem;
  }

  get file(): string | undefined {
    return this.current?.file;
  }

  get tracker(): TrackerHandle | undefined {
    return this.handle;
  }

  adopt(stem: string, file: string): void {
    this.current = { stem, file };
  }

  openTracker(handle: TrackerHandle): void {
    this.handle = handle;
  }
}

/** Token usage: what the last request held (the context share) and the session's total. */
export class BudgetState {
  private lastPrompt = 0;
  private sum = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

  get lastPromptTokens(): number {
    return this.lastPrompt;
  }

  get total(): Usage {
    return this.sum;
  }

  /**
   * A reported usage, or (some providers report none) the context keeper's estimate of the
   * request's prompt tokens: the same calibrated count that decides compaction, so the context
   * share does not jump between two measures.
   */
  record(usage: Usage | undefined, estimatedPromptTokens: number): void {
    if (!usage) {
      this.lastPrompt = Math.round(estimatedPromptTokens);
      return;
    }
    this.lastPrompt = usage.promptTokens;
    this.sum = {
      promptTokens: this.sum.promptTokens + usage.promptTokens,
      completionTokens: this.sum.completionTokens + usage.completionTokens,
      totalTokens: this.sum.totalTokens + usage.totalTokens,
    };
  }

  /** The share of `window` the last request used, 0–100. */
  contextPercent(window: number): number {
    return Math.min(100, Math.round((this.lastPrompt / window) * 100));
  }

  /** A fresh context holds nothing yet. */
  forgetContext(): void {
    this.lastPrompt = 0;
  }

  restore(lastPromptTokens: number): void {
    this.lastPrompt = lastPromptTokens;
  }
}

/** Changes a flow asks for; the session applies them (`applySessionEffect`). */
export type SessionEffect =
  | { readonly type: 'plan_adopted'; readonly stem: string; readonly file: string }
  | { readonly type: 'tracker_opened'; readonly handle: TrackerHandle }
  | { readonly type: 'thread_cleared' }
  | { readonly type: 'user_said'; readonly text: string }
  | { readonly type: 'planning_requested'; readonly reason: string }
  | { readonly type: 'planning_request_taken' }
  /** A build run opened its guard (scope, reads, checkpoints); build tools read it until it closes. */
  | { readonly type: 'build_opened'; readonly guard: BuildGuard }
  | { readonly type: 'build_closed' };

/**
 * What a long flow (the build run) yields while it runs: a state change, or an event for the
 * lifecycle machine. The session applies each before the flow resumes, so the flow reads the
 * state it asked for; the flow itself writes nothing.
 */
export type FlowStep =
  SessionEffect | { readonly type: 'lifecycle'; readonly event: LifecycleEvent; readonly turnId?: string };

export interface SessionStateParts {
  readonly thread: ThreadState;
  readonly plan: PlanState;
  readonly budget: BudgetState;
  /** Set when the person accepted an execution agent's proposal to return to planning. */
  planningRequested: string | undefined;
  /** The running build's guard, between `build_opened` and `build_closed`. */
  build: BuildGuard | undefined;
}

/** The one writer of a session's state. */
export function applySessionEffect(state: SessionStateParts, e: SessionEffect): void {
  switch (e.type) {
    case 'plan_adopted':
      state.plan.adopt(e.stem, e.file);
      break;
    case 'tracker_opened':
      state.plan.openTracker(e.handle);
      break;
    case 'thread_cleared':
      state.thread.clear();
      state.budget.forgetContext();
      break;
    case 'user_said':
      state.thread.say(e.text);
      break;
    case 'planning_requested':
      state.planningRequested = e.reason;
      break;
    case 'planning_request_taken':
      state.planningRequested = undefined;
      break;
    case 'build_opened':
      state.build = e.guard;
      break;
    case 'build_closed':
      state.build = undefined;
      break;
  }
}
