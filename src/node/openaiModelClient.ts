/**
 * The `ModelClient` for any OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio, vLLM,
 * OpenRouter): the `openai` SDK sends the request, and the chunks it parses go through our own
 * `StreamAccumulator` (the SDK's stream helpers throw on several real provider streams).
 *
 * Transport: 408/409/429/5xx and connection failures are retried with exponential backoff (or
 * the server's `retry-after`); an endpoint that rejects `stream_options` is asked again without
 * it; `timeoutMs` bounds both the wait for the response and every gap between two chunks; the
 * `AbortSignal` cancels at any point with a `ModelError` of kind `aborted`.
 */
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { ModelError } from '../core/agent/model';
import type { ChatMessage, ModelClient, ModelRequest, ModelStreamEvent, ToolSchema } from '../core/agent/model';
import { StreamAccumulator } from '../core/agent/streamAccumulator';
import { ChunkWatch } from './chunkWatch';
import {
  abortedError,
  formatDuration,
  rejectsStreamOptions,
  requestError,
  retryAdvice,
  streamError,
} from './openaiModelErrors';
import type { ErrorContext } from './openaiModelErrors';

export interface OpenAIModelClientOptions {
  /** The API root, e.g. `http://localhost:11434/v1` or `https://api.openai.com/v1`. */
  readonly baseURL: string;
  /** Omit for endpoints that need none (Ollama, LM Studio, loopback servers). */
  readonly apiKey?: string;
  /** Retries after the first attempt for retryable failures (default 3). */
  readonly maxRetries?: number;
  /** Longest wait for the response, and for each next chunk, in ms (default 10 minutes). */
  readonly timeoutMs?: number;
  /** Receives one line per notable transport event (retries, fallbacks, stream anomalies). */
  readonly log?: (line: string) => void;
  /** Headers added to every request (e.g. OpenRouter's `HTTP-Referer`). */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** A fetch implementation (proxies, tests); defaults to the global one. */
  readonly fetch?: typeof fetch;
  /** How retries wait; tests pass one that records the delays. Must reject when `signal` aborts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Makes ids for tool calls the provider sent without one. */
  readonly newToolCallId?: (ordinal: number) => string;
}

/** The key sent when none is configured: local servers ignore it, and the SDK requires one. */
export const NO_API_KEY = 'not-needed';

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DONE_TAIL_BYTES = 64;

/** What the fetch wrapper learned about one streamed response. */
interface ResponseNotes {
  sawDone: boolean;
}

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

/**
 * Thread messages are immutable once stored, so each is converted once: a long session would
 * otherwise re-convert its whole history on every request.
 */
const converted = new WeakMap<ChatMessage, ChatCompletionMessageParam>();

function toSdkMessage(m: ChatMessage): ChatCompletionMessageParam {
  let sdk = converted.get(m);
  if (sdk === undefined) {
    sdk = convertMessage(m);
    converted.set(m, sdk);
  }
  return sdk;
}

function convertMessage(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    case 'assistant':
      if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      };
  }
}

/**
 * The SDK messages of the previous request, so the next one converts only what is new: a thread's
 * requests share their prefix message for message (same objects), and only the tail grows.
 */
export class SdkMessageCache {
  private source: readonly ChatMessage[] = [];
  private sdk: ChatCompletionMessageParam[] = [];

  convert(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
    const shared = Math.min(messages.length, this.source.length);
    let same = 0;
    while (same < shared && messages[same] === this.source[same]) same++;
    const out = this.sdk.slice(0, same);
    // Converted afresh, not through the WeakMap: its entries would only duplicate this cache and
    // cost the garbage collector (ephemerons) on every collection of a long session.
    for (let i = same; i < messages.length; i++) out.push(convertMessage(messages[i]!));
    this.source = messages;
    this.sdk = out;
    return out;
  }
}

const toSdkTool = (t: ToolSchema): ChatCompletionTool => ({
  type: 'function',
  function: { name: t.name, description: t.description, parameters: t.parameters },
});

/** The request body sent for a `ModelRequest`. Exported for tests and benchmarks. */
export function toRequestBody(
  request: ModelRequest,
  includeUsage = true,
  cache?: SdkMessageCache,
): ChatCompletionCreateParamsStreaming {
  return {
    model: request.model,
    messages: cache ? cache.convert(request.messages) : request.messages.map(toSdkMessage),
    stream: true,
    ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
    ...(request.tools?.length ? { tools: request.tools.map(toSdkTool) } : {}),
    ...(request.tools?.length && request.toolChoice !== undefined ? { tool_choice: request.toolChoice } : {}),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
}

export class OpenAIModelClient implements ModelClient {
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly notes = new WeakMap<Response, ResponseNotes>();
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly log: (line: string) => void;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly hasApiKey: boolean;
  private readonly badBaseURL: string | undefined;
  /** Cleared once the endpoint rejects `stream_options`. */
  private includeUsage = true;
  private readonly sdkMessages = new SdkMessageCache();

  constructor(private readonly options: OpenAIModelClientOptions) {
    this.baseURL = options.baseURL.trim().replace(/\/+$/, '');
    this.badBaseURL = checkBaseURL(this.baseURL);
    this.maxRetries = Math.max(0, options.maxRetries ?? 3);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.log = options.log ?? (() => {});
    this.sleep = options.sleep ?? defaultSleep;
    this.hasApiKey = Boolean(options.apiKey);
    const forward = (level: string) => (message: string) => this.log(`openai sdk ${level}: ${message}`);
    this.client = new OpenAI({
      baseURL: this.badBaseURL ? 'http://invalid.invalid' : this.baseURL,
      apiKey: options.apiKey || NO_API_KEY,
      organization: null,
      project: null,
      maxRetries: 0, // retries are ours: they are logged, honour retry-after, and are testable
      timeout: this.timeoutMs,
      defaultHeaders: { ...options.extraHeaders },
      fetch: this.noteTakingFetch(options.fetch ?? globalThis.fetch),
      logLevel: 'warn',
      logger: { error: forward('error'), warn: forward('warn'), info: forward('info'), debug: forward('debug') },
    });
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    const ctx: ErrorContext = {
      baseURL: this.baseURL,
      model: request.model,
      hasApiKey: this.hasApiKey,
      timeoutMs: this.timeoutMs,
    };
    if (this.badBaseURL) throw new ModelError('unreachable', this.badBaseURL);
    if (signal?.aborted) throw abortedError();
    const { data: stream, response } = await this.open(request, ctx, signal);
    const acc = new StreamAccumulator({
      source: `model '${request.model}' at ${this.baseURL}`,
      ...(this.options.newToolCallId ? { newToolCallId: this.options.newToolCallId } : {}),
    });
    const iterator = stream[Symbol.asyncIterator]();
    const watch = new ChunkWatch(
      this.timeoutMs,
      signal,
      () =>
        new ModelError(
          'stream',
          `The model '${ctx.model}' at ${ctx.baseURL} sent nothing for ${formatDuration(this.timeoutMs)} ` +
            'in the middle of its answer, so the stream was abandoned. Try again; if it keeps happening, check the server.',
        ),
      abortedError,
    );
    let complete = false;
    try {
      for (;;) {
        let next: IteratorResult<ChatCompletionChunk>;
        try {
          next = await watch.next(iterator);
        } catch (err) {
          if (signal?.aborted) throw abortedError();
          const mapped = streamError(err, ctx);
          if (mapped) throw mapped;
          this.log(`model stream from ${this.baseURL} broke: ${err instanceof Error ? err.message : String(err)}`);
          if (!acc.finished) acc.end(); // throws: the stream ended early
          this.log('the model had already finished its answer; keeping it');
          break;
        }
        if (next.done) break;
        yield* acc.push(next.value);
      }
      if (signal?.aborted) throw abortedError();
      const sawDone = this.notes.get(response)?.sawDone ?? false;
      const closing = acc.end({ sawDone });
      complete = true;
      yield* closing;
    } finally {
      watch.dispose();
      if (!complete) stream.controller.abort();
    }
  }

  /** Ids of the models the endpoint lists (`GET /models`). */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    if (this.badBaseURL) throw new ModelError('unreachable', this.badBaseURL);
    const ctx: ErrorContext = {
      baseURL: this.baseURL,
      model: '(model list)',
      hasApiKey: this.hasApiKey,
      timeoutMs: this.timeoutMs,
    };
    try {
      const ids: string[] = [];
      for await (const m of this.client.models.list({ signal })) ids.push(m.id);
      return ids;
    } catch (err) {
      if (signal?.aborted) throw abortedError();
      throw requestError(err, ctx, 1);
    }
  }

  /** Sends the request, retrying what is worth retrying, until the response headers arrive. */
  private async open(request: ModelRequest, ctx: ErrorContext, signal: AbortSignal | undefined) {
    const attempts = this.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      try {
        const body = toRequestBody(request, this.includeUsage, this.sdkMessages);
        return await this.client.chat.completions.create(body, { signal }).withResponse();
      } catch (err) {
        if (signal?.aborted) throw abortedError();
        if (this.includeUsage && rejectsStreamOptions(err)) {
          this.includeUsage = false;
          this.log(`${this.baseURL} rejects stream_options; asking again without usage reporting`);
          attempt--;
          continue;
        }
        const advice = retryAdvice(err);
        if (!advice.retry || attempt >= attempts) throw requestError(err, ctx, attempt);
        const wait = advice.afterMs ?? backoffMs(attempt);
        const what = err instanceof OpenAI.APIError && err.status ? `answered ${err.status}` : 'could not be reached';
        this.log(
          `the model endpoint ${this.baseURL} ${what}; retrying in ${(wait / 1000).toFixed(1)}s ` +
            `(attempt ${attempt + 1} of ${attempts})`,
        );
        await this.sleep(wait, signal);
      }
    }
  }

  /**
   * Wraps fetch to watch streamed chat responses: it notes whether the body ended with
   * `data: [DONE]`, and turns a plain JSON completion (an endpoint that ignored `stream: true`)
   * into a one-event stream the accumulator understands.
   */
  private noteTakingFetch(inner: typeof fetch): typeof fetch {
    return async (input, init) => {
      const response = await inner(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!response.ok || !response.body || init?.method !== 'POST' || !/\/chat\/completions\/?$/.test(url)) {
        return response;
      }
      const notes: ResponseNotes = { sawDone: false };
      const headers = new Headers(response.headers);
      let body: ReadableStream<Uint8Array>;
      if (/^application\/(.+\+)?json/i.test(response.headers.get('content-type') ?? '')) {
        this.log(`${this.baseURL} answered with one JSON completion instead of a stream; reading it as one`);
        const text = await response.text();
        headers.set('content-type', 'text/event-stream');
        body = new Response(`data: ${text.replace(/\r?\n/g, ' ')}\n\ndata: [DONE]\n\n`).body!;
      } else {
        // One pulling stream over the body's reader: lighter per chunk than piping through a
        // TransformStream, which sets up a pipe and a second stream for every request.
        const reader = response.body.getReader();
        let tail = new Uint8Array(0);
        body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) {
              notes.sawDone = /(^|\n)data:\s?\[DONE\]\s*$/.test(new TextDecoder().decode(tail));
              controller.close();
              return;
            }
            if (value.length >= DONE_TAIL_BYTES) {
              tail = value.slice(-DONE_TAIL_BYTES);
            } else {
              const joined = new Uint8Array(tail.length + value.length);
              joined.set(tail);
              joined.set(value, tail.length);
              tail = joined.slice(-DONE_TAIL_BYTES);
            }
            controller.enqueue(value);
          },
          cancel: (reason) => reader.cancel(reason),
        });
      }
      const wrapped = new Response(body, { status: response.status, statusText: response.statusText, headers });
      this.notes.set(wrapped, notes);
      return wrapped;
    };
  }
}

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
