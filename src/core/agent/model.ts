/**
 * The model port: one streamed chat completion in OpenAI's shape, normalised.
 * Adapters (the OpenAI-compatible one lives in `src/node/`) turn provider chunks into these
 * events; the runloop never sees a provider quirk.
 */

/**
 * Provider fields that must come back unchanged on the next request (DeepSeek's
 * `reasoning_content` on a tool-calling message, Gemini's `extra_content.google.thought_signature`
 * on a call). Opaque to the engine: stored with the message or call in the thread (and so in
 * archives), never shown, never counted as prompt text. Only the client whose `origin` matches
 * sends them back; any other provider gets nothing.
 */
export interface RoundTrip {
  /** Who sent the fields, e.g. `openai-compatible https://api.deepseek.com/v1 deepseek-reasoner`. */
  readonly origin: string;
  /** Field name → value, exactly as received (streamed strings joined, streamed arrays merged). */
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Raw JSON text of the arguments as the model produced it. */
  readonly arguments: string;
  /** Provider fields of this call that must come back on it (e.g. `extra_content`). */
  readonly roundTrip?: RoundTrip;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ToolCall[];
      /** Provider fields of this message that must come back on it (e.g. `reasoning_content`). */
      readonly roundTrip?: RoundTrip;
    }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Record<string, unknown>;
}

export interface ModelRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  /** Omitted or empty: a tool-free request. */
  readonly tools?: readonly ToolSchema[];
  /**
   * `none` makes a tool-free pass while still sending the same tools, so the request prefix stays
   * byte-identical and cacheable. Omitted: the provider's default (`auto`).
   */
  readonly toolChoice?: 'auto' | 'none';
  readonly maxTokens?: number;
  readonly temperature?: number;
}

export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'unknown';

export type ModelStreamEvent =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  /** A tool call whose arguments are complete. Emitted when the stream ends. */
  | { readonly type: 'tool_call'; readonly call: ToolCall }
  | { readonly type: 'usage'; readonly usage: Usage }
  /**
   * The request failed before anything was delivered and will be sent again after `waitMs`
   * (the server's `Retry-After`, or backoff). Cancelling the signal ends the wait.
   */
  | {
      readonly type: 'retry';
      /** The attempt about to be made (2 for the first retry). */
      readonly attempt: number;
      readonly maxAttempts: number;
      readonly waitMs: number;
      /** What failed, e.g. `429 rate limit (the server asked to wait 120 s)`. */
      readonly reason: string;
    }
  | {
      readonly type: 'done';
      readonly finishReason: FinishReason;
      /** The completed assistant text (provider final content wins over streamed deltas), reasoning removed. */
      readonly content: string;
      readonly toolCalls: readonly ToolCall[];
      readonly usage?: Usage;
      /** Message-level fields the provider needs back on this assistant message. */
      readonly roundTrip?: RoundTrip;
    };

export interface ModelClient {
  /**
   * Streams one completion. Throws a `ModelError` for transport failures after retries,
   * a mid-stream error object, or a stream cut before it ended.
   */
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent>;
  /**
   * Counts the tokens of a request with the provider's own tokenizer, when it has one (VS Code's
   * Language Model API). Absent: the engine estimates from the provider's reported usage.
   */
  countTokens?(request: ModelRequest, signal?: AbortSignal): Promise<number>;
  /** The model's context window in tokens, when the provider says it (`maxInputTokens`). */
  contextWindow?(model: string): number | undefined;
}

/**
 * `context_length`: the request did not fit the model's context window (the engine compacts once
 * and retries). `timeout`: a first-byte or idle timeout fired (the message names the setting).
 */
export type ModelErrorKind =
  | 'unreachable'
  | 'auth'
  | 'bad_request'
  | 'rate_limited'
  | 'server'
  | 'stream'
  | 'aborted'
  | 'context_length'
  | 'timeout';

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
