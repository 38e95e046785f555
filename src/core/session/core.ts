/**
 * The state one session shares across its flows (planning turns, the handoff, the build run), and
 * what prepares each turn (the MCP tools, the instruction block); `turnDeps.ts` builds a turn's
 * dependencies from it. No flow owns storage or host lifecycle: everything reaches the world
 * through `deps`.
 */
import { join } from 'node:path';
import { TurnGuards } from '../agent/guards';
import type { Usage } from '../agent/model';
import { InstructionSet } from '../agent/instructions';
import { McpToolbox } from '../mcp/toolbox';
import type { EventBus } from '../events/bus';
import { ApprovalMachine, type LifecycleEffect, type LifecycleEvent } from '../lifecycle/approvalMachine';
import type { PlanStore } from '../plan/store';
import { PlanWorkspace } from '../plan/workspace';
import type { ReviewBook } from '../plan/reviewBook';
import { DEFAULT_PLANS_DIR } from '../plan/storeLayout';
import { Spool } from '../spool';
import type { InterviewState, TrackerHandle } from '../tools/session/context';
import { createInterviewState } from '../tools/session/context';
import type { BuildPolicyContext } from '../tools/build/buildPolicy';
import type { SessionConfig, SessionDeps } from './api';
import { Verifier } from '../verify/verifier';
import { VerifyJournal } from '../verify/journal';
import type { BuildGuard } from '../build/guard';
import type { BuildManifest } from '../build/ledger';

/** A closed build whose report follows its plan. */
export interface ClosedBuild {
  /** The seq of its first report card (every rewrite replaces that card). */
  readonly seq: number;
  /** Its manifest, when this process ran it (else read from the checkpoint store). */
  readonly manifest?: BuildManifest;
  /** The report as last written: a rewrite that says the same is not written again. */
  markdown?: string;
  /** Rewrites run one after another. */
  queue?: Promise<void>;
}
import {
  BudgetState,
  PlanState,
  ThreadState,
  applySessionEffect,
  type FlowStep,
  type SessionEffect,
  type SessionStateParts,
} from './state';
import { BUILD_TOOLS, PLANNING_TOOLS } from './toolset';

export const DEFAULT_CONTEXT_WINDOW = 128_000;

export class SessionCore {
  readonly guards: TurnGuards;
  /** The workspace's plans: every plan read, parsed, tracked and reviewed goes through it. */
  readonly plans: PlanWorkspace;
  /** True when the session made its own (no host handed one in): it disposes it with itself. */
  readonly ownsPlans: boolean;
  readonly store: PlanStore;
  /** The plan's review threads (`<stem>.review.json`); its changes go on the bus. */
  readonly review: ReviewBook;
  readonly spool = new Spool();
  readonly interviewState: InterviewState = createInterviewState();
  readonly machine: ApprovalMachine;
  readonly root: string;
  readonly plansDir: string;
  /** The session's state objects; flows change them only through `apply` (their effects). */
  readonly thread = new ThreadState();
  readonly plan = new PlanState();
  readonly budget = new BudgetState();
  private readonly parts: SessionStateParts;
  private abortController = new AbortController();
  /** The engine's one verify runner and result store (the host's, when it hands one in). */
  readonly verifier: Verifier;
  /**
   * The build side's commands (rules §9): the verify commands the person approved with the plan,
   * by their text, for the build that decision started; the allow-list entries the person added
   * with "Always allow" during this session; and the verify commands a planner's revision listed
   * on the gate card (only those can be approved with the plan: one a hand edit adds is asked for
   * when it first runs).
   */
  readonly commands = {
    approved: new Set<string>(),
    remembered: [] as string[],
    listedByPlanner: undefined as ReadonlySet<string> | undefined,
    /** The commands the gate card now open offers to approve with the plan. */
    approvable: new Set<string>() as ReadonlySet<string>,
  };
  /** An approval the machine requested, waiting for `announceGate` to build its card and emit it. */
  private pendingGate: { turnId: string; effect: Extract<LifecycleEffect, { type: 'approval_requested' }> } | undefined;
  private counter = 0;
  /** The repository's instructions (absent when the person turned them off). */
  readonly instructions: InstructionSet | undefined;
  /** The person's MCP tools, fixed for the session at its first turn. */
  readonly mcp: McpToolbox;
  /** Each agent's instruction block as its current turn's requests carry it (set by `prepareTurn`). */
  readonly instructionText = { plan: '', build: '' };

  constructor(
    readonly id: string,
    readonly deps: SessionDeps,
    readonly config: SessionConfig,
    readonly bus: EventBus,
    machineSnapshot?: unknown,
  ) {
    const root = deps.reader.roots[0];
    if (root === undefined) throw new Error('Planwise needs an open workspace folder');
    this.root = root;
    this.plansDir = config.plansDir ?? DEFAULT_PLANS_DIR;
    this.verifier =
      deps.verifier ??
      new Verifier({
        ...(deps.runner ? { runner: deps.runner } : {}),
        cwd: () => root,
        now: () => deps.clock.now(),
        journal: new VerifyJournal({
          reader: deps.reader,
          writer: deps.writer,
          onError: (file, message) => deps.log?.(`verify results ${file}: ${message}`),
        }),
        ...(config.verifyTimeoutMs !== undefined ? { timeoutMs: config.verifyTimeoutMs } : {}),
        policy: () => this.commandPolicy(),
      });
    this.ownsPlans = deps.plans === undefined;
    this.plans =
      deps.plans ??
      new PlanWorkspace({
        reader: deps.reader,
        writer: deps.writer,
        root,
        plansDir: this.plansDir,
        now: () => deps.clock.now(),
        verifier: this.verifier,
        ...(deps.log ? { log: deps.log } : {}),
      });
    this.store = this.plans.store;
    this.review = this.plans.review;
    this.guards = new TurnGuards(config.budgets ?? {}, 'plan', { workspaceRoot: root });
    this.mcp = new McpToolbox({
      ...(deps.mcp ? { client: deps.mcp } : {}),
      ...(config.mcp ? { config: config.mcp } : {}),
      trusted: () => this.config.trusted,
      builtIn: new Set([...PLANNING_TOOLS, ...BUILD_TOOLS].map((t) => t.name)),
      notice: (text, level) => this.notice(text, level),
    });
    this.instructions =
      config.instructions === false ? undefined : new InstructionSet(deps.reader, root, config.instructions ?? {});
    this.machine = new ApprovalMachine(machineSnapshot);
    this.parts = {
      thread: this.thread,
      plan: this.plan,
      budget: this.budget,
      planningRequested: undefined,
      build: undefined,
    };
  }

  /** The build side's command policy for this session: the gate's context and the person's allow-list. */
  commandPolicy(): BuildPolicyContext {
    return {
      roots: this.deps.reader.roots,
      trusted: this.config.trusted,
      fs: this.deps.gateFs ?? this.deps.reader,
      ...(this.config.home !== undefined ? { home: this.config.home } : {}),
      allowList: [...(this.config.buildAllowList ?? []), ...this.commands.remembered],
    };
  }

  /** An allow-list entry the person added with "Always allow": it holds for the rest of the session. */
  readonly rememberCommand = (entry: string): void => {
    if (!this.commands.remembered.includes(entry)) this.commands.remembered.push(entry);
  };

  /** Applies what a flow asked for: the only way a flow changes the session's state. */
  apply(...effects: readonly SessionEffect[]): void {
    for (const e of effects) applySessionEffect(this.parts, e);
  }

  /**
   * Runs a flow that yields its steps (the build run): each state change is applied and each
   * lifecycle event fed to the machine before the flow resumes. Returns what the flow returns.
   */
  async follow<T>(flow: AsyncGenerator<FlowStep, T>): Promise<T> {
    for (let r = await flow.next(); ; r = await flow.next()) {
      if (r.done) return r.value;
      const step = r.value;
      if (step.type === 'lifecycle') this.lifecycle(step.event, step.turnId);
      else this.apply(step);
    }
  }

  /**
   * The last build's closing: the seq of its report card, and its manifest when this process ran
   * it. A later move of the plan's tracker writes the report again.
   */
  closedBuild: ClosedBuild | undefined;

  get planStem(): string | undefined {
    return this.plan.stem;
  }

  get planFile(): string | undefined {
    return this.plan.file;
  }

  get tracker(): TrackerHandle | undefined {
    return this.plan.tracker;
  }

  /** The running build's guard (scope, reads, checkpoints), while a build run has it open. */
  get build(): BuildGuard | undefined {
    return this.parts.build;
  }

  get planningRequested(): string | undefined {
    return this.parts.planningRequested;
  }

  get totalUsage(): Usage {
    return this.budget.total;
  }

  get abort(): AbortController {
    return this.abortController;
  }

  /** Aborts the running turn and arms a new signal for the next one. */
  cancelRun(reason: Error): void {
    this.abortController.abort(reason);
    this.abortController = new AbortController();
  }

  /** The approval the machine requested since the last call, if any (for `announceGate`). */
  takeGateRequest(): { turnId: string; effect: Extract<LifecycleEffect, { type: 'approval_requested' }> } | undefined {
    const pending = this.pendingGate;
    this.pendingGate = undefined;
    return pending;
  }

  newId(prefix: string): string {
    return `${prefix}-${(++this.counter).toString(36)}`;
  }

  get contextWindow(): number {
    return this.config.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  }

  contextPercent(): number {
    return this.budget.contextPercent(this.contextWindow);
  }

  /** Feeds the lifecycle machine and turns its effects into events. Returns whether it accepted. */
  lifecycle(event: LifecycleEvent, turnId = ''): boolean {
    const r = this.machine.dispatch(event);
    for (const e of r.effects) this.effect(e, turnId);
    if (!r.ok) this.deps.log?.(`lifecycle: ${r.reason}`);
    return r.ok;
  }

  effect(e: LifecycleEffect, turnId: string): void {
    switch (e.type) {
      case 'state_changed':
        this.bus.emit({ type: 'state.changed', state: e.to, mode: e.mode });
        break;
      case 'approval_requested':
        // Announced by `announceGate` once the card is built from the stored plan.
        this.pendingGate = { turnId, effect: e };
        break;
      case 'approval_resolved':
        this.bus.emit({
          type: 'plan.approval.resolved',
          decision: e.decision,
          automatic: e.automatic,
          ...(e.feedback !== undefined ? { feedback: e.feedback } : {}),
        });
        break;
      case 'log':
        this.deps.log?.(`lifecycle ${e.level}: ${e.message}`);
        if (e.level !== 'info') this.notice(e.message, 'warning', turnId);
        break;
      default:
        break;
    }
  }

  notice(text: string, level: 'info' | 'warning' | 'error' = 'info', turnId = ''): void {
    this.bus.emit({
      type: 'item.completed',
      turn_id: turnId,
      item: { id: this.newId('notice'), kind: 'notice', text, level },
    });
  }

  /** The absolute plans directory, for the planning write policy. */
  get plansDirAbs(): string {
    return join(this.root, this.plansDir);
  }

  /**
   * What `mode`'s next turn offers besides Planwise's own prompt and tools: the MCP tools (fixed at
   * the session's first turn) and the instruction block (read again, after noting the files
   * `message` names; announced when it is new or a file changed). Call once per turn, before
   * `turnDepsOf`: within a turn neither changes.
   */
  async prepareTurn(mode: 'plan' | 'build', turnId: string, message?: string): Promise<void> {
    await this.mcp.prepare(this.abort.signal);
    const set = this.instructions;
    if (!set) return;
    try {
      if (message !== undefined) await set.noteMessage(message);
      const b = await set.block(mode);
      this.instructionText[mode] = b.text;
      if (!b.changed || (b.first && b.files.length === 0)) return;
      this.bus.emit({
        type: 'instructions.loaded',
        turn_id: turnId,
        agent: mode,
        files: b.files,
        truncated: b.truncated,
        max_bytes: b.maxBytes,
        reason: b.first ? 'start' : 'changed',
      });
    } catch (err) {
      this.deps.log?.(`instructions: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
