/**
 * The one owner of a workspace's plans. It parses each plan text once (`parse`: every reader of a
 * plan, the store, the session, the lenses, the CLI, asks here), owns the plan store, the review
 * book and the tracker writes, and keeps one `ParsedPlan` per plan file: the plan file as it is on
 * disk, its verdict, its tracker and progress, its revisions, the latest result of each of its
 * verify entries (brought back from the plan's journal on first read). Every change (a save, a tracker
 * write, a hand edit, a revert, a verify result) refreshes that plan's entry and goes out once on
 * `onDidChange`; every surface projects from the entry it carries.
 */
import { Emitter } from '../emitter';
import type { WorkspaceReader, WorkspaceWriter } from '../ports';
import type { ReviewEventBody } from '../events/reviewEvents';
import type { Verifier, VerifyRecord } from '../verify/verifier';
import { applyTrackerAction, type TrackerAction } from './trackerActions';
import { ReviewBook, type ReviewState } from './reviewBook';
import { PlanStore, type LoadedPlan } from './store';
import { listPlanFiles } from './storeLayout';
import { blankTrackerBlock } from './trackerBlock';
import {
  cloneTracker,
  itemAtPath,
  trackerProgress,
  type TaskItem,
  type Tracker,
  type TrackerProgress,
} from './tracker';
import { verifyEntryOf } from './verification';
import { stepVerdict } from '../verify/stepVerdict';
import { validatePlan } from './validator';

/** The validator's verdict on one plan text. */
export type PlanVerdict = ReturnType<typeof validatePlan>;

/** One plan file as the workspace knows it, parsed once per change. */
export interface ParsedPlan extends Omit<LoadedPlan, 'valid' | 'errors' | 'summary'> {
  readonly verdict: PlanVerdict;
  readonly progress?: TrackerProgress;
  /** The latest result of each verify entry that ran or was signed off, a running one included. */
  readonly results: readonly VerifyRecord[];
  /**
   * The plan's review threads anchored to this text (carried from the revision the sidecar refers
   * to, one revision at a time); absent when the sidecar cannot be read, and `reviewError` says why.
   */
  readonly review?: ReviewState;
  readonly reviewError?: string;
}

/** The latest result of one verify entry of one step of a plan. */
export function resultIn(plan: Pick<ParsedPlan, 'results'>, step: string, entry: string): VerifyRecord | undefined {
  return plan.results.find((r) => r.step === step && r.entry === entry);
}

/** What changed a plan: a new revision, its tracker, a revert of its build, a verify result. */
export type PlanChangeReason = 'revision' | 'tracker' | 'reverted' | 'verify' | 'disk' | 'removed';

export interface PlanChange {
  readonly file: string;
  readonly reason: PlanChangeReason;
  /** The plan after the change; absent when its file is gone. */
  readonly plan?: ParsedPlan;
  /** For a verify result: the result (a step it settled is already in `plan`). */
  readonly record?: VerifyRecord;
}

export interface PlanWorkspaceOptions {
  readonly reader: WorkspaceReader;
  readonly writer: WorkspaceWriter;
  /** Absolute workspace root. */
  readonly root: string;
  /** Plans folder relative to the root; default `.vtcode/plans`. */
  readonly plansDir?: string;
  readonly now: () => number;
  /** The engine's verify results: a result recorded for a plan is a change of that plan. */
  readonly verifier?: Pick<Verifier, 'onRecorded' | 'forget' | 'restore' | 'resultsOf' | 'latest'>;
  readonly log?: (line: string) => void;
}

/** How many plan texts one workspace keeps parsed: the revisions in play, not every plan ever read. */
const PARSED_TEXTS = 32;

/** The text a parse depends on: the tracker block and trailing blank lines change nothing in it. */
function parseKey(text: string): string {
  return blankTrackerBlock(text).replace(/\s+$/, '');
}

export class PlanWorkspace {
  readonly store: PlanStore;
  readonly review: ReviewBook;
  private readonly parsed = new Map<string, PlanVerdict>();
  private readonly plans = new Map<string, ParsedPlan>();
  private readonly changes: Emitter<PlanChange>;
  private readonly reviews: Emitter<ReviewEventBody>;
  private trackerQueue: Promise<unknown> = Promise.resolve();
  private readonly detach: (() => void) | undefined;

  constructor(private readonly opts: PlanWorkspaceOptions) {
    const report = (err: unknown) =>
      opts.log?.(`a plan listener failed: ${err instanceof Error ? err.message : String(err)}`);
    this.changes = new Emitter<PlanChange>(opts.log ? report : undefined);
    this.reviews = new Emitter<ReviewEventBody>(opts.log ? report : undefined);
    this.store = new PlanStore(opts.reader, opts.writer, {
      root: opts.root,
      ...(opts.plansDir !== undefined ? { plansDir: opts.plansDir } : {}),
      now: opts.now,
      parse: (text) => this.parse(text),
    });
    this.review = new ReviewBook({
      reader: opts.reader,
      writer: opts.writer,
      store: this.store,
      now: opts.now,
      parse: (text) => this.parse(text),
      emit: (e) => this.reviews.fire(e),
      settled: (state) => this.reviewSettled(state),
    });
    this.detach = opts.verifier?.onRecorded((r) => {
      if (r.planFile === '') return;
      this.recorded(r).catch((err: unknown) =>
        opts.log?.(`verify: updating the plan's tracker failed: ${err instanceof Error ? err.message : String(err)}`),
      );
    });
  }

  /** Every change of a plan, with the plan as it now is. */
  onDidChange(listener: (change: PlanChange) => void): { dispose(): void } {
    return this.changes.on(listener);
  }

  /** Every change of a plan's review threads. */
  onReview(listener: (event: ReviewEventBody) => void): { dispose(): void } {
    return this.reviews.on(listener);
  }

  get root(): string {
    return this.opts.root;
  }

  get plansDir(): string {
    return this.store.plansDir;
  }

  /** The validator's verdict on a plan text, computed once per distinct text. */
  parse(text: string): PlanVerdict {
    const key = parseKey(text);
    const known = this.parsed.get(key);
    if (known) {
      this.parsed.delete(key);
      this.parsed.set(key, known);
      return known;
    }
    const verdict = validatePlan(key);
    this.parsed.set(key, verdict);
    if (this.parsed.size > PARSED_TEXTS) this.parsed.delete(this.parsed.keys().next().value as string);
    return verdict;
  }

  /** The plan as last read, without touching the disk; undefined when it was never read. */
  peek(file: string): ParsedPlan | undefined {
    return this.plans.get(file);
  }

  /** The plan (stem, file name or path) as it is on disk now. Throws when it does not exist. */
  async plan(ref: string): Promise<ParsedPlan> {
    const loaded = await this.store.load(ref);
    await this.opts.verifier?.restore(loaded.file);
    const review = await this.review.view(loaded).then(
      (state) => ({ review: state }),
      (err: unknown) => ({ reviewError: err instanceof Error ? err.message : String(err) }),
    );
    return this.keep(loaded, review);
  }

  /** Every plan in the plans folder, newest first. */
  async list(): Promise<ParsedPlan[]> {
    const files = await listPlanFiles(this.opts.reader, this.store.plansDir);
    return Promise.all(files.map((f) => this.plan(f.file)));
  }

  /** Reads the plan again and announces it when it changed (a hand edit, another tool's write). */
  async refresh(file: string, reason: PlanChangeReason = 'disk'): Promise<ParsedPlan | undefined> {
    const before = this.plans.get(file);
    let now: ParsedPlan | undefined;
    try {
      now = await this.plan(file);
    } catch {
      now = undefined;
    }
    if (now === undefined) {
      if (before === undefined) return undefined;
      this.plans.delete(file);
      this.changes.fire({ file, reason: 'removed' });
      return undefined;
    }
    if (before === undefined || !samePlan(before, now)) this.changes.fire({ file: now.file, reason, plan: now });
    return now;
  }

  /** Writes a plan's tracker (sidecar, mirror, embedded block) and announces the change. */
  saveTracker(file: string, tracker: Tracker, reason: PlanChangeReason = 'tracker'): Promise<ParsedPlan | undefined> {
    return this.serialTracker(async () => {
      await this.store.saveTracker(file, tracker);
      return this.refresh(file, reason);
    });
  }

  /**
   * The tracker of one plan as a live handle: `get` reads the workspace's entry (so a revert or a
   * hand edit shows at once), `apply` changes it and writes it through `saveTracker`.
   */
  trackerHandle(file: string): {
    get(): Tracker | undefined;
    apply(action: TrackerAction): Promise<{ ok: true; tracker: Tracker } | { ok: false; error: string }>;
  } {
    return {
      get: () => {
        const t = this.plans.get(file)?.tracker;
        return t ? cloneTracker(t) : undefined;
      },
      apply: (action) =>
        this.serialTracker(async () => {
          const base = this.plans.get(file)?.tracker ?? (await this.plan(file)).tracker;
          const result = applyTrackerAction(base ?? { title: 'Tasks', items: [] }, action);
          if (!result.ok) return result;
          try {
            await this.store.saveTracker(file, result.tracker);
          } catch (err) {
            const why = err instanceof Error ? err.message : String(err);
            return {
              ok: false as const,
              error: `the checklist change could not be saved (${why}); it was not applied`,
            };
          }
          await this.refresh(file, 'tracker');
          return { ok: true as const, tracker: cloneTracker(result.tracker) };
        }),
    };
  }

  /**
   * A build of this plan was reverted: to the state when step `toStep` completed (the steps after
   * it are pending again), or whole (every step is pending). The reverted steps' verify results
   * no longer describe the files: they are forgotten.
   */
  async reverted(file: string, toStep?: string): Promise<ParsedPlan | undefined> {
    const plan = await this.plan(file).catch(() => undefined);
    if (!plan?.tracker) return this.refresh(file, 'reverted');
    const tracker = resetAfter(plan.tracker, toStep);
    await this.opts.verifier?.forget(plan.file, (step) => toStep === undefined || comparePaths(step, toStep) > 0);
    return this.saveTracker(plan.file, tracker, 'reverted');
  }

  dispose(): void {
    this.detach?.();
    this.changes.clear();
    this.reviews.clear();
  }

  private keep(loaded: LoadedPlan, review: Pick<ParsedPlan, 'review' | 'reviewError'>): ParsedPlan {
    const { valid: _v, errors: _e, summary: _s, ...rest } = loaded;
    const plan: ParsedPlan = {
      ...rest,
      verdict: this.parse(loaded.markdown),
      ...(loaded.tracker ? { progress: trackerProgress(loaded.tracker) } : {}),
      results: this.resultsOf(loaded.file),
      ...review,
    };
    this.plans.set(plan.file, plan);
    return plan;
  }

  /** A review change through the book: the plan's entry carries its threads before the event goes out. */
  private reviewSettled(state: ReviewState): void {
    const plan = this.plans.get(state.planFile);
    if (!plan) return;
    const { reviewError: _r, ...rest } = plan;
    this.plans.set(state.planFile, { ...rest, review: state });
  }

  /**
   * A verify result: a person's (a lens, the panel, Mark checked) can settle its step, whether or
   * not a session follows the plan. Once every command passed and every check is signed off the
   * step is completed; a failing command puts it back in progress. The build agent's results are
   * settled by the verify gate that asked for them. Then one change goes out, with the result.
   */
  private async recorded(r: VerifyRecord): Promise<void> {
    const file = r.planFile;
    if (r.origin === 'person' && r.status !== 'running' && r.refused !== true) await this.settle(r);
    const plan = this.plans.get(file);
    const now = plan ? { ...plan, results: this.resultsOf(file) } : undefined;
    if (now) this.plans.set(file, now);
    this.changes.fire({ file, reason: 'verify', ...(now ? { plan: now } : {}), record: r });
  }

  private settle(r: VerifyRecord): Promise<void> {
    const verifier = this.opts.verifier;
    return this.serialTracker(async () => {
      const plan = this.plans.get(r.planFile) ?? (await this.plan(r.planFile).catch(() => undefined));
      const item = plan?.tracker ? itemAtPath(plan.tracker.items, r.step) : undefined;
      if (!plan?.tracker || !item || item.status === 'completed' || !verifier) return;
      const verdict = stepVerdict(item.verify.map(verifyEntryOf), (e) => verifier.latest(plan.file, r.step, e));
      const status = verdict.complete
        ? 'completed'
        : r.status === 'failed' || r.status === 'timed_out' || (r.status === 'checked' && item.status === 'pending')
          ? 'in_progress'
          : undefined;
      if (status === undefined || status === item.status) return;
      const result = applyTrackerAction(plan.tracker, { action: 'update', index_path: r.step, status });
      if (!result.ok) return;
      await this.store.saveTracker(plan.file, result.tracker);
      await this.plan(plan.file);
    });
  }

  private resultsOf(file: string): VerifyRecord[] {
    return this.opts.verifier?.resultsOf(file) ?? [];
  }

  private serialTracker<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.trackerQueue.then(fn, fn);
    this.trackerQueue = run.catch(() => undefined);
    return run;
  }
}

function samePlan(a: ParsedPlan, b: ParsedPlan): boolean {
  return (
    a.raw === b.raw &&
    a.revisions === b.revisions &&
    a.author === b.author &&
    JSON.stringify(a.tracker) === JSON.stringify(b.tracker) &&
    JSON.stringify(a.review) === JSON.stringify(b.review)
  );
}

/** The tracker with every item after `toStep` (in document order) pending; none kept without a step. */
function resetAfter(tracker: Tracker, toStep: string | undefined): Tracker {
  const keep = (path: string): boolean => toStep !== undefined && comparePaths(path, toStep) <= 0;
  const walk = (items: readonly TaskItem[], prefix: string): TaskItem[] =>
    items.map((item, i) => {
      const path = prefix === '' ? `${i + 1}` : `${prefix}.${i + 1}`;
      const children = walk(item.children, path);
      // A step whose later sub-steps were reverted is no longer done.
      if (isAncestor(path, toStep))
        return { ...item, status: item.status === 'completed' ? 'in_progress' : item.status, children };
      if (keep(path)) return { ...item, children };
      return { ...item, status: 'pending', children };
    });
  return { ...cloneTracker(tracker), items: walk(tracker.items, '') };
}

function isAncestor(path: string, of: string | undefined): boolean {
  return of !== undefined && of.startsWith(`${path}.`);
}

/** Document order of two item paths ("2" < "2.1" < "3"). */
function comparePaths(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return 0;
}
