/**
 * The one table of requests waiting for the person: plan approvals, interview answers, grant-more
 * prompts, enter-planning prompts. Each request has an id (echoed back by the panel or resolved by
 * a command), an optional timeout with a safe default answer, and an optional abort signal.
 * Nothing polls: whoever has the answer calls `resolve(id, …)`; late or unknown answers are refused.
 */
import { Emitter } from '../../core/api/basics';

export type RequestKind = 'approval' | 'interview' | 'grantMore' | 'enterPlanning';

export interface OpenOptions<T> {
  /** After this many ms the request settles with `onTimeout()`; absent or 0: never. */
  readonly timeoutMs?: number;
  readonly onTimeout?: () => T;
  readonly signal?: AbortSignal;
  /** Extra data the UI shows (kept here so commands can find what is pending). */
  readonly data?: unknown;
}

export interface PendingEntry {
  readonly id: string;
  readonly kind: RequestKind;
  readonly data: unknown;
  readonly openedAt: number;
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

interface Slot extends PendingEntry {
  settle(value: unknown): void;
  fail(err: unknown): void;
}

export type SettleReason = 'answered' | 'timeout' | 'aborted' | 'closed';

export class PendingRequests {
  private readonly slots = new Map<string, Slot>();
  private readonly listeners = new Emitter<{ entry: PendingEntry; event: 'opened' | SettleReason }>();
  private counter = 0;

  constructor(
    private readonly timers: Timers = realTimers,
    private readonly now: () => number = Date.now,
    private readonly prefix: string = Math.random().toString(36).slice(2, 8),
  ) {}

  open<T>(kind: RequestKind, options: OpenOptions<T> = {}): { id: string; promise: Promise<T> } {
    const id = `${kind}-${this.prefix}-${++this.counter}`;
    let timer: unknown;
    let onAbort: (() => void) | undefined;
    const promise = new Promise<T>((resolve, reject) => {
      const cleanup = () => {
        if (timer !== undefined) this.timers.clear(timer);
        if (onAbort) options.signal?.removeEventListener('abort', onAbort);
        this.slots.delete(id);
      };
      const slot: Slot = {
        id,
        kind,
        data: options.data,
        openedAt: this.now(),
        settle: (value) => {
          cleanup();
          resolve(value as T);
        },
        fail: (err) => {
          cleanup();
          reject(err);
        },
      };
      if (options.signal?.aborted) {
        reject(abortReason(options.signal));
        return;
      }
      this.slots.set(id, slot);
      if (options.timeoutMs && options.timeoutMs > 0 && options.onTimeout) {
        const fallback = options.onTimeout;
        timer = this.timers.set(() => {
          if (!this.slots.has(id)) return;
          slot.settle(fallback());
          this.emit(slot, 'timeout');
        }, options.timeoutMs);
      }
      if (options.signal) {
        const signal = options.signal;
        onAbort = () => {
          if (!this.slots.has(id)) return;
          slot.fail(abortReason(signal));
          this.emit(slot, 'aborted');
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    const slot = this.slots.get(id);
    if (slot) this.emit(slot, 'opened');
    return { id, promise };
  }

  /** Settles request `id` of `kind` with `value`. False (and nothing happens) when it is not pending. */
  resolve(id: string, kind: RequestKind, value: unknown): boolean {
    const slot = this.slots.get(id);
    if (!slot || slot.kind !== kind) return false;
    slot.settle(value);
    this.emit(slot, 'answered');
    return true;
  }

  /**
   * Replaces what pending request `id` shows (the engine announced its gate again with a new
   * card). False when it is not pending.
   */
  setData(id: string, data: unknown): boolean {
    const slot = this.slots.get(id);
    if (!slot) return false;
    this.slots.set(id, { ...slot, data });
    return true;
  }

  get(id: string): PendingEntry | undefined {
    return this.slots.get(id);
  }

  /** The oldest pending request of `kind`, for commands that answer "the" open question. */
  first(kind: RequestKind): PendingEntry | undefined {
    for (const slot of this.slots.values()) if (slot.kind === kind) return slot;
    return undefined;
  }

  /** Everything pending, oldest first. */
  entries(): PendingEntry[] {
    return [...this.slots.values()];
  }

  has(kind: RequestKind): boolean {
    return this.first(kind) !== undefined;
  }

  get size(): number {
    return this.slots.size;
  }

  /** Rejects everything pending (the session ended or the window closes). */
  closeAll(reason: string): void {
    for (const slot of [...this.slots.values()]) {
      slot.fail(new Error(reason));
      this.emit(slot, 'closed');
    }
  }

  onDidChange(listener: (entry: PendingEntry, event: 'opened' | SettleReason) => void): { dispose(): void } {
    return this.listeners.on(({ entry, event }) => listener(entry, event));
  }

  /** A failing listener is reported and never leaves a request half-settled. */
  private emit(entry: PendingEntry, event: 'opened' | SettleReason): void {
    this.listeners.fire({ entry, event });
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('The request was cancelled');
}
