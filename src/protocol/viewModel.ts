/**
 * The host's side of snapshot-then-deltas: it owns the authoritative view state and the
 * sequence counter. The host calls `update(ops)` for every change and posts the delta it
 * returns (or, while the view is hidden, drops it and posts `snapshot()` when the view is
 * visible again: the snapshot already contains every change).
 */
import { applyOps } from './apply';
import type { DeltaMessage, DeltaOp, SnapshotMessage } from './hostMessages';
import { emptyViewState } from './emptyState';
import type { ViewState } from './viewState';

export class ViewModel {
  private current: ViewState;
  private seq = 0;

  constructor(initial: ViewState = emptyViewState()) {
    this.current = initial;
  }

  get state(): ViewState {
    return this.current;
  }

  /** The sequence number of the last message produced. */
  get lastSeq(): number {
    return this.seq;
  }

  /** Applies `ops` and returns the delta to post; undefined when `ops` is empty. */
  update(ops: readonly DeltaOp[]): DeltaMessage | undefined {
    if (ops.length === 0) return undefined;
    this.current = applyOps(this.current, ops);
    this.seq += 1;
    return { type: 'delta', seq: this.seq, ops: [...ops] };
  }

  /** A full snapshot; the next delta continues from its `seq`. */
  snapshot(): SnapshotMessage {
    this.seq += 1;
    return { type: 'snapshot', seq: this.seq, state: this.current };
  }

  /** Replaces the whole state (e.g. a fresh-context handoff) and returns the snapshot to post. */
  reset(state: ViewState): SnapshotMessage {
    this.current = state;
    return this.snapshot();
  }
}
