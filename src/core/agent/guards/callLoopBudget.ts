/**
 * Tool-call and loop budgets (rules §7, seed "Research Scope" and "Budget Exhaustion").
 *
 * - Per turn: tool calls (planning floor 120) and loop iterations, i.e. model round trips that
 *   offer tools (planning floor 60). The floors come from `effectiveBudgets`.
 * - Per session: tool calls. Reaching the session limit asks the person for more; a grant raises
 *   the session limit for the rest of the session (it persists into the next turn), a denial
 *   stops the turn. The loop limit asks the same way; a loop grant lasts for the current turn.
 * - The per-turn tool-call budget fails closed without asking.
 *
 * Checks happen before the call or iteration they would admit, so the pending call is retried
 * after a grant. A limit of 0 is unlimited.
 */
import type { BudgetConfig } from '../budgets';
import type { GrantKind } from './types';

export interface BudgetStop {
  readonly budget: 'tool_calls' | 'tool_loop' | 'session_calls';
  readonly used: number;
  readonly max: number;
  readonly reason: string;
}

export interface BudgetAsk {
  readonly kind: GrantKind;
  readonly used: number;
  readonly max: number;
}

export class CallLoopBudget {
  private turnCalls = 0;
  private loops = 0;
  private sessionCalls = 0;
  private sessionMax: number;
  private loopMax: number;
  private loopGranted = 0;

  constructor(private cfg: BudgetConfig) {
    this.sessionMax = cfg.sessionToolCalls;
    this.loopMax = cfg.loopsPerTurn;
  }

  get toolCalls(): { readonly used: number; readonly max: number } {
    return { used: this.turnCalls, max: this.cfg.toolCallsPerTurn };
  }

  get loopIterations(): { readonly used: number; readonly max: number } {
    return { used: this.loops, max: this.loopMax };
  }

  get session(): { readonly used: number; readonly max: number } {
    return { used: this.sessionCalls, max: this.sessionMax };
  }

  /** What stands in the way of one more tool call, if anything. The per-turn budget wins. */
  checkCall(): BudgetStop | BudgetAsk | undefined {
    const turnMax = this.cfg.toolCallsPerTurn;
    if (turnMax > 0 && this.turnCalls >= turnMax) {
      return {
        budget: 'tool_calls',
        used: this.turnCalls,
        max: turnMax,
        reason: `This turn used all ${turnMax} of its tool calls; no more tools run this turn.`,
      };
    }
    if (this.sessionMax > 0 && this.sessionCalls >= this.sessionMax) {
      return { kind: 'session_tool_calls', used: this.sessionCalls, max: this.sessionMax };
    }
    return undefined;
  }

  countCall(): void {
    this.turnCalls++;
    this.sessionCalls++;
  }

  /** What stands in the way of one more loop iteration, if anything. */
  checkLoop(): BudgetAsk | undefined {
    if (this.loopMax > 0 && this.loops >= this.loopMax)
      return { kind: 'tool_loop', used: this.loops, max: this.loopMax };
    return undefined;
  }

  countLoop(): void {
    this.loops++;
  }

  /** Applies a grant of `extra` more; returns the new maximum. */
  grant(kind: GrantKind, extra: number): number {
    if (!Number.isInteger(extra) || extra <= 0) {
      throw new RangeError(`A grant of more ${kind} must be a whole number above 0; got ${String(extra)}.`);
    }
    if (kind === 'session_tool_calls') {
      if (this.sessionMax > 0) this.sessionMax += extra;
      return this.sessionMax;
    }
    if (this.loopMax > 0) {
      this.loopMax += extra;
      this.loopGranted += extra;
    }
    return this.loopMax;
  }

  /** Loop iterations the person granted by hand this turn. */
  get loopsGranted(): number {
    return this.loopGranted;
  }

  /** The stop a denial of `kind` leads to. */
  denial(kind: GrantKind): BudgetStop {
    if (kind === 'session_tool_calls') {
      return {
        budget: 'session_calls',
        used: this.sessionCalls,
        max: this.sessionMax,
        reason: `The session's ${this.sessionMax} tool calls are used up and no more were granted.`,
      };
    }
    return {
      budget: 'tool_loop',
      used: this.loops,
      max: this.loopMax,
      reason: `This turn used all ${this.loopMax} of its tool loop iterations and no more were granted.`,
    };
  }

  /**
   * A new turn under `cfg` (the mode's effective budgets): per-turn counts and loop grants start
   * again; `loopsPerTurn` overrides this turn's loop limit (the approved-plan allowance).
   */
  newTurn(cfg: BudgetConfig, loopsPerTurn?: number): void {
    this.cfg = cfg;
    this.turnCalls = 0;
    this.loops = 0;
    this.loopGranted = 0;
    this.loopMax = loopsPerTurn ?? this.cfg.loopsPerTurn;
  }

  /** A fresh context: the session's used count starts again; a granted session limit is kept. */
  resetSessionCount(): void {
    this.sessionCalls = 0;
  }

  /**
   * A resumed session's calls so far and its limit, with what the person granted; a limit now
   * set higher, or unlimited (0), wins.
   */
  restoreSession(used: number, max: number): void {
    this.sessionCalls = used;
    if (this.sessionMax > 0 && max > this.sessionMax) this.sessionMax = max;
  }
}
