/**
 * The run as the panel shows it: the lifecycle (state, mode, busy, since when the model is silent),
 * sent only when it changes, and the handoff's steps while an approved plan is handed to the build
 * agent. Pure: it turns what happened into the panel's ops.
 */
import type { DeltaOp, HandoffStep, Lifecycle } from '../../protocol';

export class RunStatus {
  private lifecycle: Lifecycle = { state: 'idle', mode: 'plan', busy: false };
  private handoff: HandoffStep[] | undefined;

  get current(): Lifecycle {
    return this.lifecycle;
  }

  /** Starts again from `lifecycle`, with no handoff (a new session starts with an empty panel). */
  reset(lifecycle: Lifecycle): void {
    this.lifecycle = lifecycle;
    this.handoff = undefined;
  }

  /** The lifecycle as the host knows it now, with no handoff under way (forgotten without an op). */
  sync(lifecycle: Lifecycle): DeltaOp[] {
    this.handoff = undefined;
    return this.set(lifecycle);
  }

  /** Applies `patch` to the lifecycle; one op when that changed it, none otherwise. */
  set(patch: { [K in keyof Lifecycle]?: Lifecycle[K] | undefined }): DeltaOp[] {
    const merged = { ...this.lifecycle, ...patch };
    // A run that is over waits for nothing.
    const waitingSince = merged.busy ? merged.waitingSince : undefined;
    const { waitingSince: _dropped, ...rest } = merged;
    const next: Lifecycle = { ...rest, ...(waitingSince !== undefined ? { waitingSince } : {}) };
    const prev = this.lifecycle;
    if (
      next.state === prev.state &&
      next.mode === prev.mode &&
      next.busy === prev.busy &&
      next.waitingSince === prev.waitingSince
    ) {
      return [];
    }
    this.lifecycle = next;
    return [{ op: 'lifecycle.set', lifecycle: next }];
  }

  /** The plan was approved for a build: the handoff's steps follow, one per `progress` message. */
  startHandoff(): void {
    this.handoff = [];
  }

  /** One handoff step: the active one is done and `message` is active. Nothing outside a handoff. */
  progress(message: string): DeltaOp[] {
    if (this.handoff === undefined) return [];
    const steps: HandoffStep[] = this.handoff.map((s) => (s.status === 'active' ? { ...s, status: 'done' } : s));
    steps.push({ label: message, status: 'active' });
    this.handoff = steps;
    return [{ op: 'handoff.set', handoff: { steps } }];
  }

  /** The handoff is over (the build's first turn started): the panel stops showing its steps. */
  endHandoff(): DeltaOp[] {
    if (this.handoff === undefined) return [];
    this.handoff = undefined;
    return [{ op: 'handoff.set', handoff: null }];
  }
}
