/**
 * The `ModelClient` for any OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio, vLLM,
 * OpenRouter, DeepSeek, Gemini): the `openai` SDK sends the request, and the chunks it parses go
 * through our own `StreamAccumulator` (the SDK's stream helpers throw on several real provider
 * streams).
 *
 * Transport:
 * - the SDK is given `streamFetch` over `httpFetch`, which has no timeouts of its own: Node's
 *   fetch would give up after 300 s by itself. Planwise's two timeouts (`RequestWatch`) are the
 *   only ones: first byte (default 120 s) and idle stream (default 120 s), each named in its
 *   message with the setting that raises it;
 * - 408/409/429/5xx, connection failures and streams that break before delivering anything are
 *   retried, waiting as long as the server's `retry-after-ms` / `Retry-After` (seconds or an HTTP
 *   date) says, up to 5 minutes, else with exponential backoff. Each wait is announced as a
 *   `retry` event first, so hosts can count it down; the `AbortSignal` ends it. A stream that
 *   already delivered text is never replayed;
 * - an endpoint that rejects `stream_options` is asked again without it;
 * - the `AbortSignal` cancels at any point with a `ModelError` of kind `aborted`.
 */
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import {
  ModelError,
  StreamAccumulator,
  type ModelClient,
  type ModelRequest,
  type ModelStreamEvent,
} from '../core/api/ports';
import { createHttpFetch } from './httpFetch';
import {
  abortedError,
  formatWait,
  rejectsStreamOptions,
  requestError,
  retryAdvice,
  streamError,
  timeoutError,
} from './openaiModelErrors';
import type { ErrorContext, RetryAdvice } from './openaiModelErrors';
import { SdkMessageCache, originOf, sendBack, toRequestBody } from './openaiRequest';
import { RequestWatch } from './requestWatch';
import { streamFetch, type ResponseNotes, type WatchedInit } from './streamFetch';

export { SdkMessageCache, originOf, toRequestBody } from './openaiRequest';

export interface OpenAIModelClientOptions {
  /** The API root, e.g. `http://localhost:11434/v1` or `https://api.openai.com/v1`. */
  readonly baseURL: string;
  /** Omit for endpoints that need none (Ollama, LM Studio, loopback servers). */
  readonly apiKey?: string;
  /** Retries after the first attempt for retryable failures (default 3). */
  readonly maxRetries?: number;
  /** Longest wait from sending the request to the first byte of the answer, in ms (default 120 s). */
  readonly firstByteTimeoutMs?: number;
  /** Longest wait between two pieces of a streaming answer, in ms (default 120 s). */
  readonly idleTimeoutMs?: number;
  /** Receives one line per notable transport event (retries, fallbacks, stream anomalies). */
  readonly log?: (line: string) => void;
  /** Headers added to every request (e.g. OpenRouter's `HTTP-Referer`). */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** The transport (proxies, tests); defaults to `httpFetch`, which has no timeouts of its own. */
  readonly fetch?: typeof fetch;
  /** How retries wait; tests pass one that records the delays. Must reject when `signal` aborts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock for `Retry-After` dates and timeouts (tests pass a fake one). */
  readonly now?: () => number;
  /**
   * The sentence ending a 401 (or a rejected key) message: what to set, in the host's words
   * (default: "Set the API key for this endpoint and try again.").
   */
  readonly authAdvice?: string;
  /** Makes ids for tool calls the provider sent without one. */
  readonly newToolCallId?: (ordinal: number) => string;
}

/** The key sent when none is configured: local servers ignore it, and the SDK requires one. */
export const NO_API_KEY = 'not-needed';

export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 120_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** The SDK's own timeout, set out of the way (setTimeout's limit is about 24.8 days). */
const SDK_TIMEOUT_MS = 2_000_000_000;

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Exponential backoff with jitter: ~0.5s, 1s, 2s, … capped at 8s. */
export function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** (attempt - 1), 8000) * (1 - Math.random() * 0.25);
}

/** A failure while reading a stream that may be retried when nothing was delivered yet. */
class BrokenStream extends Error {
  constructor(
    readonly error: ModelError,
    readonly reason: string,
    readonly toolCallsArrived = false,
  ) {
    super(error.message);
  }
}

export class OpenAIModelClient implements ModelClient {
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly notes = new WeakMap<Response, ResponseNotes>();
  private readonly maxRetries: number;
  private readonly firstByteMs: number;
  private readonly idleMs: number;
  private readonly log: (line: string) => void;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly hasApiKey: boolean;
  private readonly authAdvice: string | undefined;
  private readonly badBaseURL: string | undefined;
  /** Cleared once the endpoint rejects `stream_options`. */
  private includeUsage = true;
  private readonly sdkMessages = new SdkMessageCache();
  /** Round-trip fields each origin refused to take back (learnt from its 400), never sent again. */
  private readonly refusedFields = new Map<string, Set<string>>();

  constructor(private readonly options: OpenAIModelClientOptions) {
    this.baseURL = options.baseURL.trim().replace(/\/+$/, '');
    this.badBaseURL = checkBaseURL(this.baseURL);
    this.maxRetries = Math.max(0, options.maxRetries ?? 3);
    this.firstByteMs = options.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS;
    this.idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.log = options.log ?? (() => {});
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? Date.now;
    this.hasApiKey = Boolean(options.apiKey);
    this.authAdvice = options.authAdvice;
    const forward = (level: string) => (message: string) => this.log(`openai sdk ${level}: ${message}`);
    this.client = new OpenAI({
      baseURL: this.badBaseURL ? 'http://invalid.invalid' : this.baseURL,
      apiKey: options.apiKey || NO_API_KEY,
      organization: null,
      project: null,
      maxRetries: 0, // retries are ours: they are logged, honour retry-after, and are testable
      timeout: SDK_TIMEOUT_MS, // timeouts are ours too (RequestWatch)
      defaultHeaders: { ...options.extraHeaders },
      fetch: streamFetch(options.fetch ?? createHttpFetch(), this.notes, this.log, this.baseURL),
      logLevel: 'warn',
      logger: { error: forward('error'), warn: forward('warn'), info: forward('info'), debug: forward('debug') },
    });
  }

  private context(model: string): ErrorContext {
    return {
      baseURL: this.baseURL,
      model,
      hasApiKey: this.hasApiKey,
      ...(this.authAdvice !== undefined ? { authAdvice: this.authAdvice } : {}),
    };
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    const ctx = this.context(request.model);
    if (this.badBaseURL) throw new ModelError('unreachable', this.badBaseURL);
    if (signal?.aborted) throw abortedError();
    const attempts = this.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      let delivered = false;
      let advice: RetryAdvice;
      let failure: ModelError;
      try {
        for await (const event of this.attempt(request, ctx, signal)) {
          if (event.type === 'text' || event.type === 'reasoning') delivered = true;
          yield event;
        }
        return;
      } catch (err) {
        if (signal?.aborted) throw abortedError();
        if (err instanceof BrokenStream) {
          failure = err.error;
          // Tool-call fragments count as delivered too, though the call was not emitted yet.
          advice = { retry: !err.toolCallsArrived, reason: err.reason };
        } else if (err instanceof ModelError) {
          throw err;
        } else {
          if (this.includeUsage && rejectsStreamOptions(err)) {
            this.includeUsage = false;
            this.log(`${this.baseURL} rejects stream_options; asking again without usage reporting`);
            attempt--;
            continue;
          }
          const refused = refusedRoundTripField(err, request);
          if (refused) {
            const origin = originOf(this.baseURL, request.model);
            const set = this.refusedFields.get(origin) ?? new Set<string>();
            if (!set.has(refused)) {
              set.add(refused);
              this.refusedFields.set(origin, set);
              this.log(`${this.baseURL} refuses '${refused}' on assistant messages; asking again without it`);
              attempt--;
              continue;
            }
          }
          advice = retryAdvice(err, this.now);
          failure = requestError(err, ctx, attempt);
        }
      }
      // A stream that already delivered text is never replayed: the person saw it.
      if (delivered || !advice.retry || attempt >= attempts) throw failure;
      const wait = advice.afterMs ?? backoffMs(attempt);
      const reason = advice.reason ?? 'the request failed';
      this.log(
        `the model endpoint ${this.baseURL}: ${reason}; retrying in ${(wait / 1000).toFixed(1)}s ` +
          `(attempt ${attempt + 1} of ${attempts})`,
      );
      yield { type: 'retry', attempt: attempt + 1, maxAttempts: attempts, waitMs: wait, reason };
      await this.sleep(wait, signal);
    }
  }

  /** One request and its stream, watched by the two timeouts. */
  private async *attempt(
    request: ModelRequest,
    ctx: ErrorContext,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ModelStreamEvent> {
    const watch = new RequestWatch(this.firstByteMs, this.idleMs, signal, this.now);
    const timedOut = () => (watch.fired ? timeoutError(watch.fired, ctx) : undefined);
    let complete = false;
    let stream: Awaited<ReturnType<typeof this.open>>['data'] | undefined;
    try {
      let opened;
      try {
        opened = await this.open(request, watch);
      } catch (err) {
        throw timedOut() ?? err;
      }
      stream = opened.data;
      const acc = new StreamAccumulator({
        source: `model '${request.model}' at ${this.baseURL}`,
        origin: originOf(this.baseURL, request.model),
        ...(this.options.newToolCallId ? { newToolCallId: this.options.newToolCallId } : {}),
      });
      const iterator = stream[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<ChatCompletionChunk>;
        try {
          next = await iterator.next();
        } catch (err) {
          if (signal?.aborted) throw abortedError();
          const fired = timedOut();
          if (fired) throw fired;
          const mapped = streamError(err, ctx);
          if (mapped?.kind === 'stream')
            throw new BrokenStream(mapped, 'the provider reported an error before answering', acc.hasToolCalls);
          if (mapped) throw mapped;
          this.log(`model stream from ${this.baseURL} broke: ${err instanceof Error ? err.message : String(err)}`);
          if (!acc.finished) this.endEarly(acc);
          this.log('the model had already finished its answer; keeping it');
          break;
        }
        if (next.done) break;
        let events: ModelStreamEvent[];
        try {
          events = acc.push(next.value);
        } catch (err) {
          if (err instanceof ModelError && err.kind === 'stream') {
            throw new BrokenStream(err, 'the provider reported an error before answering', acc.hasToolCalls);
          }
          throw err;
        }
        yield* events;
      }
      if (signal?.aborted) throw abortedError();
      const fired = timedOut();
      if (fired) throw fired;
      const sawDone = this.notes.get(opened.response)?.sawDone ?? false;
      let closing: ModelStreamEvent[];
      try {
        closing = acc.end({ sawDone });
      } catch (err) {
        if (err instanceof ModelError && err.kind === 'stream')
          throw new BrokenStream(err, 'the stream was cut off', acc.hasToolCalls);
        throw err;
      }
      complete = true;
      yield* closing;
    } finally {
      watch.dispose();
      if (!complete) stream?.controller.abort();
    }
  }

  /** `acc.end()` on a broken stream: always throws that the stream ended early. */
  private endEarly(acc: StreamAccumulator): never {
    try {
      acc.end();
    } catch (err) {
      if (err instanceof ModelError)
        throw new BrokenStream(err, 'the connection broke before the answer began', acc.hasToolCalls);
      throw err;
    }
    throw new Error('unreachable: a stream without a finish reason ended normally');
  }

  /** Ids of the models the endpoint lists (`GET /models`). */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    if (this.badBaseURL) throw new ModelError('unreachable', this.badBaseURL);
    const ctx = this.context('(model list)');
    try {
      const ids: string[] = [];
      for await (const m of this.client.models.list({ signal })) ids.push(m.id);
      return ids;
    } catch (err) {
      if (signal?.aborted) throw abortedError();
      throw requestError(err, ctx, 1);
    }
  }

  /** Sends the request; resolves when the response headers arrive. */
  private open(request: ModelRequest, watch: RequestWatch) {
    const origin = originOf(this.baseURL, request.model);
    const body = toRequestBody(
      request,
      this.includeUsage,
      this.sdkMessages,
      sendBack(origin, this.refusedFields.get(origin)),
    );
    // Reaches `streamFetch` in its init: the SDK spreads `fetchOptions` into every fetch call.
    const watched: Omit<WatchedInit, 'signal'> = { planwiseWatch: watch };
    const fetchOptions = watched as unknown as Record<string, never>;
    return this.client.chat.completions.create(body, { signal: watch.signal, fetchOptions }).withResponse();
  }
}

/**
 * The round-trip field a 400 says the endpoint does not accept (Groq: "property 'reasoning' is
 * unsupported"), when the request carried it; undefined otherwise.
 */
function refusedRoundTripField(err: unknown, request: ModelRequest): string | undefined {
  if (!(err instanceof OpenAI.APIError) || err.status !== 400) return undefined;
  const text = `${err.message} ${JSON.stringify(err.error ?? '')}`;
  if (!/unsupported|unknown|not permitted|unrecognized|not allowed|extra/i.test(text)) return undefined;
  const sent = new Set<string>();
  for (const m of request.messages) {
    if (m.role !== 'assistant') continue;
    for (const k of Object.keys(m.roundTrip?.fields ?? {})) sent.add(k);
    for (const c of m.toolCalls ?? []) for (const k of Object.keys(c.roundTrip?.fields ?? {})) sent.add(k);
  }
  return [...sent].find((k) => new RegExp(`['"\\s.]${k}['"\\s]`).test(text));
}

/** `formatWait` for callers that print retry waits. */
export { formatWait };

/** A message saying why the base URL cannot work, or undefined when it looks usable. */
function checkBaseURL(baseURL: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return `The model base URL '${baseURL}' is not a valid URL. Set it to the API root, e.g. http://localhost:11434/v1.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `The model base URL '${baseURL}' must start with http:// or https://, e.g. http://localhost:11434/v1.`;
  }
  return undefined;
}
