/**
 * The two timeouts Planwise enforces on one model request, each with one timer:
 * - first byte: from sending the request until the first byte of the response body (headers alone
 *   do not count: a server can send them at once and then load the model for minutes);
 * - idle: from one body byte to the next, for the rest of the stream.
 * When one fires it records which, after how long and what had arrived, and aborts the request
 * through its own controller (linked to the caller's signal, which aborts it too).
 */

export type TimeoutKind = 'first-byte' | 'idle';

export interface FiredTimeout {
  readonly kind: TimeoutKind;
  /** The limit that was reached, in ms. */
  readonly limitMs: number;
  /** When the headers had arrived, ms after the request was sent (first-byte only). */
  readonly headersAfterMs?: number;
  /** Body bytes received before it fired. */
  readonly bytes: number;
}

export class RequestWatch {
  readonly controller = new AbortController();
  fired: FiredTimeout | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly startedAt: number;
  private headersAt: number | undefined;
  private bytes = 0;
  private readonly onParentAbort = () => this.controller.abort(this.parent?.reason);

  constructor(
    private readonly firstByteMs: number,
    private readonly idleMs: number,
    private readonly parent: AbortSignal | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    if (parent?.aborted) this.controller.abort(parent.reason);
    else parent?.addEventListener('abort', this.onParentAbort, { once: true });
    this.timer = setTimeout(() => this.fire('first-byte'), firstByteMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once any body byte arrived. */
  get delivered(): boolean {
    return this.bytes > 0;
  }

  onHeaders(): void {
    this.headersAt ??= this.now();
  }

  onBytes(n: number): void {
    if (n <= 0 || this.fired) return;
    const first = this.bytes === 0;
    this.bytes += n;
    if (first) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.fire('idle'), this.idleMs);
    } else {
      this.timer?.refresh();
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }

  private fire(kind: TimeoutKind): void {
    if (this.fired || this.controller.signal.aborted) return;
    this.fired = {
      kind,
      limitMs: kind === 'first-byte' ? this.firstByteMs : this.idleMs,
      ...(kind === 'first-byte' && this.headersAt !== undefined
        ? { headersAfterMs: this.headersAt - this.startedAt }
        : {}),
      bytes: this.bytes,
    };
    this.controller.abort();
  }
}
