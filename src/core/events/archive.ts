/**
 * The session archive: every thread event, appended as one JSON line the moment it is emitted,
 * plus checkpoint lines holding snapshots (lifecycle, tracker, budgets) for resume.
 *
 * Appends go through the `ArchiveStore` port strictly one after another, in emission order, so
 * lines never interleave. A failing append never throws into the event bus: it is reported
 * through `onError`, counted, and makes `verifyPersisted()` fail, so a resume is advertised only
 * for an archive that was really written. Loading tolerates a torn last line (a process killed
 * mid-append) and skips any other unreadable line, reporting both.
 */
import type { ArchiveStore } from '../ports';
import type { EventBus } from './bus';
import type { ThreadEvent } from './types';

export interface EventRecord {
  readonly kind: 'event';
  readonly event: ThreadEvent;
}

export interface CheckpointRecord {
  readonly kind: 'checkpoint';
  /** The sequence number of the last event archived before this checkpoint (0: none yet). */
  readonly afterSeq: number;
  readonly at: number;
  readonly state: unknown;
}

export type ArchiveRecord = EventRecord | CheckpointRecord;

export interface LoadedSession {
  readonly events: ThreadEvent[];
  readonly lastCheckpoint?: CheckpointRecord;
  /** The highest event sequence number found (0 when there are no events). */
  readonly lastSeq: number;
  /** True when the last line was cut off, e.g. by a kill in the middle of an append. */
  readonly tornTail: boolean;
  /** Unreadable lines other than a torn last line (e.g. a torn line that later appends followed). */
  readonly skippedLines: number;
}

export type PersistCheck =
  { readonly ok: true; readonly lastSeq: number } | { readonly ok: false; readonly reason: string };

export interface SessionArchiveOptions {
  /** Called for every failed append of a bus event; never throws into the bus. */
  readonly onError?: (error: Error) => void;
  /** Clock for checkpoint timestamps. */
  readonly now?: () => number;
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

function isThreadEvent(v: unknown): v is ThreadEvent {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as { type?: unknown; seq?: unknown; at?: unknown };
  return typeof e.type === 'string' && Number.isInteger(e.seq) && typeof e.at === 'number';
}

function parseRecord(line: string): ArchiveRecord | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as { kind?: unknown; event?: unknown; afterSeq?: unknown; at?: unknown; state?: unknown };
  if (r.kind === 'event' && isThreadEvent(r.event)) return { kind: 'event', event: r.event };
  if (r.kind === 'checkpoint' && typeof r.afterSeq === 'number' && Number.isInteger(r.afterSeq)) {
    if (typeof r.at === 'number' && 'state' in r)
      return { kind: 'checkpoint', afterSeq: r.afterSeq, at: r.at, state: r.state };
  }
  return undefined;
}

export class SessionArchive {
  private tail: Promise<void> = Promise.resolve();
  private lastQueuedSeq = 0;
  private writeFailures = 0;
  private lastFailure: Error | undefined;

  constructor(
    private readonly store: ArchiveStore,
    readonly sessionId: string,
    private readonly options: SessionArchiveOptions = {},
  ) {}

  /** Archives every event the bus emits from now on. Returns a function that detaches. */
  attach(bus: EventBus): () => void {
    return bus.on((event) => {
      this.append(event).catch((err: unknown) => this.options.onError?.(asError(err)));
    });
  }

  /** Queues one event. The promise settles when its line is written (or rejects if it failed). */
  append(event: ThreadEvent): Promise<void> {
    let line: string;
    try {
      line = JSON.stringify({ kind: 'event', event } satisfies EventRecord);
    } catch (err) {
      return this.fail(new Error(`event ${event.seq} (${event.type}) cannot be archived: ${asError(err).message}`));
    }
    this.lastQueuedSeq = Math.max(this.lastQueuedSeq, event.seq);
    return this.enqueue(line, `event ${event.seq} (${event.type})`);
  }

  /**
   * Queues a checkpoint of `state` (lifecycle, tracker, budgets …) after the events queued so far.
   * `state` must be plain JSON; the promise rejects, naming the reason, when it is not or when
   * the write fails.
   */
  checkpoint(state: unknown): Promise<void> {
    if (state === undefined || typeof state === 'function') {
      return this.fail(new Error(`the checkpoint cannot be archived: its state is ${typeof state}, not JSON data`));
    }
    const record: CheckpointRecord = {
      kind: 'checkpoint',
      afterSeq: this.lastQueuedSeq,
      at: (this.options.now ?? Date.now)(),
      state,
    };
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch (err) {
      return this.fail(new Error(`the checkpoint cannot be archived: ${asError(err).message}`));
    }
    return this.enqueue(line, `checkpoint after event ${record.afterSeq}`);
  }

  /** Resolves once every line queued so far has been written or has failed. */
  flush(): Promise<void> {
    return this.tail;
  }

  /** Write failures so far (each also went to `onError` or rejected its caller). */
  get failures(): number {
    return this.writeFailures;
  }

  /**
   * Waits for queued writes, then reads the archive back: ok only when no write failed and the
   * stored archive holds the last event queued. Call it before advertising a resume.
   */
  async verifyPersisted(): Promise<PersistCheck> {
    await this.flush();
    if (this.writeFailures > 0) {
      return {
        ok: false,
        reason: `${this.writeFailures} write(s) to session archive "${this.sessionId}" failed; last error: ${this.lastFailure?.message ?? 'unknown'}`,
      };
    }
    return SessionArchive.verifyPersisted(this.store, this.sessionId, this.lastQueuedSeq);
  }

  /** Checks a stored archive: it exists, can be read and holds events up to `minSeq` (default 1). */
  static async verifyPersisted(store: ArchiveStore, sessionId: string, minSeq = 1): Promise<PersistCheck> {
    let loaded: LoadedSession | undefined;
    try {
      loaded = await SessionArchive.load(store, sessionId);
    } catch (err) {
      return { ok: false, reason: `session archive "${sessionId}" cannot be read: ${asError(err).message}` };
    }
    if (loaded === undefined) return { ok: false, reason: `no session archive "${sessionId}" was written` };
    if (loaded.lastSeq < minSeq) {
      return {
        ok: false,
        reason: `session archive "${sessionId}" ends at event ${loaded.lastSeq}, but event ${minSeq} was expected`,
      };
    }
    return { ok: true, lastSeq: loaded.lastSeq };
  }

  /**
   * The session can be resumed: its archive can be read and holds a checkpoint (what
   * `resumeSession` rebuilds from). Lists of sessions to resume show only these.
   */
  static async resumable(store: ArchiveStore, sessionId: string): Promise<boolean> {
    try {
      return (await SessionArchive.load(store, sessionId))?.lastCheckpoint !== undefined;
    } catch {
      return false;
    }
  }

  /** Reads a session back. Undefined when the store has no archive of that id. */
  static async load(store: ArchiveStore, sessionId: string): Promise<LoadedSession | undefined> {
    const lines = await store.read(sessionId);
    if (lines === undefined) return undefined;
    const events: ThreadEvent[] = [];
    let lastCheckpoint: CheckpointRecord | undefined;
    let lastSeq = 0;
    let unreadable = 0;
    let tornTail = false;
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      const record = parseRecord(line);
      if (record === undefined) {
        if (i === lines.length - 1) tornTail = true;
        else unreadable++;
      } else if (record.kind === 'event') {
        events.push(record.event);
        lastSeq = Math.max(lastSeq, record.event.seq);
      } else {
        lastCheckpoint = record;
      }
    });
    const result = { events, lastSeq, tornTail, skippedLines: unreadable };
    return lastCheckpoint === undefined ? result : { ...result, lastCheckpoint };
  }

  private enqueue(line: string, what: string): Promise<void> {
    const write = this.tail.then(() =>
      this.store.append(this.sessionId, line).catch((err: unknown) => {
        throw new Error(`could not archive ${what} in session "${this.sessionId}": ${asError(err).message}`);
      }),
    );
    // The chain goes on after a failure; the failure is counted and given to the caller.
    this.tail = write.then(
      () => undefined,
      (err: unknown) => {
        this.writeFailures++;
        this.lastFailure = asError(err);
      },
    );
    return write;
  }

  private fail(error: Error): Promise<void> {
    this.writeFailures++;
    this.lastFailure = error;
    return Promise.reject(error);
  }
}
