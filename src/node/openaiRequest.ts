/**
 * The chat request body for a `ModelRequest`, in the `openai` SDK's types: messages (with the
 * round-trip fields that came from this origin, and only those), tools and options.
 */
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ModelRequest, RoundTrip, ToolSchema } from '../core/api/ports';

/** Who this client is for round-trip fields: the endpoint and the model (see `RoundTrip`). */
export function originOf(baseURL: string, model: string): string {
  return `openai-compatible ${baseURL.trim().replace(/\/+$/, '')} ${model}`;
}

/**
 * Thread messages are immutable once stored, so each is converted once: a long session would
 * otherwise re-convert its whole history on every request.
 */
const converted = new WeakMap<ChatMessage, { key: string; sdk: ChatCompletionMessageParam }>();

/**
 * Whose round-trip fields a request sends back: this origin's, minus any field the endpoint
 * refused (Groq sends `reasoning` but answers 400 when it comes back).
 */
export interface SendBack {
  readonly origin: string;
  readonly refused: ReadonlySet<string>;
  /** Identifies origin + refused fields, for the conversion caches. */
  readonly key: string;
}

export function sendBack(origin: string, refused: ReadonlySet<string> = new Set()): SendBack {
  return { origin, refused, key: `${origin}\u0000${[...refused].sort().join(',')}` };
}

function toSdkMessage(m: ChatMessage, back: SendBack): ChatCompletionMessageParam {
  const known = converted.get(m);
  if (known?.key === back.key) return known.sdk;
  const sdk = convertMessage(m, back);
  converted.set(m, { key: back.key, sdk });
  return sdk;
}

/** The fields to send back: only those that came from this origin; another provider gets none. */
function backTo(rt: RoundTrip | undefined, back: SendBack): Record<string, unknown> {
  if (rt === undefined || rt.origin !== back.origin) return {};
  if (back.refused.size === 0) return rt.fields;
  return Object.fromEntries(Object.entries(rt.fields).filter(([k]) => !back.refused.has(k)));
}

function convertMessage(m: ChatMessage, origin: SendBack): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    case 'assistant':
      if (!m.toolCalls?.length) return { ...backTo(m.roundTrip, origin), role: 'assistant', content: m.content };
      return {
        ...backTo(m.roundTrip, origin),
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: m.toolCalls.map((c) => ({
          ...backTo(c.roundTrip, origin),
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      } as ChatCompletionMessageParam;
  }
}

/**
 * The SDK messages of the previous request, so the next one converts only what is new: a thread's
 * requests share their prefix message for message (same objects), and only the tail grows.
 */
export class SdkMessageCache {
  private source: readonly ChatMessage[] = [];
  private sdk: ChatCompletionMessageParam[] = [];
  private key = sendBack('').key;

  convert(messages: readonly ChatMessage[], back: SendBack = sendBack('')): ChatCompletionMessageParam[] {
    if (back.key !== this.key) {
      this.key = back.key;
      this.source = [];
    }
    const shared = Math.min(messages.length, this.source.length);
    let same = 0;
    while (same < shared && messages[same] === this.source[same]) same++;
    const out = this.sdk.slice(0, same);
    // Converted afresh, not through the WeakMap: its entries would only duplicate this cache and
    // cost the garbage collector (ephemerons) on every collection of a long session.
    for (let i = same; i < messages.length; i++) out.push(convertMessage(messages[i]!, back));
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
  origin: string | SendBack = '',
): ChatCompletionCreateParamsStreaming {
  const back = typeof origin === 'string' ? sendBack(origin) : origin;
  return {
    model: request.model,
    messages: cache ? cache.convert(request.messages, back) : request.messages.map((m) => toSdkMessage(m, back)),
    stream: true,
    ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
    ...(request.tools?.length ? { tools: request.tools.map(toSdkTool) } : {}),
    ...(request.tools?.length && request.toolChoice !== undefined ? { tool_choice: request.toolChoice } : {}),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
}
