/** Anything with `dispose()`: VS Code's `Disposable`, an event subscription, our own objects. */
export interface Disposable {
  dispose(): unknown;
}

/**
 * Owns disposables and disposes them once, newest first. Adding to a disposed store disposes the
 * newcomer at once, so nothing registered late can leak. One failing `dispose()` does not stop the rest.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  /** Wraps a plain function as a disposable owned by this store. */
  addCallback(fn: () => void): void {
    this.add({ dispose: fn });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    while (this.items.length > 0) {
      const item = this.items.pop()!;
      try {
        item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) {
      throw new AggregateError(errors, `${errors.length} disposable(s) failed while shutting Planwise down`);
    }
  }
}

/** A function that runs `fn` once, and returns the same promise on every later call. */
export function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => {
    promise ??= fn().catch((err: unknown) => {
      // A failed load may be retried (e.g. after fixing a setting).
      promise = undefined;
      throw err;
    });
    return promise;
  };
}
