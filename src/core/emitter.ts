/**
 * Listeners of one kind of value. A listener that throws is reported through `onError` and never
 * stops the other listeners or whoever fired: one failing view must not hide a change from the rest.
 */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** @param onError where a listener's error goes (by default the console's error stream). */
  constructor(private readonly onError: (err: unknown) => void = reportListenerError) {}

  /** Adds a listener until the returned subscription is disposed. */
  on(listener: (value: T) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** Hands `value` to every listener, in the order they were added; one added meanwhile waits for the next. */
  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  /** Removes every listener. */
  clear(): void {
    this.listeners.clear();
  }
}

/** The default report of a listener's error. */
export function reportListenerError(err: unknown): void {
  console.error('Planwise: a listener failed:', err);
}
