/**
 * The model port: one streamed chat completion in OpenAI's shape, normalised.
 * Adapters (the OpenAI-compatible one lives in `src/node/`) turn provider chunks into these
 * events; the runloop never sees a provider quirk.
 */

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Raw JSON text of the arguments as the model produced it. */
  readonly arguments: string;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
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
  | {
      readonly type: 'done';
      readonly finishReason: FinishReason;
      /** The completed assistant text (provider final content wins over streamed deltas). */
      readonly content: string;
      readonly toolCalls: readonly ToolCall[];
      readonly usage?: Usage;
    };

export interface ModelClient {
  /**
   * Streams one completion. Throws a `ModelError` for transport failures after retries,
   * a mid-stream error object, or a stream cut before it ended.
   */
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

export type ModelErrorKind = 'unreachable' | 'auth' | 'bad_request' | 'rate_limited' | 'server' | 'stream' | 'aborted';

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
