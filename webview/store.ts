/**
 * The panel's copy of the host's view state. It takes raw host messages, checks them, applies a
 * snapshot or the next delta, and asks for a resync on a sequence gap. Deltas are queued and
 * applied once per animation frame, so a burst of streamed tokens costs one render.
 *
 * The protocol's schemas (zod) are not part of the panel's first paint: main.tsx hands the store
 * the check as a promise of the chunk that holds them. Until it arrives, the page's snapshot is
 * shown as the host wrote it (checked as soon as the check is there; a snapshot that fails is
 * dropped and a fresh one asked for) and every message waits, in order, to be checked.
 */
import { applyOps, coalesceOps } from '../src/protocol/apply';
import { emptyViewState } from '../src/protocol/emptyState';
import type { DeltaOp, HostMessage, SnapshotMessage } from '../src/protocol/hostMessages';
import type { ParseResult } from '../src/protocol/parse';
import type { ViewState } from '../src/protocol/viewState';
import { parseAppendDelta } from './appendDelta';
import type { Post } from './bridge';

/** Checks one raw host message against the protocol's schemas; never throws. */
export type HostMessageCheck = (raw: unknown) => ParseResult<HostMessage>;

export type Scheduler = (flush: () => void) => void;

export interface StoreOptions {
  post: Post;
  /** The protocol's check of host messages, or the chunk that holds it, still loading. */
  check: HostMessageCheck | Promise<HostMessageCheck>;
  /** Runs `flush` before the next paint. Defaults to `requestAnimationFrame` with a timer fallback. */
  schedule?: Scheduler;
  /** Where dropped messages are reported; defaults to `console.warn`. */
  warn?: (message: string) => void;
  /** Clock for resync throttling (ms). */
  now?: () => number;
}

/** How long to wait before asking again for a snapshot the host has not sent. */
const RESYNC_RETRY_MS = 1000;

/** rAF does not run while a view is hidden; the timer makes sure queued deltas still land. */
export const frameScheduler: Scheduler = (flush) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    // Whichever comes second is dropped: no leftover timer task for every frame.
    clearTimeout(timer);
    flush();
  };
  const timer = setTimeout(once, 100);
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(once);
};

export class PanelStore {
  private state: ViewState = emptyViewState();
  /** Sequence number of the last snapshot or delta applied; -1 before the first snapshot. */
  private seq = -1;
  private waitingForSnapshot = true;
  private lastResyncAt = Number.NEGATIVE_INFINITY;
  private queue: DeltaOp[] = [];
  private pendingState: ViewState | undefined;
  private scheduled = false;
  private readonly listeners = new Set<() => void>();
  private dropped = 0;
  /** Set once the check has loaded; until then messages wait in `inbox`. */
  private check: HostMessageCheck | undefined;
  private inbox: unknown[] = [];
  /** The check could not load: every message is dropped (said once). */
  private checkFailed = false;
  /** The page's snapshot, shown before the check had loaded: checked when it arrives. */
  private unchecked: unknown;
  private readonly post: Post;
  private readonly schedule: Scheduler;
  private readonly warn: (message: string) => void;
  private readonly now: () => number;

  constructor(options: StoreOptions) {
    this.post = options.post;
    this.schedule = options.schedule ?? frameScheduler;
    this.warn = options.warn ?? ((m) => console.warn(`[planwise] ${m}`));
    this.now = options.now ?? (() => Date.now());
    if (typeof options.check === 'function') {
      this.check = options.check;
    } else {
      options.check.then(
        (check) => this.checkArrived(check),
        (err: unknown) => {
          this.checkFailed = true;
          this.dropped += this.inbox.length;
          this.inbox = [];
          this.warn(`The panel could not load its message checks, so it cannot follow the host: ${String(err)}`);
        },
      );
    }
  }

  getState(): ViewState {
    return this.state;
  }

  /** The last sequence number received (applied or queued); -1 before the first snapshot. */
  get lastSeq(): number {
    return this.seq;
  }

  /** How many host messages were malformed and dropped. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** True until a snapshot arrives (at start and after a gap). */
  get awaitingSnapshot(): boolean {
    return this.waitingForSnapshot;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells the host the panel is listening. `initial` is the snapshot the page carried, if any:
   * applied at once, so the first render shows it, and named in `ready` (its `seq`), so the host
   * answers with a snapshot only when its state has moved on. Without one the host answers with
   * a snapshot.
   */
  start(initial?: unknown): void {
    if (initial !== undefined) {
      if (this.check) {
        const parsed = this.check(initial);
        if (this.usablePageSnapshot(parsed)) this.takeSnapshot(parsed.msg);
      } else if (looksLikeSnapshot(initial)) {
        // Shown now, checked when the check arrives (checkArrived).
        this.unchecked = initial;
        this.takeSnapshot(initial);
      } else {
        this.usablePageSnapshot({ ok: false, error: 'it is not a snapshot' });
      }
      this.flush();
    }
    this.lastResyncAt = this.now();
    this.post(this.waitingForSnapshot ? { type: 'ready' } : { type: 'ready', seq: this.seq });
  }

  /** Handles one raw message from the host. Never throws. */
  receive(raw: unknown): void {
    if (!this.check) {
      if (this.checkFailed) this.dropped += 1;
      else this.inbox.push(raw);
      return;
    }
    const fast = parseAppendDelta(raw);
    const parsed = fast ? ({ ok: true, msg: fast } as const) : this.check(raw);
    if (!parsed.ok) {
      this.dropped += 1;
      this.warn(parsed.error);
      return;
    }
    const msg = parsed.msg;
    if (msg.type === 'snapshot') {
      this.takeSnapshot(msg);
      this.requestFlush();
      return;
    }
    if (this.waitingForSnapshot) {
      this.askForSnapshot();
      return;
    }
    if (msg.seq <= this.seq) return; // already applied (a replay)
    if (msg.seq !== this.seq + 1) {
      this.warn(`Missed host updates ${this.seq + 1}–${msg.seq - 1}; asking for a fresh snapshot.`);
      this.waitingForSnapshot = true;
      this.askForSnapshot();
      return;
    }
    this.seq = msg.seq;
    this.queue.push(...msg.ops);
    this.requestFlush();
  }

  /** Applies everything queued now (normally called by the scheduler). */
  flush(): void {
    this.scheduled = false;
    let next = this.pendingState ?? this.state;
    this.pendingState = undefined;
    if (this.queue.length > 0) {
      next = applyOps(next, coalesceOps(this.queue));
      this.queue = [];
    }
    if (next === this.state) return;
    this.state = next;
    for (const l of [...this.listeners]) l();
  }

  /**
   * The check has loaded: the page's snapshot shown unchecked is checked now (dropped, and a fresh
   * one asked for, if it fails), then the messages that came meanwhile are handled in order.
   */
  private checkArrived(check: HostMessageCheck): void {
    this.check = check;
    const unchecked = this.unchecked;
    this.unchecked = undefined;
    if (unchecked !== undefined) {
      if (!this.usablePageSnapshot(check(unchecked))) {
        this.seq = -1;
        this.queue = [];
        this.pendingState = emptyViewState();
        this.waitingForSnapshot = true;
        this.flush();
        this.lastResyncAt = Number.NEGATIVE_INFINITY;
        this.askForSnapshot();
      }
    }
    const waiting = this.inbox;
    this.inbox = [];
    for (const raw of waiting) this.receive(raw);
  }

  /** True when the page's checked snapshot can be used; otherwise it is counted and said. */
  private usablePageSnapshot(parsed: ParseResult<HostMessage>): parsed is { ok: true; msg: SnapshotMessage } {
    if (parsed.ok && parsed.msg.type === 'snapshot') return true;
    this.dropped += 1;
    this.warn(`The page's snapshot was not used: ${parsed.ok ? `it is a ${parsed.msg.type}` : parsed.error}`);
    return false;
  }

  private takeSnapshot(msg: SnapshotMessage): void {
    this.seq = msg.seq;
    this.waitingForSnapshot = false;
    this.lastResyncAt = Number.NEGATIVE_INFINITY; // answered: a later gap may ask at once
    this.queue = [];
    this.pendingState = msg.state;
  }

  private askForSnapshot(): void {
    const t = this.now();
    if (t - this.lastResyncAt < RESYNC_RETRY_MS) return;
    this.lastResyncAt = t;
    this.post({ type: 'resync', lastSeq: this.seq });
  }

  private requestFlush(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }
}

/** The shape the page's snapshot must have to be shown before it is checked. */
function looksLikeSnapshot(raw: unknown): raw is SnapshotMessage {
  if (typeof raw !== 'object' || raw === null) return false;
  const { type, seq, state } = raw as Record<string, unknown>;
  return type === 'snapshot' && typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 && isViewState(state);
}

/** Every top-level part of a view state is there (the check proper comes with the schemas). */
function isViewState(state: unknown): boolean {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return false;
  const s = state as Record<string, unknown>;
  return Object.keys(emptyViewState()).every((k) => k in s) && Array.isArray(s['transcript']);
}
