/**
 * Builders for `chat.completion.chunk` objects shaped the way real providers send them, and for
 * whole scripted turns. Re-exported as `sse` from `./scriptedServer`; see the comment there.
 */

export const RAW: unique symbol = Symbol('raw SSE piece');

/** A piece of SSE text written verbatim (a comment, garbage, a split byte sequence). */
export interface RawPiece {
  readonly [RAW]: string | Uint8Array;
}

export const isRawPiece = (v: unknown): v is RawPiece => typeof v === 'object' && v !== null && RAW in v;

/** One scripted answer to one `POST /v1/chat/completions`. */
export interface ScriptedTurn {
  /** Chunk objects, each sent as `data: <json>\n\n`, then `data: [DONE]\n\n`. `sse.raw()` pieces go out verbatim. */
  readonly chunks?: readonly unknown[];
  /** Exact SSE text (or bytes) sent instead of `chunks`; nothing is added, not even `[DONE]`. */
  readonly raw?: readonly (string | Uint8Array)[];
  /** HTTP status. Non-2xx answers send `body` (default: an OpenAI-style JSON error) instead of a stream. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A non-SSE body, sent as is (for errors, or a plain JSON completion). */
  readonly body?: string;
  /** Destroy the socket after this many pieces: no `[DONE]`, no clean end. */
  readonly cutAfter?: number;
  /** Stop sending after this many pieces but keep the connection open (until the client leaves or the server closes). */
  readonly stallAfter?: number;
  /** Delay between pieces, in ms. */
  readonly delayMs?: number;
  /** Delay before the status line and headers, in ms. */
  readonly headersDelayMs?: number;
  /** End the stream cleanly without the `data: [DONE]` line. */
  readonly omitDone?: boolean;
}

export interface ToolCallSpec {
  /** Omit for a generated `call_sN` id; `null` sends the call with no id at all. */
  readonly id?: string | null;
  readonly name: string;
  /** The arguments: a JSON string sent as is, or an object to stringify. */
  readonly args: string | Record<string, unknown>;
  /** The `index` field; defaults to the call's position. `null` leaves it out. */
  readonly index?: number | null;
  /**
   * How the arguments string is split: a piece size in UTF-16 code units (default 7, so pieces
   * end mid-token), or explicit cut offsets.
   */
  readonly split?: number | readonly number[];
  /** Put `role: 'assistant'` on the first fragment (default true). */
  readonly role?: boolean;
  /** Send `function.name: ""` on every continuation fragment (a real provider quirk). */
  readonly emptyNameOnContinuation?: boolean;
}

export const SCRIPTED_MODEL = 'scripted-model';
let idCounter = 0;

/** The envelope every chunk shares. */
export function envelope(choices: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: SCRIPTED_MODEL,
    system_fingerprint: null,
    choices,
    ...extra,
  };
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return envelope([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
}

/** Cuts `text` at the given offsets, or into pieces of `size` code units. */
export function splitAt(text: string, split: number | readonly number[]): string[] {
  const cuts =
    typeof split === 'number'
      ? Array.from({ length: Math.ceil(text.length / Math.max(1, split)) }, (_, i) => i * Math.max(1, split))
      : [0, ...split];
  const out: string[] = [];
  for (let i = 0; i < cuts.length; i++) {
    const piece = text.slice(cuts[i], cuts[i + 1] ?? text.length);
    if (piece) out.push(piece);
  }
  return out.length ? out : [''];
}

/** Splits by code points, `size` per piece, so ordinary text never breaks a character. */
function splitCodePoints(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

const argsString = (args: string | Record<string, unknown>): string =>
  typeof args === 'string' ? args : JSON.stringify(args);

function toolFragments(spec: ToolCallSpec, position: number): Record<string, unknown>[] {
  const id = spec.id === undefined ? `call_s${++idCounter}` : spec.id;
  const index = spec.index === undefined ? position : spec.index;
  const at = (o: Record<string, unknown>) => (index === null ? o : { index, ...o });
  const first = at({ ...(id === null ? {} : { id }), type: 'function', function: { name: spec.name, arguments: '' } });
  const rest = splitAt(argsString(spec.args), spec.split ?? 7).map((piece) =>
    at({ function: spec.emptyNameOnContinuation ? { name: '', arguments: piece } : { arguments: piece } }),
  );
  return [first, ...rest];
}

export interface TextOptions {
  /** Code points per chunk (default 8). */
  readonly size?: number;
  /** Put `role: 'assistant'` on the first chunk. */
  readonly role?: boolean;
  /** Add `tool_calls: []` to every delta (a real provider quirk). */
  readonly emptyToolCalls?: boolean;
}

export const sse = {
  /** A chunk with this delta (and finish reason). */
  chunk,
  /** A verbatim piece of the SSE body. */
  raw: (text: string | Uint8Array): RawPiece => ({ [RAW]: text }),
  /** An SSE comment line, e.g. `: OPENROUTER PROCESSING`. */
  comment: (text: string): RawPiece => ({ [RAW]: `: ${text}\n\n` }),
  /** The opening chunk OpenAI sends: the role and empty content. */
  role: () => chunk({ role: 'assistant', content: '', refusal: null }),
  /** Text deltas. */
  text(text: string, opts: TextOptions = {}): Record<string, unknown>[] {
    return splitCodePoints(text, opts.size ?? 8).map((piece, i) =>
      chunk({
        ...(opts.role && i === 0 ? { role: 'assistant' } : {}),
        content: piece,
        ...(opts.emptyToolCalls ? { tool_calls: [] } : {}),
      }),
    );
  },
  /** Reasoning deltas in the field a provider uses (`reasoning`: Ollama/OpenRouter; `reasoning_content`: DeepSeek/vLLM). */
  reasoning(text: string, field: 'reasoning' | 'reasoning_content' = 'reasoning', size = 8): Record<string, unknown>[] {
    return splitCodePoints(text, size).map((piece) => chunk({ [field]: piece }));
  },
  /** One tool call streamed as OpenAI does: id + name + empty arguments first, then argument pieces. */
  toolCall(spec: ToolCallSpec): Record<string, unknown>[] {
    return toolFragments(spec, 0).map((f, i) =>
      chunk({ ...(i === 0 && spec.role !== false ? { role: 'assistant', content: null } : {}), tool_calls: [f] }),
    );
  },
  /** Calls at indexes 0, 1, …; `interleave` alternates their fragments as parallel calls arrive. */
  parallelToolCalls(specs: readonly ToolCallSpec[], interleave = true): Record<string, unknown>[] {
    const lists = specs.map((s, i) => toolFragments(s, i));
    const order: Record<string, unknown>[] = [];
    if (interleave) {
      for (let step = 0; lists.some((l) => step < l.length); step++) {
        for (const l of lists) if (step < l.length) order.push(l[step]!);
      }
    } else {
      for (const l of lists) order.push(...l);
    }
    return order.map((f, i) => chunk({ ...(i === 0 ? { role: 'assistant', content: null } : {}), tool_calls: [f] }));
  },
  /**
   * Calls as Ollama streams them: whole (complete arguments), every one at index 0, told apart only
   * by their ids. All in one chunk by default; `separate` sends one chunk per call.
   */
  ollamaToolCalls(
    specs: readonly Omit<ToolCallSpec, 'index' | 'split'>[],
    separate = false,
  ): Record<string, unknown>[] {
    const calls = specs.map((s) => ({
      ...(s.id === null ? {} : { id: s.id ?? `call_o${++idCounter}` }),
      index: 0,
      type: 'function',
      function: { name: s.name, arguments: argsString(s.args) },
    }));
    const delta = (tc: unknown[]) => ({ role: 'assistant', content: '', tool_calls: tc });
    return separate ? calls.map((c) => chunk(delta([c]))) : [chunk(delta(calls))];
  },
  /** The closing chunk: an empty delta and a finish reason. */
  finish: (reason: string = 'stop') => chunk({}, reason),
  /** The usage chunk sent with `stream_options.include_usage`: `choices: []`. */
  usage: (prompt: number, completion: number) =>
    envelope([], {
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    }),
  /** A placeholder first chunk with `choices: []` (Azure's prompt-filter results, OpenRouter). */
  placeholder: () =>
    ({ ...envelope([]), id: '', model: '', object: '', created: 0, prompt_filter_results: [] }) as Record<
      string,
      unknown
    >,
  /** A mid-stream error object, as OpenRouter and others send when a stream fails after it started. */
  error: (message: string, code: string | number = 'server_error') => ({
    error: { message, code, type: 'server_error' },
  }),
  /** A whole turn from parts; arrays are flattened one level. */
  turn(...parts: unknown[]): ScriptedTurn {
    return { chunks: parts.flatMap((p) => (Array.isArray(p) ? p : [p])) };
  },
  /** A complete text answer: role, text, `finish_reason: stop`, and usage (pass `usage: null` to omit it). */
  textTurn(text: string, opts: { usage?: readonly [number, number] | null; finish?: string } = {}): ScriptedTurn {
    const usage = opts.usage === undefined ? ([10, 5] as const) : opts.usage;
    return sse.turn(sse.role(), sse.text(text), sse.finish(opts.finish ?? 'stop'), usage ? [sse.usage(...usage)] : []);
  },
  /** A complete tool-calling answer: optional text, the calls at indexes 0.., `finish_reason: tool_calls`, usage. */
  toolTurn(specs: readonly ToolCallSpec[], opts: { text?: string; finish?: string } = {}): ScriptedTurn {
    return sse.turn(
      opts.text ? sse.text(opts.text, { role: true }) : [],
      sse.parallelToolCalls(specs, false),
      sse.finish(opts.finish ?? 'tool_calls'),
      sse.usage(20, 10),
    );
  },
  /** A non-stream HTTP error answer in OpenAI's JSON error shape. */
  httpError(
    status: number,
    message: string,
    opts: { headers?: Record<string, string>; type?: string; code?: string | null } = {},
  ): ScriptedTurn {
    const body = JSON.stringify({
      error: { message, type: opts.type ?? 'error', param: null, code: opts.code ?? null },
    });
    return { status, body, headers: { 'content-type': 'application/json', ...opts.headers } };
  },
};

/** Folds a turn's chunks into one non-streamed `chat.completion` (for requests without `stream: true`). */
export function toCompletion(chunks: readonly unknown[]): Record<string, unknown> {
  let content = '';
  let finish: unknown = 'stop';
  let usage: unknown;
  const calls: { id?: unknown; type: 'function'; function: { name: string; arguments: string } }[] = [];
  for (const c of chunks) {
    if (typeof c !== 'object' || c === null || isRawPiece(c)) continue;
    const rec = c as { choices?: { delta?: Record<string, unknown>; finish_reason?: unknown }[]; usage?: unknown };
    if (rec.usage) usage = rec.usage;
    for (const choice of rec.choices ?? []) {
      const d = choice.delta ?? {};
      if (typeof d.content === 'string') content += d.content;
      if (choice.finish_reason) finish = choice.finish_reason;
      for (const f of (d.tool_calls as { index?: number; id?: string; function?: Record<string, string> }[]) ?? []) {
        const at = f.index ?? calls.length;
        const slot = (calls[at] ??= { type: 'function', function: { name: '', arguments: '' } });
        if (f.id) slot.id = f.id;
        if (f.function?.name) slot.function.name = f.function.name;
        slot.function.arguments += f.function?.arguments ?? '';
      }
    }
  }
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: SCRIPTED_MODEL,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: finish,
      },
    ],
    ...(usage ? { usage } : {}),
  };
}
