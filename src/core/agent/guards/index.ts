/**
 * `TurnGuards`: every budget and guard of rules §7 behind one object the runloop drives.
 *
 * Per loop iteration (one model request that offers tools):
 *
 *     onLoop()                       → continue | ask_grant(tool_loop) | stop_turn
 *
 * Per tool call the model asks for:
 *
 *     beforeCall(call)               → admit | stub (answer the model with it; the call counted)
 *                                      | pending on an action (ask_grant, stop_turn; did not count)
 *     resultLimit()                  → the per-result preview limit to run the tool with
 *     previewFor(bytes, explicitMax) → bytes of the result to show (charged; 0 = metadataStub)
 *     afterCall(outcome)             → continue | synthesis | stop_turn
 *
 * After an `ask_grant`, ask the Approver; then `grant(kind, extra)` (emit the event it names and
 * retry the pending call or iteration) or `deny(kind)` (a stop_turn). Every stop_turn is a
 * `budget_exhausted {budget, used, max}` event. The turn has ONE synthesis slot: the first guard
 * that trips takes it and is announced; later trips, other guards and stops never re-announce.
 * `claimSynthesis` lets the runloop take the slot for its own tool-free passes.
 *
 * Which guards watch which mode: low-signal navigation and repeated requests while planning;
 * diverse churn in build and recovery; same-target listings in every mode (5 planning, 3 else);
 * the preview budget schedules the synthesis pass while planning only.
 */
import type { BudgetSnapshot } from '../../events/types';
import type { BudgetConfig, BudgetOverrides, Mode } from '../budgets';
import { effectiveBudgets, mergeBudgets, sameTargetThreshold } from '../budgets';
import { FamilyTally, churnFamily } from '../churnFamily';
import { BlockedFuse } from './blockedFuse';
import type { BudgetStop } from './callLoopBudget';
import { CallLoopBudget } from './callLoopBudget';
import { categoryOf } from './commandShape';
import { DiverseChurnGuard } from './diverseChurn';
import { LowSignalGuard } from './lowSignal';
import { PreviewBudget, formatKiB } from './previewBudget';
import { RepeatedRequestGuard, requestKey } from './repeatedRequest';
import { SameTargetListingGuard, listingTargets } from './sameTargetListing';
import type { Admission, GrantKind, GuardAction, GuardCall, StopAction, StopBudget, ToolOutcome, Trip } from './types';
import { CONTINUE } from './types';

export * from './types';
export { metadataStub } from './previewBudget';
export { blockedFuse } from './blockedFuse';
export { requestKey } from './repeatedRequest';
export { listingTargets } from './sameTargetListing';

export interface GuardOptions {
  /** The workspace root, so absolute paths group with relative ones (`/ws/src` ≡ `src`). */
  readonly workspaceRoot?: string;
}

export interface TurnOptions {
  /** The mode of the new turn (default: unchanged). */
  readonly mode?: Mode;
  /** This turn's loop limit instead of the configured one (the approved-plan allowance). */
  readonly loopsPerTurn?: number;
  /** A fresh-context handoff: the session's used tool calls start again (a granted limit stays). */
  readonly freshContext?: boolean;
}

export interface GrantResult {
  readonly event: 'session_tool_limit_increased' | 'tool_loop_limit_increased';
  readonly granted: number;
  readonly max: number;
}

/** A session's spend that outlives a reload. */
export interface SessionSpend {
  readonly sessionCalls: { readonly used: number; readonly max: number };
  readonly tokens: { readonly input: number; readonly output: number };
}

export interface GuardStats {
  readonly mode: Mode;
  readonly toolCalls: { readonly used: number; readonly max: number };
  readonly loops: { readonly used: number; readonly max: number };
  readonly sessionCalls: { readonly used: number; readonly max: number };
  readonly previewBytes: { readonly used: number; readonly max: number; readonly exhausted: boolean };
  readonly spoolCredit: { readonly bytes: number; readonly reads: number };
  readonly blockedCalls: {
    readonly consecutive: number;
    readonly total: number;
    readonly cap: number;
    readonly fuse: number;
  };
  readonly lowSignal: { readonly consecutive: number; readonly total: number };
  readonly repeatedRequest: { readonly run: number; readonly repeats: number };
  readonly sameTargetListing: { readonly highest: number };
  readonly diverseChurn: { readonly window: number };
  readonly tokens: { readonly input: number; readonly output: number; readonly cap: number };
  /** The guard or budget holding this turn's synthesis slot. */
  readonly synthesis?: string;
  /** The budget that stopped this turn. */
  readonly stopped?: StopBudget;
}

export class TurnGuards {
  private readonly base: BudgetConfig;
  private cfg: BudgetConfig;
  private currentMode: Mode;
  private readonly root: string | undefined;
  private readonly budget: CallLoopBudget;
  private readonly blocked: BlockedFuse;
  private preview!: PreviewBudget;
  private lowSignal!: LowSignalGuard;
  private repeated!: RepeatedRequestGuard;
  private sameTarget!: SameTargetListingGuard;
  private churn!: DiverseChurnGuard;
  private readonly seenResults = new Set<string>();
  private readonly turnFamilies = new FamilyTally();
  private synthesisBy: string | undefined;
  private stopped: StopAction | undefined;
  private lastCall: (GuardCall & { category: NonNullable<GuardCall['category']> }) | undefined;
  private tokensIn = 0;
  private tokensOut = 0;

  /** `cfg` is the configured budgets (defaults fill gaps); the mode's floors are applied here. */
  constructor(cfg: BudgetOverrides, mode: Mode, options: GuardOptions = {}) {
    this.base = mergeBudgets(cfg);
    this.currentMode = mode;
    this.cfg = effectiveBudgets(this.base, mode);
    this.root = options.workspaceRoot;
    this.budget = new CallLoopBudget(this.cfg);
    this.blocked = new BlockedFuse(this.cfg.blockedCap, mode);
    this.resetTurnGuards();
  }

  get mode(): Mode {
    return this.currentMode;
  }

  /** What the session has spent: its tool calls (and their limit) and its tokens. */
  get spent(): SessionSpend {
    return { sessionCalls: this.budget.session, tokens: { input: this.tokensIn, output: this.tokensOut } };
  }

  /** A resumed session goes on from what it had spent, so a reload resets no limit. */
  restoreSpent(s: SessionSpend): void {
    this.budget.restoreSession(s.sessionCalls.used, s.sessionCalls.max);
    this.tokensIn = s.tokens.input;
    this.tokensOut = s.tokens.output;
  }

  /** The budgets in force for the current mode. */
  get config(): Readonly<BudgetConfig> {
    return this.cfg;
  }

  /** Admission of one call, before the gate runs it. */
  beforeCall(call: GuardCall): Admission {
    if (this.stopped !== undefined) {
      return {
        admit: false,
        stub: this.stopStub(call.tool, this.stopped),
        reason: this.stopped.budget,
        action: this.stopped,
      };
    }
    const block = this.budget.checkCall();
    if (block !== undefined && 'kind' in block) {
      return {
        admit: false,
        reason: block.kind,
        stub: `${call.tool} was not run: the session's ${block.max} tool calls are used up and more were not granted.`,
        action: { type: 'ask_grant', kind: block.kind, used: block.used, max: block.max },
      };
    }
    if (block !== undefined) {
      const stop = this.stop(block);
      return { admit: false, stub: this.stopStub(call.tool, stop), reason: block.budget, action: stop };
    }
    const category = categoryOf(call);
    const admission = this.preview.admit(call, category);
    this.budget.countCall();
    if (!admission.ok) return { admit: false, stub: admission.stub, reason: admission.reason };
    this.lastCall = { ...call, category };
    return { admit: true };
  }

  /** The per-result preview limit to run a call with (not charged). Defaults to the last admitted call. */
  resultLimit(call?: GuardCall, explicitMax?: number): number {
    const c = this.callFor(call, 'resultLimit');
    return this.preview.limitFor(c, c.category, explicitMax);
  }

  /**
   * Charges the preview of a result of `bytes` and returns how many bytes the model may see:
   * 0 means give it `metadataStub(...)` instead. `explicitMax` is the caller's own maximum in
   * bytes (from max_output_tokens); `call` defaults to the last call admitted by `beforeCall`.
   */
  previewFor(bytes: number, explicitMax?: number, call?: GuardCall): number {
    const c = this.callFor(call, 'previewFor');
    return this.preview.charge(bytes, c, c.category, explicitMax);
  }

  /** Records what a call did and says what the runloop does next. */
  afterCall(outcome: ToolOutcome): GuardAction {
    if (this.stopped !== undefined) return this.stopped;
    const family = churnFamily(outcome, this.root);
    const blockedTrip = this.blocked.record(outcome.blocked);
    if (blockedTrip !== undefined) return this.stop(blockedTrip);
    if (outcome.blocked) return CONTINUE;
    const repeatsEarlier = outcome.resultHash !== '' && this.seenResults.has(outcome.resultHash);
    if (outcome.resultHash !== '') this.seenResults.add(outcome.resultHash);
    const low = outcome.lowSignal || repeatsEarlier;
    const { category } = outcome;
    if (category === 'navigation') this.turnFamilies.add(family);

    const planning = this.currentMode === 'plan';
    const trips: (Trip | undefined)[] = [];
    if (planning && this.preview.exhausted) {
      trips.push({
        guard: 'preview_budget',
        reason:
          `This turn's ${formatKiB(this.preview.max)} tool preview budget is exhausted; dominant churn family ` +
          `${this.turnFamilies.label() || family}. Draft the plan from the evidence gathered so far.`,
      });
    }
    // Every guard sees every outcome (their counts stay true) even when an earlier one tripped.
    if (planning) {
      trips.push(this.lowSignal.observe(category, low, family));
      trips.push(
        this.repeated.observe(category, requestKey(outcome.tool, outcome.kind, outcome.args, outcome.shell), family),
      );
    } else {
      trips.push(this.churn.observe(category, low, family));
    }
    trips.push(this.sameTarget.observe(category, outcome.kind, listingTargets(outcome, this.root)));
    const trip = trips.find((t): t is Trip => t !== undefined);
    if (trip !== undefined && this.claimSynthesis(trip.guard)) {
      return { type: 'synthesis', reason: trip.reason, guard: trip.guard };
    }
    return CONTINUE;
  }

  /** Before each model request that offers tools. */
  onLoop(): GuardAction {
    if (this.stopped !== undefined) return this.stopped;
    const ask = this.budget.checkLoop();
    if (ask !== undefined) return { type: 'ask_grant', kind: ask.kind, used: ask.used, max: ask.max };
    this.budget.countLoop();
    return CONTINUE;
  }

  /** Token usage of one model response; while planning, past `planningTokenCap` the turn stops. */
  onUsage(usage: { readonly promptTokens: number; readonly completionTokens: number }): GuardAction {
    this.tokensIn += usage.promptTokens;
    this.tokensOut += usage.completionTokens;
    if (this.stopped !== undefined) return this.stopped;
    const cap = this.cfg.planningTokenCap;
    const used = this.tokensIn + this.tokensOut;
    if (this.currentMode !== 'plan' || cap <= 0 || used <= cap) return CONTINUE;
    // The token cap also bounds a synthesis pass, so this stop never claims one.
    this.stopped = {
      type: 'stop_turn',
      budget: 'tokens',
      used,
      max: cap,
      synthesis: false,
      reason: `Planning used ${used} tokens, past its cap of ${cap}; the draft and research are kept for a later turn.`,
    };
    return this.stopped;
  }

  /** Applies the person's grant; emit the named event, then retry the pending call or iteration. */
  grant(kind: GrantKind, extra: number): GrantResult {
    const max = this.budget.grant(kind, extra);
    return {
      event: kind === 'session_tool_calls' ? 'session_tool_limit_increased' : 'tool_loop_limit_increased',
      granted: extra,
      max,
    };
  }

  /** The person said no (or could not be asked): the turn stops on that budget. */
  deny(kind: GrantKind): StopAction {
    return this.stop(this.budget.denial(kind));
  }

  /** Takes the turn's one synthesis slot for `guard`; false when it was already taken. */
  claimSynthesis(guard: string): boolean {
    if (this.synthesisBy !== undefined) return false;
    this.synthesisBy = guard;
    return true;
  }

  /** Starts a new turn: per-turn counts reset, session counts (and granted session limits) stay. */
  newTurn(options: TurnOptions = {}): void {
    this.currentMode = options.mode ?? this.currentMode;
    this.cfg = effectiveBudgets(this.base, this.currentMode);
    this.budget.newTurn(this.cfg, options.loopsPerTurn);
    if (options.freshContext === true) this.budget.resetSessionCount();
    this.blocked.reset(this.currentMode);
    this.resetTurnGuards();
  }

  get stats(): GuardStats {
    return {
      mode: this.currentMode,
      toolCalls: this.budget.toolCalls,
      loops: this.budget.loopIterations,
      sessionCalls: this.budget.session,
      previewBytes: { used: this.preview.used, max: this.preview.max, exhausted: this.preview.exhausted },
      spoolCredit: this.preview.credit,
      blockedCalls: {
        consecutive: this.blocked.consecutive,
        total: this.blocked.total,
        cap: this.blocked.consecutiveCap,
        fuse: this.blocked.fuse,
      },
      lowSignal: { consecutive: this.lowSignal.consecutive, total: this.lowSignal.total },
      repeatedRequest: { run: this.repeated.run, repeats: this.repeated.repeats },
      sameTargetListing: { highest: this.sameTarget.highest },
      diverseChurn: { window: this.churn.window },
      tokens: { input: this.tokensIn, output: this.tokensOut, cap: this.cfg.planningTokenCap },
      ...(this.synthesisBy !== undefined ? { synthesis: this.synthesisBy } : {}),
      ...(this.stopped !== undefined ? { stopped: this.stopped.budget } : {}),
    };
  }

  /** The `budget.updated` payload; the host supplies how full the context window is. */
  snapshot(contextPercent = 0, contextWindow?: number): BudgetSnapshot {
    // Built directly rather than from `stats`: this runs twice per loop iteration.
    return {
      toolCalls: this.budget.toolCalls,
      loops: this.budget.loopIterations,
      previewBytes: { used: this.preview.used, max: this.preview.max },
      blockedCalls: { consecutive: this.blocked.consecutive, total: this.blocked.total, fuse: this.blocked.fuse },
      tokens: { input: this.tokensIn, output: this.tokensOut, cap: this.cfg.planningTokenCap },
      contextPercent,
      ...(contextWindow !== undefined && contextWindow > 0 ? { contextWindow } : {}),
    };
  }

  private stop(s: BudgetStop | { budget: StopBudget; used: number; max: number; reason: string }): StopAction {
    const synthesis = this.claimSynthesis(s.budget);
    const action: StopAction = {
      type: 'stop_turn',
      reason: s.reason,
      budget: s.budget,
      used: s.used,
      max: s.max,
      synthesis,
    };
    // Later questions get the same stop, without a second synthesis pass.
    this.stopped = { ...action, synthesis: false };
    return action;
  }

  private stopStub(tool: string, stop: StopAction): string {
    return `${tool} was not run: ${stop.reason}`;
  }

  private callFor(
    call: GuardCall | undefined,
    method: string,
  ): GuardCall & { category: NonNullable<GuardCall['category']> } {
    if (call !== undefined) return { ...call, category: categoryOf(call) };
    if (this.lastCall === undefined) {
      throw new Error(`TurnGuards.${method} needs the call: pass it, or admit the call with beforeCall first.`);
    }
    return this.lastCall;
  }

  private resetTurnGuards(): void {
    const cfg = this.cfg;
    this.preview = new PreviewBudget(cfg, this.currentMode);
    this.lowSignal = new LowSignalGuard(cfg.lowSignal.consecutive, cfg.lowSignal.total);
    this.repeated = new RepeatedRequestGuard(cfg.repeatedRequestWindow);
    this.sameTarget = new SameTargetListingGuard(sameTargetThreshold(cfg, this.currentMode));
    this.churn = new DiverseChurnGuard(cfg.diverseChurn);
    this.seenResults.clear();
    this.turnFamilies.clear();
    this.synthesisBy = undefined;
    this.stopped = undefined;
    this.lastCall = undefined;
  }
}
