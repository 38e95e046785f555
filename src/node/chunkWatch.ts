/**
 * Waits for the chunks of one streamed response with one timer and one abort listener for the whole
 * stream, rather than a new timer and listener per chunk: a tool loop reads several chunks per
 * model request, thousands per session. Each wait may last at most `timeoutMs`; the time between
 * two waits (while the caller handles a chunk) does not count.
 */
export class ChunkWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Rejects the wait in progress; undefined between waits. */
  private fail: ((err: unknown) => void) | undefined;
  private readonly onAbort = () => this.fail?.(this.abortError());

  constructor(
    private readonly timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly timeoutError: () => Error,
    private readonly abortError: () => Error,
  ) {
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The iterator's next result, or a rejection when the signal aborts or nothing came within `timeoutMs`. */
  next<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T>> {
    if (this.signal?.aborted) return Promise.reject(this.abortError());
    return new Promise<IteratorResult<T>>((resolve, reject) => {
      const fail = (err: unknown) => {
        if (this.fail !== fail) return; // this wait already ended
        this.fail = undefined;
        reject(err);
      };
      this.fail = fail;
      // Re-arming the one timer (also after it fired between two waits) starts this wait's clock.
      if (this.timer === undefined) this.timer = setTimeout(() => this.fail?.(this.timeoutError()), this.timeoutMs);
      else this.timer.refresh();
      iterator.next().then(
        (r) => {
          if (this.fail !== fail) return;
          this.fail = undefined;
          resolve(r);
        },
        (e: unknown) => fail(e),
      );
    });
  }

  /** Clears the timer and the abort listener; call once the stream is done with. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    this.fail = undefined;
  }
}
