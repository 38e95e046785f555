/**
 * The build's ledger: what one build run read, touched and was allowed. It holds the
 * approved plan's scope and mode, the hash of every file as the agent last read it, each touched
 * file's state before the build and as the build last left it, the checkpoints taken at step
 * completion, the out-of-scope changes and who allowed them, and the lines changed per step. The
 * facts are computed here once; the scope guard, the checkpoints, Revert Build and the closing
 * report read them.
 */
import { createHash } from 'node:crypto';
import { diffLines } from 'diff';
import type { CheckpointStore } from './ports';
import type { BuildOutcome } from './report';
import type { PlanScope, ScopeEntry, ScopeMode } from './scope';

/** A file's state: absent, or its bytes by content hash. */
export type FileState =
  { readonly kind: 'absent' } | { readonly kind: 'file'; readonly hash: string; readonly bytes: number };

export const ABSENT: FileState = { kind: 'absent' };

export function hashOf(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export function stateOf(data: Uint8Array | undefined): FileState {
  return data === undefined ? ABSENT : { kind: 'file', hash: hashOf(data), bytes: data.length };
}

export function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  if (!a || !b) return a === b;
  return a.kind === 'absent' ? b.kind === 'absent' : b.kind === 'file' && a.hash === b.hash;
}

export type WriteAction = 'edit' | 'write' | 'create' | 'delete';

/** Who let an out-of-scope change through. */
export type DriftAllowance =
  | 'person (this file)'
  | 'person (rest of the build)'
  | 'recorded (scope mode record)'
  | 'nobody: the run was cancelled before the person could be asked';

export interface DriftRecord {
  readonly path: string;
  readonly action: WriteAction;
  readonly allowedBy: DriftAllowance;
  /** The step in progress when it happened. */
  readonly step?: string;
  /** The shell command that made the change (`run_command`), when no file tool did. */
  readonly command?: string;
}

export interface LineCount {
  added: number;
  removed: number;
}

/** One checkpoint: every file the build touched so far, as it stood. */
export interface Checkpoint {
  /** `before`: the state before the build's first write of each file; else the step that completed. */
  readonly label: 'before' | 'step';
  readonly step?: string;
  readonly at: number;
  readonly files: Readonly<Record<string, FileState>>;
}

/** What the checkpoint store's manifest holds: enough for Revert Build after the process ended. */
export interface BuildManifest {
  readonly version: 1;
  readonly session: string;
  /** Absolute workspace root the relative paths hang off. */
  readonly root: string;
  readonly planFile?: string;
  /** Each touched file's state before the build's first write of it. */
  readonly baseline: Record<string, FileState>;
  /** Each touched file's state as the build last left it (a person's later change shows against it). */
  readonly current: Record<string, FileState>;
  /**
   * The states Planwise's own Revert Build left each file in. A file in one of them, or in the
   * build's result (an editor's Undo of a revert returns to it), holds nothing of the person's.
   */
  readonly reverted?: Record<string, FileState[]>;
  readonly checkpoints: Checkpoint[];
  /** Lines changed per step path ('' outside any step), then per file. */
  readonly lines?: Record<string, Record<string, LineCount>>;
  /** The out-of-scope changes and who allowed each. */
  readonly drift?: DriftRecord[];
  /** How the build ended, once it did: with the facts above, what its report is written from. */
  readonly closed?: BuildClosing;
}

/** How a build ended, the scope it ran under, and the revision of the plan it built. */
export interface BuildClosing {
  readonly outcome: BuildOutcome;
  readonly reason?: string;
  readonly scope?: readonly ScopeEntry[];
  /** The plan's revision count when the build ended: a later revision is another plan. */
  readonly revision?: number;
}

export interface LedgerOptions {
  readonly session: string;
  readonly root: string;
  readonly mode: ScopeMode;
  /** Absent for a build without a plan: everything is then in scope. */
  readonly scope?: PlanScope;
  readonly planFile?: string;
  readonly store?: CheckpointStore;
  readonly now: () => number;
  /** Called after the manifest failed to persist (the build goes on; revert may be incomplete). */
  readonly onStoreError?: (error: Error) => void;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function textOf(data: Uint8Array | undefined): string | undefined {
  if (data === undefined) return '';
  try {
    return decoder.decode(data);
  } catch {
    return undefined;
  }
}

/** Lines added and removed from `before` to `after` (binary content counts as no lines). */
export function countLines(before: Uint8Array | undefined, after: Uint8Array | undefined): LineCount {
  const a = textOf(before);
  const b = textOf(after);
  if (a === undefined || b === undefined) return { added: 0, removed: 0 };
  let added = 0;
  let removed = 0;
  for (const part of diffLines(a, b)) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { added, removed };
}

export class BuildLedger {
  mode: ScopeMode;
  private scopeNow: PlanScope | undefined;
  private readonly reads = new Map<string, string>();
  private readonly allowedFiles = new Set<string>();
  private allowedForBuild = false;
  private readonly manifest: BuildManifest & {
    lines: Record<string, Record<string, LineCount>>;
    drift: DriftRecord[];
    closed?: BuildClosing;
  };
  private stepNow: string | undefined;
  private persistQueue: Promise<void> = Promise.resolve();
  /** Set when the person chose "stop and replan": every later write is refused. */
  replanReason: string | undefined;

  constructor(private readonly opts: LedgerOptions) {
    this.mode = opts.mode;
    this.scopeNow = opts.scope;
    this.manifest = {
      version: 1,
      session: opts.session,
      root: opts.root,
      ...(opts.planFile !== undefined ? { planFile: opts.planFile } : {}),
      baseline: {},
      current: {},
      checkpoints: [],
      lines: Object.create(null) as Record<string, Record<string, LineCount>>,
      drift: [],
    };
  }

  get scope(): PlanScope | undefined {
    return this.scopeNow;
  }

  /** A mid-execution replan: the new revision's scope holds from now on. */
  setScope(scope: PlanScope, planFile?: string): void {
    this.scopeNow = scope;
    if (planFile !== undefined) (this.manifest as { planFile?: string }).planFile = planFile;
  }

  get step(): string | undefined {
    return this.stepNow;
  }

  stepStarted(step: string): void {
    this.stepNow = step;
  }

  // ---- scope ---------------------------------------------------------------------------------

  /** Whether `rel` may be written without asking: in scope, or allowed by the person already. */
  inScope(rel: string): boolean {
    if (!this.scopeNow) return true;
    return this.scopeNow.covers(rel) !== undefined;
  }

  alreadyAllowed(rel: string): DriftAllowance | undefined {
    if (this.allowedForBuild) return 'person (rest of the build)';
    if (this.allowedFiles.has(rel)) return 'person (this file)';
    return undefined;
  }

  allowFile(rel: string): void {
    this.allowedFiles.add(rel);
  }

  allowForBuild(): void {
    this.allowedForBuild = true;
  }

  recordDrift(path: string, action: WriteAction, allowedBy: DriftAllowance, command?: string): void {
    // One record per file: the first allowance is who let it out of scope.
    if (this.manifest.drift.some((d) => d.path === path)) return;
    this.manifest.drift.push({
      path,
      action,
      allowedBy,
      ...(this.stepNow !== undefined ? { step: this.stepNow } : {}),
      ...(command !== undefined ? { command } : {}),
    });
  }

  get drift(): readonly DriftRecord[] {
    return this.manifest.drift;
  }

  // ---- reads ---------------------------------------------------------------------------------

  /** The agent read `rel` as `data` (what it will compute its next edit against). */
  noteRead(rel: string, data: Uint8Array | string): void {
    this.reads.set(rel, hashOf(data));
  }

  /**
   * Whether the agent's last read of `rel` still matches `data`; true when it never read the file
   * (its edit is then computed on the current text anyway).
   */
  freshSinceRead(rel: string, data: Uint8Array | string): boolean {
    const seen = this.reads.get(rel);
    return seen === undefined || seen === hashOf(data);
  }

  // ---- writes and checkpoints ----------------------------------------------------------------

  /** Paths the build touched, in the order it first touched them. */
  get touched(): readonly string[] {
    return Object.keys(this.manifest.baseline);
  }

  /** The session's checkpoint store, when the host gave one. */
  get store(): CheckpointStore | undefined {
    return this.opts.store;
  }

  /** The workspace root the ledger's relative paths hang off. */
  get root(): string {
    return this.opts.root;
  }

  /** The session clock's time. */
  now(): number {
    return this.opts.now();
  }

  get snapshot(): BuildManifest {
    return this.manifest;
  }

  /** The build ended: how, under which scope and on which revision, kept in the manifest for its report. */
  close(outcome: BuildOutcome, reason?: string, revision?: number): Promise<void> {
    this.manifest.closed = {
      outcome,
      ...(reason !== undefined ? { reason } : {}),
      ...(this.scopeNow ? { scope: this.scopeNow.entries } : {}),
      ...(revision !== undefined ? { revision } : {}),
    };
    return this.persist();
  }

  /**
   * Records the state of `rel` before the build's first write of it: the "before" checkpoint
   * grows by this file, stored before the write happens. Call before writing.
   */
  async beforeWrite(rel: string, before: Uint8Array | undefined): Promise<void> {
    if (rel in this.manifest.baseline) return;
    const state = stateOf(before);
    if (before !== undefined && state.kind === 'file') await this.opts.store?.put(state.hash, before);
    this.manifest.baseline[rel] = state;
    this.manifest.current[rel] = state;
    await this.persist();
  }

  /**
   * Records what a write left: the file's new state and its line counts against the step. A file
   * tool's write counts as the agent's read of what it wrote; a shell command's (`agentSaw: false`)
   * does not, so an edit computed on the agent's older read of the file is refused as stale.
   */
  async afterWrite(
    rel: string,
    before: Uint8Array | undefined,
    after: Uint8Array | undefined,
    opts: { readonly agentSaw?: boolean } = {},
  ): Promise<void> {
    const state = stateOf(after);
    if (after !== undefined && state.kind === 'file') await this.opts.store?.put(state.hash, after);
    this.manifest.current[rel] = state;
    // After a shell command the agent's last read (if any) stays what it saw.
    if (opts.agentSaw !== false) {
      if (after !== undefined) this.reads.set(rel, state.kind === 'file' ? state.hash : '');
      else this.reads.delete(rel);
    }
    const count = countLines(before, after);
    // Records without a prototype: a file may be named `__proto__`.
    const perFile = (this.manifest.lines[this.stepNow ?? ''] ??= Object.create(null) as Record<string, LineCount>);
    const sum = (perFile[rel] ??= { added: 0, removed: 0 });
    sum.added += count.added;
    sum.removed += count.removed;
    await this.persist();
  }

  /** A step completed: a checkpoint of every file touched so far. */
  async stepCompleted(step: string): Promise<void> {
    this.manifest.checkpoints.push({ label: 'step', step, at: this.opts.now(), files: { ...this.manifest.current } });
    if (this.stepNow === step) this.stepNow = undefined;
    await this.persist();
  }

  /** The manifest as stored; writes are serialised so the last one wins. */
  private persist(): Promise<void> {
    const store = this.opts.store;
    if (!store) return Promise.resolve();
    const text = JSON.stringify(this.manifest);
    this.persistQueue = this.persistQueue
      .then(() => store.writeManifest(text))
      .catch((err: unknown) => this.opts.onStoreError?.(err instanceof Error ? err : new Error(String(err))));
    return this.persistQueue;
  }
}
