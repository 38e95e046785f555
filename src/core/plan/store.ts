/**
 * The plan store (rules §4). Candidates are validated before anything is written; an invalid one
 * never touches the plan file and is kept (bounded to 8 KiB) for the next repair. Every write goes
 * through the `WorkspaceWriter` port, which writes atomically (temporary file + rename). Every
 * accepted revision is kept in `<stem>.history/NNN.md` (`history.ts`); nothing is ever deleted. A
 * revision that is the person's hand edit (`recordEdit`) also gets `NNN.meta.json` saying so, read
 * back by `load`.
 *
 * Save order: the plan file first, then its history entry. Before writing, a plan file whose text
 * differs from the latest history entry (a hand edit, a plan written by VT Code, or a save cut off
 * between the two writes) is first recorded as a revision of its own, so no text is ever lost.
 */
import { join } from 'node:path';
import type { WorkspaceReader, WorkspaceWriter } from '../ports';
import type { PlanError, PlanSummary } from './types';
import { buildRepairFeedback, validatePlan } from './validator';
import { REJECTED_DRAFT_MAX_BYTES, boundUtf8 } from './text';
import { extractTrackerBlock, replaceTrackerBlockText, stripTrackerBlock } from './trackerBlock';
import { readTrackerDocument } from './trackerDocument';
import { PlanHistory, normalise, type RevisionAuthor } from './history';
import { trackerTexts } from './trackerPatch';
import {
  parseTrackerFile,
  refreshTracker,
  trackerFromPlan,
  trackerProgress,
  type Tracker,
  type TrackerProgress,
} from './tracker';
import {
  DEFAULT_PLANS_DIR,
  NEW_PLAN_DRAFT,
  TASK_MIRROR,
  datedStem,
  listPlanFiles,
  planPaths,
  resolvePlanRef,
  stemFromName,
  type PlanPaths,
} from './storeLayout';

export type { RevisionAuthor } from './history';

export interface PlanStoreOptions {
  /** Absolute workspace root. */
  root: string;
  /** Plans folder relative to the root; default `.vtcode/plans`. */
  plansDir?: string;
  now: () => number;
  random?: () => number;
  /** The one parse of a plan text (the workspace's, which parses each text once); default: the validator. */
  parse?: (text: string) => ReturnType<typeof validatePlan>;
}

/** What became of a plan file edited by hand (`recordEdit`). */
export type EditResult =
  | { kind: 'recorded'; file: string; stem: string; revision: number }
  | { kind: 'unchanged'; file: string; stem: string; revision: number }
  /** Errors carry the lines of the plan file as it is on disk. Nothing was written. */
  | { kind: 'invalid'; file: string; stem: string; revision: number; errors: PlanError[] };

export type SaveResult =
  | { ok: true; file: string; stem: string; revision: number; summary: PlanSummary }
  | { ok: false; errors: PlanError[]; feedback: string };

/** A plan read back from disk, valid or not. */
export interface LoadedPlan {
  stem: string;
  file: string;
  /** The plan text without its embedded tracker block. */
  markdown: string;
  /** The file exactly as stored. */
  raw: string;
  valid: boolean;
  errors: PlanError[];
  summary: PlanSummary;
  /** From the sidecar, else from the embedded block; absent when the plan has neither. */
  tracker?: Tracker;
  trackerSource?: 'sidecar' | 'embedded';
  /** Number of history entries (0 for a plan written by hand or by VT Code). */
  revisions: number;
  /** `person` when the latest revision is the person's edit (from its `NNN.meta.json`); absent: the planner's. */
  author?: 'person';
}

export interface PlanListing {
  stem: string;
  file: string;
  title: string;
  valid: boolean;
  steps: number;
  revisions: number;
  mtimeMs: number;
  /** Tracker progress (leaf counts and percent, as `tracker.updated` has them), when the plan has a tracker. */
  progress?: TrackerProgress;
  /** The tracker as read from the sidecar, else from the embedded block. */
  tracker?: Tracker;
}

/** A rejected candidate kept for the next repair request. */
export interface RejectedDraft {
  file: string;
  markdown: string;
}

const decoder = new TextDecoder();

export class PlanStore {
  readonly plansDir: string;
  private readonly random: () => number;
  private readonly parse: (text: string) => ReturnType<typeof validatePlan>;
  private readonly planHistory: PlanHistory;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly reader: WorkspaceReader,
    private readonly writer: WorkspaceWriter,
    private readonly opts: PlanStoreOptions,
  ) {
    this.plansDir = join(opts.root, opts.plansDir ?? DEFAULT_PLANS_DIR);
    this.random = opts.random ?? Math.random;
    this.parse = opts.parse ?? validatePlan;
    this.planHistory = new PlanHistory(reader, writer, (path) => this.readText(path));
  }

  /** Absolute path of the global tracker mirror. */
  get mirrorFile(): string {
    return join(this.opts.root, TASK_MIRROR);
  }

  /**
   * Validates, then saves `markdown` as a new plan, or as a new revision of `stem` (or of the plan
   * called `name`). An invalid candidate writes only the rejected-draft file.
   */
  save(markdown: string, opts: { stem?: string; name?: string } = {}): Promise<SaveResult> {
    return this.serial(async () => {
      const text = normalise(markdown);
      const v = this.parse(text);
      const known = opts.stem ?? (opts.name !== undefined ? stemFromName(opts.name) : undefined);
      if (!v.valid) {
        await this.keepRejected(known ?? NEW_PLAN_DRAFT, text);
        return { ok: false, errors: v.errors, feedback: buildRepairFeedback(text, v.errors, v.summary) };
      }
      const paths =
        opts.stem !== undefined ? await this.existing(opts.stem) : await this.freshOrNamed(known, v.summary.title);
      let revision = await this.planHistory.recordUnsavedText(paths);
      const tracker = await this.readSidecar(paths);
      let fileText = text;
      if (tracker) {
        const refreshed = refreshTracker(tracker, trackerFromPlan(v.summary));
        const block = await this.writeTrackerFiles(paths, refreshed, await this.readText(paths.plan));
        fileText = replaceTrackerBlockText(text, block);
      }
      await this.writer.writeFileAtomic(paths.plan, fileText);
      revision += 1;
      await this.planHistory.write(paths, revision, text);
      return { ok: true, file: paths.plan, stem: paths.stem, revision, summary: v.summary };
    });
  }

  /** Loads a plan by stem, file name or path, with its tracker and validation. */
  async load(stemOrFile: string): Promise<LoadedPlan> {
    const paths = resolvePlanRef(this.opts.root, this.plansDir, stemOrFile);
    const raw = await this.readText(paths.plan);
    if (raw === undefined) {
      throw new Error(`no plan "${stemOrFile}": ${paths.plan} does not exist (run 'planwise plans' to list plans)`);
    }
    const markdown = stripTrackerBlock(raw);
    const v = this.parse(markdown);
    const plan: LoadedPlan = {
      stem: paths.stem,
      file: paths.plan,
      markdown,
      raw,
      valid: v.valid,
      errors: v.errors,
      summary: v.summary,
      revisions: (await this.planHistory.numbers(paths)).length,
    };
    if (plan.revisions > 0 && (await this.planHistory.authorOf(paths, plan.revisions)) === 'person') {
      plan.author = 'person';
    }
    const sidecar = await this.readSidecar(paths);
    const embedded = extractTrackerBlock(raw);
    if (sidecar) {
      plan.tracker = sidecar;
      plan.trackerSource = 'sidecar';
    } else if (embedded !== undefined && embedded.trim().length > 0) {
      const doc = readTrackerDocument(embedded);
      plan.tracker = { title: doc.title || v.summary.title || paths.stem, items: doc.items.map((l) => l.item) };
      plan.trackerSource = 'embedded';
    }
    return plan;
  }

  /** Every plan in the plans folder, newest first, with tracker progress. */
  async list(): Promise<PlanListing[]> {
    const out: PlanListing[] = [];
    for (const { file, mtimeMs } of await listPlanFiles(this.reader, this.plansDir)) {
      const plan = await this.load(file);
      const listing: PlanListing = {
        stem: plan.stem,
        file,
        // A plan VT Code saved may have no `# ` title; its tracker's is the next best name.
        title: plan.summary.title || plan.tracker?.title || '',
        valid: plan.valid,
        steps: plan.summary.steps.length,
        revisions: plan.revisions,
        mtimeMs,
      };
      if (plan.tracker) {
        listing.progress = trackerProgress(plan.tracker);
        listing.tracker = plan.tracker;
      }
      out.push(listing);
    }
    return out;
  }

  /** Absolute paths of a plan's history entries, oldest first. */
  async history(stem: string): Promise<string[]> {
    const paths = resolvePlanRef(this.opts.root, this.plansDir, stem);
    return (await this.planHistory.numbers(paths)).map((n) => this.planHistory.file(paths, n));
  }

  /** The text of revision `n` (1-based) of a plan. */
  async readRevision(stem: string, n: number): Promise<string> {
    const paths = resolvePlanRef(this.opts.root, this.plansDir, stem);
    const text = await this.planHistory.read(paths, n);
    if (text === undefined) {
      const have = await this.planHistory.numbers(paths);
      const range = have.length === 0 ? 'it has no history' : `it has revisions 1-${have[have.length - 1]}`;
      throw new Error(`plan "${stem}" has no revision ${n}: ${range}`);
    }
    return text;
  }

  /** Who wrote revision `n` of a plan, as its history records it (no metadata: the planner). */
  async revisionAuthor(stem: string, n: number): Promise<RevisionAuthor> {
    return this.planHistory.authorOf(resolvePlanRef(this.opts.root, this.plansDir, stem), n);
  }

  /**
   * Writes the tracker: the sidecar, the global mirror, and the block embedded in the plan file.
   * Files already there are patched in place (`trackerPatch.ts`): what did not change stays as it
   * was, byte for byte; a file whose text would not change is not written.
   */
  saveTracker(stem: string, tracker: Tracker): Promise<void> {
    return this.serial(async () => {
      const paths = resolvePlanRef(this.opts.root, this.plansDir, stem);
      const raw = await this.readText(paths.plan);
      if (raw === undefined) throw new Error(`cannot save a tracker for "${stem}": ${paths.plan} does not exist`);
      const block = await this.writeTrackerFiles(paths, tracker, raw);
      const fileText = replaceTrackerBlockText(raw, block);
      if (fileText !== raw) await this.writer.writeFileAtomic(paths.plan, fileText);
    });
  }

  /**
   * A plan file edited by hand (saved in the editor): when its text is valid and differs from the
   * latest revision it is recorded as the next revision, and the tracker follows it (items whose
   * description survived keep their status). An invalid edit writes nothing, so the history and
   * the tracker stay as the last valid revision left them.
   */
  recordEdit(stem: string): Promise<EditResult> {
    return this.serial(async () => {
      const paths = resolvePlanRef(this.opts.root, this.plansDir, stem);
      const raw = await this.readText(paths.plan);
      if (raw === undefined) throw new Error(`no plan "${stem}": ${paths.plan} does not exist`);
      const numbers = await this.planHistory.numbers(paths);
      const latest = numbers[numbers.length - 1] ?? 0;
      const base = { file: paths.plan, stem: paths.stem };
      const v = this.parse(raw);
      if (!v.valid) return { kind: 'invalid', ...base, revision: latest, errors: v.errors };
      const text = normalise(raw);
      const recorded = latest > 0 ? await this.planHistory.read(paths, latest) : undefined;
      if (recorded === text) return { kind: 'unchanged', ...base, revision: latest };
      const revision = await this.planHistory.recordUnsavedText(paths);
      // After its text: a revision cut off before this is the planner's by default, never a
      // label without its text.
      await this.planHistory.markPerson(paths, revision, this.opts.now());
      const tracker = await this.readSidecar(paths);
      if (tracker) {
        const refreshed = refreshTracker(tracker, trackerFromPlan(v.summary));
        const block = await this.writeTrackerFiles(paths, refreshed, raw);
        const fileText = replaceTrackerBlockText(raw, block);
        if (fileText !== raw) await this.writer.writeFileAtomic(paths.plan, fileText);
      }
      return { kind: 'recorded', ...base, revision };
    });
  }

  /** The last rejected draft kept for `stem` (or for a new plan), if any. */
  async readRejected(stem?: string): Promise<RejectedDraft | undefined> {
    const file = this.rejectedFile(stem ?? NEW_PLAN_DRAFT);
    const markdown = await this.readText(file);
    return markdown === undefined ? undefined : { file, markdown };
  }

  /**
   * Writes the sidecar beside the plan and the global mirror, each patched over the file already
   * there (the sidecar, when missing, over the plan's embedded block). The mirror is patched when
   * it holds this checklist (same title), else written anew, as VT Code replaces it with each
   * checklist. Returns the text of the block to embed in the plan: `planText`'s block patched, or
   * the sidecar's text.
   */
  private async writeTrackerFiles(paths: PlanPaths, tracker: Tracker, planText: string | undefined): Promise<string> {
    const before = {
      sidecar: await this.readText(paths.sidecar),
      mirror: await this.readText(this.mirrorFile),
      block: planText === undefined ? undefined : extractTrackerBlock(planText),
    };
    const after = trackerTexts(tracker, before);
    if (after.sidecar !== before.sidecar) await this.writer.writeFileAtomic(paths.sidecar, after.sidecar);
    if (after.mirror !== before.mirror) await this.writer.writeFileAtomic(this.mirrorFile, after.mirror);
    return after.block;
  }

  private rejectedFile(stem: string): string {
    return join(this.plansDir, '.rejected', `${stem}.md`);
  }

  private async keepRejected(stem: string, text: string): Promise<void> {
    await this.writer.writeFileAtomic(this.rejectedFile(stem), boundUtf8(text, REJECTED_DRAFT_MAX_BYTES).text);
  }

  /** Runs writes one after another, so two saves never pick the same revision number. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async existing(stem: string): Promise<PlanPaths> {
    const paths = resolvePlanRef(this.opts.root, this.plansDir, stem);
    if ((await this.reader.stat(paths.plan)) === undefined && (await this.planHistory.numbers(paths)).length === 0) {
      throw new Error(`no plan "${stem}" to revise: ${paths.plan} does not exist`);
    }
    return paths;
  }

  private async freshOrNamed(stem: string | undefined, title: string): Promise<PlanPaths> {
    if (stem !== undefined) return planPaths(this.plansDir, stem);
    // `<yyyy-mm-dd>-<title-slug>`; plans already on disk (VT Code's too) keep the names they have.
    const base = datedStem(this.opts.now(), title);
    for (let n = 1; ; n++) {
      const paths = planPaths(this.plansDir, n === 1 ? base : `${base}-${n}`);
      if ((await this.reader.stat(paths.plan)) === undefined && (await this.reader.stat(paths.history)) === undefined) {
        return paths;
      }
    }
  }

  private async readSidecar(paths: PlanPaths): Promise<Tracker | undefined> {
    const text = await this.readText(paths.sidecar);
    return text === undefined ? undefined : parseTrackerFile(text);
  }

  private async readText(path: string): Promise<string | undefined> {
    const st = await this.reader.stat(path);
    if (st?.type !== 'file') return undefined;
    return decoder.decode(await this.reader.readFile(path));
  }
}
