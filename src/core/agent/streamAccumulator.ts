/**
 * Turns raw `chat.completion.chunk` objects from any OpenAI-compatible provider into the model
 * port's events. Pure: no SDK, no I/O. Feed every parsed chunk to `push`, then call `end`.
 *
 * The provider quirks it absorbs (each one has a test):
 * - tool-call id and name on the first fragment, arguments split anywhere (mid-token, mid-escape,
 *   inside a surrogate pair): arguments are concatenated as text and only read at the end;
 * - parallel calls at indexes 0 and 1, interleaved;
 * - Ollama: whole calls in one chunk, several calls at index 0 with different ids (a new id at an
 *   index starts a new call), and calls at one index without distinct ids (a named fragment
 *   with arguments after complete JSON arguments starts a new call);
 * - continuation fragments with `function.name: ""` (never erase a name), or repeating the name;
 * - tool-call chunks without `role`; fragments without `index` (their position is used);
 * - a missing tool-call id: one is generated, unique within the response; duplicate ids are
 *   made unique too;
 * - `delta.reasoning`, `delta.reasoning_content` and `delta.reasoning_details`, content parts of
 *   type `thinking` (Mistral's magistral) and inline `<think>`/`<thought>` at the start of the
 *   content (MiniMax, Gemini) become reasoning events, never text; when a provider sends the same
 *   reasoning both inline and in a field (MiniMax), it is shown once, and the content keeps no tags;
 * - round-trip fields (`reasoning_content`, `reasoning`, `reasoning_details` per message;
 *   `extra_content` and other unknown object fields per tool call) are kept, tagged with `origin`,
 *   so the client can send them back unchanged (see `RoundTrip`);
 * - placeholder chunks with `choices: []`, `tool_calls: []` on text deltas, `usage: null`;
 * - `finish_reason: "stop"` while tool calls were streamed: the calls count (reported as
 *   `tool_calls`);
 * - no usage chunk, or a usage chunk with `choices: []` at the end;
 * - an error object in the stream (`{"error": {...}}`): a `ModelError` of kind `stream`;
 * - a stream that ends with neither a `finish_reason` nor `[DONE]`: `end` throws a `ModelError`
 *   of kind `stream` and emits nothing further (the text already emitted stays emitted).
 */
import { InlineReasoningSplitter, splitInlineReasoning } from './inlineReasoning';
import { ModelError } from './model';
import type { FinishReason, ModelStreamEvent, RoundTrip, ToolCall, Usage } from './model';
import { MessageFieldCollector, collectCallFields } from './roundTripFields';

export interface StreamAccumulatorOptions {
  /** Makes an id for a tool call the provider sent without one. `ordinal` counts calls from 0. */
  readonly newToolCallId?: (ordinal: number) => string;
  /** Names the stream's origin in error messages, e.g. `model 'llama3' at http://localhost:11434/v1`. */
  readonly source?: string;
  /** Tags the round-trip fields this stream carries; only a client with this origin sends them back. */
  readonly origin?: string;
}

export interface EndOptions {
  /** True when the transport saw the `[DONE]` sentinel. A stream with neither this nor a finish reason was cut. */
  readonly sawDone?: boolean;
}

interface Slot {
  id: string;
  name: string;
  args: string;
  /** Unknown object fields of the call's fragments (Gemini's `extra_content`). */
  extra: Record<string, unknown> | undefined;
}

type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Text of a `thinking` part: a string, or Mistral's list of `{type:'text', text}` chunks. */
function thinkingText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v.map((p) => (isRecord(p) ? str(p.text) : typeof p === 'string' ? p : '')).join('');
}

/** Answer text and thinking of a `content` value: a string, or an array of parts. */
function contentParts(v: unknown): { text: string; thinking: string } {
  if (typeof v === 'string') return { text: v, thinking: '' };
  if (!Array.isArray(v)) return { text: '', thinking: '' };
  let text = '';
  let thinking = '';
  for (const p of v) {
    if (typeof p === 'string') text += p;
    else if (isRecord(p) && (p.type === 'thinking' || p.type === 'reasoning'))
      thinking += thinkingText(p.thinking ?? p.text);
    else if (isRecord(p)) text += str(p.text);
  }
  return { text, thinking };
}

function argumentsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v);
}

function isCompleteJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function toUsage(v: unknown): Usage | undefined {
  if (!isRecord(v)) return undefined;
  const prompt = typeof v.prompt_tokens === 'number' ? v.prompt_tokens : undefined;
  const completion = typeof v.completion_tokens === 'number' ? v.completion_tokens : undefined;
  if (prompt === undefined && completion === undefined) return undefined;
  const total = typeof v.total_tokens === 'number' ? v.total_tokens : (prompt ?? 0) + (completion ?? 0);
  return { promptTokens: prompt ?? 0, completionTokens: completion ?? 0, totalTokens: total };
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  eos: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  length: 'length',
  max_tokens: 'length',
  tool_calls: 'tool_calls',
  tool_use: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
  error: 'error',
};

function errorMessage(err: unknown): string {
  if (isRecord(err)) {
    const msg = typeof err.message === 'string' ? err.message : JSON.stringify(err.message ?? err);
    const code = err.code ?? err.type;
    return code !== undefined && code !== null && !msg.includes(String(code)) ? `${msg} (${String(code)})` : msg;
  }
  return typeof err === 'string' ? err : JSON.stringify(err);
}

function defaultIdMaker(): (ordinal: number) => string {
  const stem = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  return (ordinal) => `call_${stem}_${ordinal}`;
}

export class StreamAccumulator {
  private readonly slots: Slot[] = [];
  /** The slot that fragments at each index (or array position) currently extend. */
  private readonly open = new Map<number, Slot>();
  private readonly newId: (ordinal: number) => string;
  private readonly source: string;
  private readonly origin: string;
  private text = '';
  private finalContent: string | undefined;
  private readonly inline = new InlineReasoningSplitter();
  private readonly messageFields = new MessageFieldCollector();
  /** Where the reasoning shown comes from: the first channel that carried some (the other is a duplicate). */
  private reasoningChannel: 'field' | 'inline' | undefined;
  private rawFinish: string | undefined;
  private usage: Usage | undefined;
  private ended = false;

  constructor(options: StreamAccumulatorOptions = {}) {
    this.newId = options.newToolCallId ?? defaultIdMaker();
    this.source = options.source ? ` from ${options.source}` : '';
    this.origin = options.origin ?? '';
  }

  /** True once a choice carried a `finish_reason`. */
  get finished(): boolean {
    return this.rawFinish !== undefined;
  }

  /** The assistant text streamed so far. */
  get content(): string {
    return this.text;
  }

  /** True once any tool-call fragment arrived (the call is only emitted at the end). */
  get hasToolCalls(): boolean {
    return this.slots.length > 0;
  }

  /** Consumes one parsed chunk and returns the events it produced (text, reasoning, usage). */
  push(chunk: unknown): ModelStreamEvent[] {
    if (this.ended) throw new Error('StreamAccumulator.push called after end()');
    if (!isRecord(chunk)) return [];
    if (chunk.error !== undefined && chunk.error !== null) {
      throw new ModelError(
        'stream',
        `The model provider reported an error mid-stream${this.source}: ${errorMessage(chunk.error)}`,
      );
    }
    const out: ModelStreamEvent[] = [];
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      if (!isRecord(choice)) continue;
      if (typeof choice.index === 'number' && choice.index !== 0) continue; // only the first choice is ours
      this.onChoice(choice, out);
    }
    const usage = toUsage(chunk.usage);
    if (usage) {
      this.usage = usage;
      out.push({ type: 'usage', usage });
    }
    return out;
  }

  /**
   * Closes the stream: returns the tool calls (one event each) and the `done` event. Throws a
   * `ModelError` of kind `stream` when the stream was cut (no finish reason and no `[DONE]`).
   */
  end(options: EndOptions = {}): ModelStreamEvent[] {
    if (this.ended) throw new Error('StreamAccumulator.end called twice');
    this.ended = true;
    if (this.rawFinish === undefined && !options.sawDone) {
      const had = [
        this.text ? `${this.text.length} characters of text` : '',
        this.slots.length ? `${this.slots.length} unfinished tool call(s)` : '',
      ].filter(Boolean);
      throw new ModelError(
        'stream',
        `The model stream${this.source} ended early: the connection closed before the model finished its answer` +
          `${had.length ? ` (after ${had.join(' and ')})` : ''}. Try again; if it keeps happening, check the server's logs.`,
      );
    }
    const toolCalls = this.completedCalls();
    const out: ModelStreamEvent[] = [];
    this.emitSplit(this.inline.end(), out);
    if (this.finalContent !== undefined && this.finalContent !== this.text && this.finalContent.startsWith(this.text)) {
      // The provider's final message carried text that was never streamed as deltas.
      out.push({ type: 'text', delta: this.finalContent.slice(this.text.length) });
    }
    for (const call of toolCalls) out.push({ type: 'tool_call', call });
    let finishReason: FinishReason =
      this.rawFinish === undefined ? 'unknown' : (FINISH[this.rawFinish.toLowerCase()] ?? 'unknown');
    if (toolCalls.length > 0 && (finishReason === 'stop' || finishReason === 'unknown')) finishReason = 'tool_calls';
    out.push({
      type: 'done',
      finishReason,
      content: this.finalContent ?? this.text,
      toolCalls,
      ...(this.usage ? { usage: this.usage } : {}),
      ...this.roundTripOf(this.messageFields.fields()),
    });
    return out;
  }

  private roundTripOf(fields: Record<string, unknown> | undefined): { roundTrip?: RoundTrip } {
    return fields ? { roundTrip: { origin: this.origin, fields } } : {};
  }

  /** Reasoning from one channel; the other channel's copy of it is not shown again. */
  private emitReasoning(channel: 'field' | 'inline', text: string, out: ModelStreamEvent[]): void {
    if (text === '') return;
    this.reasoningChannel ??= channel;
    if (this.reasoningChannel === channel) out.push({ type: 'reasoning', delta: text });
  }

  private emitSplit(piece: { text: string; reasoning: string }, out: ModelStreamEvent[]): void {
    this.emitReasoning('inline', piece.reasoning, out);
    if (piece.text) {
      this.text += piece.text;
      out.push({ type: 'text', delta: piece.text });
    }
  }

  private onChoice(choice: Rec, out: ModelStreamEvent[]): void {
    const delta = isRecord(choice.delta) ? choice.delta : {};
    this.messageFields.push(delta);
    const parts = contentParts(delta.content);
    this.emitReasoning('field', this.reasoningOf(delta) + parts.thinking, out);
    this.emitSplit(this.inline.push(parts.text + str(delta.refusal)), out);
    if (Array.isArray(delta.tool_calls)) {
      delta.tool_calls.forEach((fragment, position) => {
        if (isRecord(fragment)) this.onToolFragment(fragment, position);
      });
    }
    // Some providers close with a whole message instead of (or besides) the deltas.
    if (isRecord(choice.message)) {
      const final = contentParts(choice.message.content);
      const split = splitInlineReasoning(final.text);
      if (!this.messageFields.any) {
        this.messageFields.push(choice.message);
        this.emitReasoning('field', this.reasoningOf(choice.message) + final.thinking, out);
      }
      if (this.text === '') this.emitReasoning('inline', split.reasoning, out);
      if (split.text) this.finalContent = split.text;
      if (Array.isArray(choice.message.tool_calls) && this.slots.length === 0) {
        choice.message.tool_calls.forEach((fragment, position) => {
          if (isRecord(fragment)) this.onToolFragment(fragment, position);
        });
      }
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.rawFinish = choice.finish_reason;
  }

  private reasoningOf(delta: Rec): string {
    const direct = str(delta.reasoning_content) || str(delta.reasoning);
    if (direct) return direct;
    if (!Array.isArray(delta.reasoning_details)) return '';
    return delta.reasoning_details.map((d) => (isRecord(d) ? str(d.text) || str(d.summary) : '')).join('');
  }

  private onToolFragment(fragment: Rec, position: number): void {
    const key = typeof fragment.index === 'number' ? fragment.index : position;
    const id = str(fragment.id);
    const fn = isRecord(fragment.function) ? fragment.function : {};
    const name = str(fn.name);
    const args = argumentsText(fn.arguments);
    let slot = this.open.get(key);
    const startsNew =
      slot === undefined ||
      // Ollama: several calls at index 0, told apart only by their ids.
      (id !== '' && slot.id !== '' && id !== slot.id) ||
      // Calls at one index without distinct ids: a named fragment with arguments after complete
      // JSON arguments is a new call (a continuation never repeats the name with more arguments
      // once the object is closed).
      ((id === '' || id === slot.id) && name !== '' && args !== '' && isCompleteJson(slot.args));
    if (startsNew || slot === undefined) {
      slot = { id: '', name: '', args: '', extra: undefined };
      this.slots.push(slot);
      this.open.set(key, slot);
    }
    if (id !== '' && slot.id === '') slot.id = id;
    if (name !== '' && name !== slot.name) {
      if (slot.name === '') slot.name = name;
      else if (slot.args === '') slot.name += name; // a name streamed in pieces
    }
    slot.args += args;
    slot.extra = collectCallFields(fragment, slot.extra);
  }

  private completedCalls(): ToolCall[] {
    const calls: ToolCall[] = [];
    const used = new Set<string>();
    for (const slot of this.slots) {
      if (slot.name === '') continue; // a fragment with no tool name cannot be dispatched or sent back
      let id = slot.id;
      if (id === '' || used.has(id)) {
        const base = id;
        let n = calls.length;
        do id = base ? `${base}_${n++}` : this.newId(n++);
        while (used.has(id));
      }
      used.add(id);
      calls.push({
        id,
        name: slot.name,
        arguments: slot.args.trim() === '' ? '{}' : slot.args,
        ...this.roundTripOf(slot.extra),
      });
    }
    return calls;
  }
}

/** Runs a whole chunk sequence through a fresh accumulator (the transport's `[DONE]` is not visible here). */
export async function* accumulateChunks(
  chunks: AsyncIterable<unknown> | Iterable<unknown>,
  options: StreamAccumulatorOptions & EndOptions = {},
): AsyncGenerator<ModelStreamEvent> {
  const acc = new StreamAccumulator(options);
  for await (const chunk of chunks) yield* acc.push(chunk);
  yield* acc.end(options);
}
