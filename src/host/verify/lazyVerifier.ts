/**
 * The engine's one Verifier, built on first use: building it loads dist/engine.js, which an idle
 * panel never needs. Until it exists there are no results (the lenses show none, the minute tick
 * has nothing to refresh); listeners asked for before that are attached when it is built.
 */
import type { Verifier } from '../../core/api/build';

type Listener = Parameters<Verifier['onRecorded']>[0];

export class LazyVerifier implements Pick<Verifier, 'onRecorded' | 'hasResults' | 'latest' | 'cancelAll'> {
  private instance: Verifier | undefined;
  /** Listeners asked for before the Verifier existed, and how to detach each once attached. */
  private readonly waiting = new Map<Listener, (() => void) | undefined>();

  constructor(private readonly make: () => Verifier) {}

  /** The Verifier, built now when it does not exist yet. */
  get(): Verifier {
    if (!this.instance) {
      this.instance = this.make();
      for (const l of this.waiting.keys()) this.waiting.set(l, this.instance.onRecorded(l));
    }
    return this.instance;
  }

  get built(): boolean {
    return this.instance !== undefined;
  }

  onRecorded(listener: Listener): () => void {
    if (this.instance) return this.instance.onRecorded(listener);
    this.waiting.set(listener, undefined);
    return () => {
      this.waiting.get(listener)?.();
      this.waiting.delete(listener);
    };
  }

  get hasResults(): boolean {
    return this.instance?.hasResults ?? false;
  }

  latest(...args: Parameters<Verifier['latest']>): ReturnType<Verifier['latest']> {
    return this.instance?.latest(...args);
  }

  cancelAll(): void {
    this.instance?.cancelAll();
  }
}
