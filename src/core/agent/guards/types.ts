import type { ShapeSegment } from '../../gate';
/** The vocabulary shared by the runloop and the turn guards. */

export type OutcomeKind = 'read' | 'list' | 'search' | 'shell' | 'write' | 'interview' | 'tracker' | 'spool' | 'other';

/**
 * What a call did for the turn's progress:
 * - navigation: reading, listing, searching, shell inspection (rg, find, cat, sed -n …);
 * - verification: compile, test, build, lint, type-check commands;
 * - mutation: a write or an edit;
 * - recovery: an action taken to recover from an error;
 * - bookkeeping: tracker updates, interview questions, plan-draft re-reads.
 */
export type OutcomeCategory = 'navigation' | 'verification' | 'mutation' | 'recovery' | 'bookkeeping';

/** A call the model asked for, as the runloop hands it to `TurnGuards.beforeCall`. */
export interface GuardCall {
  readonly tool: string;
  readonly kind: OutcomeKind;
  readonly args: Record<string, unknown>;
  /** A shell command's segments from the gate's one scan, when the dispatcher judged it. */
  readonly shell?: readonly ShapeSegment[];
  /** When known (the gate classifies shell commands); otherwise derived from kind and command. */
  readonly category?: OutcomeCategory;
}

/** What the runloop reports after each tool call it ran (or the gate blocked). */
export interface ToolOutcome {
  readonly tool: string;
  readonly kind: OutcomeKind;
  readonly args: Record<string, unknown>;
  /** As in `GuardCall`. */
  readonly shell?: readonly ShapeSegment[];
  /** The gate or a policy refused the call; nothing ran. */
  readonly blocked: boolean;
  readonly ok: boolean;
  /** An empty result, a search miss, a "not found"/"no such file" failure. */
  readonly lowSignal: boolean;
  /** A hash of the result body; equal hashes mean the result only repeats an earlier one. '' = none. */
  readonly resultHash: string;
  /** Full size of the result in bytes. */
  readonly bytes: number;
  readonly category: OutcomeCategory;
}

export type GrantKind = 'session_tool_calls' | 'tool_loop';

/** Budgets whose exhaustion stops the turn; these are the `budget_exhausted` event's names. */
export type StopBudget = 'tool_calls' | 'tool_loop' | 'session_calls' | 'blocked_calls' | 'tokens';

export type GuardAction =
  | { readonly type: 'continue' }
  /** Schedule ONE tool-free synthesis pass from the evidence already gathered. */
  | { readonly type: 'synthesis'; readonly reason: string; readonly guard: string }
  /**
   * No more tool calls this turn; emit `budget_exhausted {budget, used, max}`. `synthesis` is true
   * when this stop claimed the turn's synthesis slot: the runloop then runs its one tool-free pass
   * (the plan synthesis while planning, a closing summary otherwise); false when a pass was
   * already announced this turn.
   */
  | {
      readonly type: 'stop_turn';
      readonly reason: string;
      readonly budget: StopBudget;
      readonly used: number;
      readonly max: number;
      readonly synthesis: boolean;
    }
  /** Ask the person (the Approver port) for more; then call `grant` or `deny`. */
  | { readonly type: 'ask_grant'; readonly kind: GrantKind; readonly used: number; readonly max: number };

export type StopAction = Extract<GuardAction, { type: 'stop_turn' }>;
export type AskAction = Extract<GuardAction, { type: 'ask_grant' }>;

export type Admission =
  | { readonly admit: true }
  /**
   * Not run. Without `action`, `stub` is the tool result to give the model (the call counted).
   * With `action` (ask_grant or stop_turn) the call is pending: handle the action first; it did not count.
   */
  | { readonly admit: false; readonly stub: string; readonly reason: string; readonly action?: AskAction | StopAction };

/** A navigation guard's verdict that a synthesis pass is due. */
export interface Trip {
  readonly guard: string;
  readonly reason: string;
}

export const CONTINUE: GuardAction = Object.freeze({ type: 'continue' });
