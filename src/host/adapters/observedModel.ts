/**
 * Wraps the model client to log one summary line per request and per response (debug level,
 * never message contents or keys), to tell the host about failures the person can fix (a wrong
 * key, an unreachable server), so it can offer the right action, and to pass on a retry's wait
 * (the status bar counts it down) and the end of it.
 */
import { ModelError, type ModelClient, type ModelRequest, type ModelStreamEvent } from '../../core/api/ports';

export type RetryEvent = Extract<ModelStreamEvent, { type: 'retry' }>;

export interface ModelObserver {
  debug(line: string): void;
  onError(err: ModelError): void;
  /** A request failed and will be sent again after `event.waitMs`. */
  onRetry?(event: RetryEvent): void;
  /** The wait (if any) is over: the model answered, or the request ended. */
  onSettled?(): void;
}

export class ObservedModelClient implements ModelClient {
  private requests = 0;
  readonly countTokens?: ModelClient['countTokens'];
  readonly contextWindow?: ModelClient['contextWindow'];

  constructor(
    private readonly inner: ModelClient,
    private readonly observer: ModelObserver,
    private readonly now: () => number = Date.now,
  ) {
    if (inner.countTokens) this.countTokens = inner.countTokens.bind(inner);
    if (inner.contextWindow) this.contextWindow = inner.contextWindow.bind(inner);
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent> {
    const n = ++this.requests;
    const started = this.now();
    const chars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
    this.observer.debug(
      `model request #${n}: model=${request.model} messages=${request.messages.length} ` +
        `tools=${request.tools?.length ?? 0} chars=${chars}`,
    );
    let waiting = false;
    try {
      for await (const event of this.inner.stream(request, signal)) {
        if (event.type === 'retry') {
          waiting = true;
          this.observer.onRetry?.(event);
        } else if (waiting) {
          waiting = false;
          this.observer.onSettled?.();
        }
        if (event.type === 'done') {
          const u = event.usage;
          this.observer.debug(
            `model response #${n}: finish=${event.finishReason} text=${event.content.length} chars ` +
              `toolCalls=${event.toolCalls.length}` +
              (u ? ` tokens in/out=${u.promptTokens}/${u.completionTokens}` : '') +
              ` in ${this.now() - started} ms`,
          );
        }
        yield event;
      }
    } catch (err) {
      const kind = err instanceof ModelError ? err.kind : 'error';
      this.observer.debug(`model request #${n} failed after ${this.now() - started} ms (${kind})`);
      if (err instanceof ModelError && err.kind !== 'aborted') this.observer.onError(err);
      throw err;
    } finally {
      if (waiting) this.observer.onSettled?.();
    }
  }
}
