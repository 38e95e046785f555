/**
 * The `ModelClient` port over VS Code's Language Model API (`vscode.lm`): GitHub Copilot's models,
 * or any extension's, with no API key. The engine does not know the difference.
 *
 * - The thread becomes `LanguageModelChatMessage`s: the system prompt is the first User message
 *   (the API has no system role), assistant text and calls are `LanguageModelTextPart` and
 *   `LanguageModelToolCallPart`, and tool results go back as `LanguageModelToolResultPart`s in the
 *   User message that follows (consecutive results share one message).
 * - Tools are `LanguageModelChatTool`s (the same schemas every request, so the prefix holds).
 * - The stream's text parts go through the same inline-reasoning split as every provider's
 *   (`<think>` at the start is reasoning); tool-call parts become calls; thinking parts, where a
 *   VS Code version sends them, become reasoning.
 * - Tokens are counted with `model.countTokens` (cached per message), also to report each
 *   response's usage (the API reports none); the context window is `model.maxInputTokens`, and the
 *   AbortSignal cancels through a CancellationToken.
 * - VS Code asks the person for consent on the first request; a refusal (`NoPermissions`) is a
 *   clear `auth` error saying how to allow it, not a crash.
 *
 * The `vscode` module comes in as `LmSurface`, so tests drive the adapter with a fake shaped like
 * the real API.
 */
import type * as vscode from 'vscode';
import {
  InlineReasoningSplitter,
  ModelError,
  type ChatMessage,
  type ModelClient,
  type ModelRequest,
  type ModelStreamEvent,
  type ToolCall,
  type Usage,
} from '../../core/api/ports';

/** The parts of the `vscode` module the adapter uses. */
export interface LmSurface {
  readonly lm: { selectChatModels(selector?: vscode.LanguageModelChatSelector): Thenable<vscode.LanguageModelChat[]> };
  readonly LanguageModelChatMessage: typeof vscode.LanguageModelChatMessage;
  readonly LanguageModelTextPart: typeof vscode.LanguageModelTextPart;
  readonly LanguageModelToolCallPart: typeof vscode.LanguageModelToolCallPart;
  readonly LanguageModelToolResultPart: typeof vscode.LanguageModelToolResultPart;
  readonly LanguageModelError: typeof vscode.LanguageModelError;
  readonly CancellationTokenSource: typeof vscode.CancellationTokenSource;
  /** Thinking parts (VS Code 1.104+; not in the 1.100 API types Planwise builds against). */
  readonly LanguageModelThinkingPart?: new (...args: never[]) => { value: string | string[] };
}

/** One model as Select Model lists it. */
export interface LmModelInfo {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly maxInputTokens: number;
}

export const VSCODE_LM_ORIGIN = 'vscode-lm';

const JUSTIFICATION = 'Planwise plans (read-only) and carries out the plan you approve with this model.';

const CONSENT_ADVICE =
  'Planwise needs your permission to use this model: start planning again and choose "Allow" when VS Code asks, ' +
  'or allow it under Accounts > Manage Language Model Access.';

/** The models VS Code offers (all vendors), for Select Model. */
export async function listLmModels(surface: LmSurface): Promise<LmModelInfo[]> {
  const models = await surface.lm.selectChatModels();
  return models.map((m) => ({
    id: m.id,
    name: m.name,
    vendor: m.vendor,
    family: m.family,
    maxInputTokens: m.maxInputTokens,
  }));
}

function parseArgs(text: string): object {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : { value: v };
  } catch {
    return { arguments: text };
  }
}

/**
 * A thinking part: an instance of the API's `LanguageModelThinkingPart` where the VS Code has one
 * (its class names are minified, so the name cannot tell), else a part whose class is named so.
 */
const isThinkingPart = (p: unknown, surface: LmSurface): p is { value: string | string[] } =>
  typeof p === 'object' &&
  p !== null &&
  'value' in p &&
  (surface.LanguageModelThinkingPart
    ? p instanceof surface.LanguageModelThinkingPart
    : /Thinking/.test((p as { constructor?: { name?: string } }).constructor?.name ?? ''));

const cancelled = () => new ModelError('aborted', 'The model request was cancelled.');

/**
 * The stream's parts until the signal aborts, which ends it at once. VS Code (1.106) passes a
 * consumer's cancellation on to the provider only while the request is being started, not once its
 * answer streams, so a provider that goes silent (a model thinking, a stalled network) would hold a
 * stopped run until its next part; the pending part is left to settle on its own.
 */
async function* untilAborted<T>(stream: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  if (!signal) {
    yield* stream;
    return;
  }
  if (signal.aborted) throw cancelled();
  const parts = stream[Symbol.asyncIterator]();
  let onAbort = () => {};
  const aborted = new Promise<'aborted'>((resolve) => (onAbort = () => resolve('aborted')));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const pending = parts.next();
      pending.catch(() => undefined); // a part that fails after the abort is nobody's error
      const next = await Promise.race([pending, aborted]);
      if (next === 'aborted') {
        void Promise.resolve(parts.return?.()).catch(() => undefined);
        throw cancelled();
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export class VscodeLmModelClient implements ModelClient {
  private readonly models = new Map<string, vscode.LanguageModelChat>();
  private readonly counted = new WeakMap<ChatMessage, number>();
  private readonly countedTools = new WeakMap<object, number>();
  private callCounter = 0;

  constructor(
    private readonly surface: LmSurface,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** Looks the models up ahead of the first request, so their context windows are known. */
  async prepare(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.model(id).catch(() => undefined);
  }

  contextWindow(model: string): number | undefined {
    return this.models.get(model)?.maxInputTokens;
  }

  async countTokens(request: ModelRequest, signal?: AbortSignal): Promise<number> {
    const model = await this.model(request.model);
    const cts = this.cancellation(signal);
    try {
      // Thread messages never change: each is converted and counted once, so a long session
      // counts only what was added since the previous request.
      let total = 0;
      for (const m of request.messages) {
        let n = this.counted.get(m);
        if (n === undefined) {
          n = await model.countTokens(this.toMessages([m]).messages[0]!, cts.source.token);
          this.counted.set(m, n);
        }
        total += n;
      }
      const tools = request.tools;
      if (tools?.length) {
        let n = this.countedTools.get(tools);
        if (n === undefined) {
          n = await model.countTokens(JSON.stringify(tools), cts.source.token);
          this.countedTools.set(tools, n);
        }
        total += n;
      }
      return total;
    } finally {
      cts.dispose();
    }
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelStreamEvent> {
    if (signal?.aborted) throw cancelled();
    const model = await this.model(request.model);
    const cts = this.cancellation(signal);
    const options: vscode.LanguageModelChatRequestOptions = {
      justification: JUSTIFICATION,
      ...(request.tools?.length
        ? {
            tools: request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })),
          }
        : {}),
      ...(request.maxTokens !== undefined || request.temperature !== undefined
        ? {
            modelOptions: {
              ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
              ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            },
          }
        : {}),
    };
    try {
      let response: vscode.LanguageModelChatResponse;
      try {
        response = await model.sendRequest(this.toMessages(request.messages).messages, options, cts.source.token);
      } catch (err) {
        throw this.mapError(err, request.model, signal);
      }
      const split = new InlineReasoningSplitter();
      let content = '';
      const calls: ToolCall[] = [];
      const emit = (piece: { text: string; reasoning: string }): ModelStreamEvent[] => {
        const out: ModelStreamEvent[] = [];
        if (piece.reasoning) out.push({ type: 'reasoning', delta: piece.reasoning });
        if (piece.text) {
          content += piece.text;
          out.push({ type: 'text', delta: piece.text });
        }
        return out;
      };
      try {
        for await (const part of untilAborted(response.stream, signal)) {
          if (part instanceof this.surface.LanguageModelTextPart) {
            yield* emit(split.push(part.value));
          } else if (part instanceof this.surface.LanguageModelToolCallPart) {
            calls.push({
              id: part.callId || `call_lm_${++this.callCounter}`,
              name: part.name,
              arguments: JSON.stringify(part.input ?? {}),
            });
          } else if (isThinkingPart(part, this.surface)) {
            const text = Array.isArray(part.value) ? part.value.join('') : part.value;
            if (text) yield { type: 'reasoning', delta: text };
          }
        }
      } catch (err) {
        throw this.mapError(err, request.model, signal);
      }
      yield* emit(split.end());
      for (const call of calls) yield { type: 'tool_call', call };
      const usage = await this.usageOf(model, request, content, calls, signal);
      if (usage) yield { type: 'usage', usage };
      yield {
        type: 'done',
        finishReason: calls.length ? 'tool_calls' : 'stop',
        content,
        toolCalls: calls,
        ...(usage ? { usage } : {}),
      };
    } finally {
      cts.dispose();
    }
  }

  /**
   * The Language Model API reports no usage: it is counted with the model's own tokenizer (the
   * prompt's messages are counted once each and cached), so the context figure and the spend are
   * the model's numbers. Undefined when counting fails: the engine estimates instead.
   */
  private async usageOf(
    model: vscode.LanguageModelChat,
    request: ModelRequest,
    content: string,
    calls: readonly ToolCall[],
    signal: AbortSignal | undefined,
  ): Promise<Usage | undefined> {
    try {
      const promptTokens = await this.countTokens(request, signal);
      const written = content + calls.map((c) => c.name + c.arguments).join('');
      const completionTokens = written === '' ? 0 : await model.countTokens(written);
      return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
    } catch (err) {
      this.log(`counting tokens for '${request.model}' failed: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  private async model(id: string): Promise<vscode.LanguageModelChat> {
    const known = this.models.get(id);
    if (known) return known;
    let found: vscode.LanguageModelChat[];
    try {
      found = await this.surface.lm.selectChatModels({ id });
    } catch (err) {
      throw this.mapError(err, id, undefined);
    }
    const model = found[0];
    if (!model) {
      throw new ModelError(
        'bad_request',
        `VS Code offers no language model '${id}'. Run "Planwise: Select Model" to pick one of the models it offers ` +
          '(GitHub Copilot must be signed in, or another extension must provide models).',
      );
    }
    this.models.set(id, model);
    return model;
  }

  private cancellation(signal: AbortSignal | undefined) {
    const source = new this.surface.CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    return {
      source,
      dispose: () => {
        signal?.removeEventListener('abort', onAbort);
        source.dispose();
      },
    };
  }

  /** The thread as Language Model API messages (consecutive tool results share one User message). */
  private toMessages(messages: readonly ChatMessage[]): { messages: vscode.LanguageModelChatMessage[] } {
    const S = this.surface;
    const out: vscode.LanguageModelChatMessage[] = [];
    let results: vscode.LanguageModelToolResultPart[] | undefined;
    const flush = () => {
      if (results) out.push(S.LanguageModelChatMessage.User(results));
      results = undefined;
    };
    for (const m of messages) {
      if (m.role === 'tool') {
        results ??= [];
        results.push(new S.LanguageModelToolResultPart(m.toolCallId, [new S.LanguageModelTextPart(m.content)]));
        continue;
      }
      flush();
      let message: vscode.LanguageModelChatMessage;
      if (m.role === 'assistant') {
        const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
        if (m.content !== '') parts.push(new S.LanguageModelTextPart(m.content));
        for (const c of m.toolCalls ?? [])
          parts.push(new S.LanguageModelToolCallPart(c.id, c.name, parseArgs(c.arguments)));
        message = S.LanguageModelChatMessage.Assistant(parts.length ? parts : '');
      } else {
        // System and user text alike: the API has no system role.
        message = S.LanguageModelChatMessage.User(m.content);
      }
      out.push(message);
    }
    flush();
    return { messages: out };
  }

  private mapError(err: unknown, model: string, signal: AbortSignal | undefined): ModelError {
    if (err instanceof ModelError) return err;
    if (signal?.aborted || (err instanceof Error && err.name === 'Canceled')) {
      return cancelled();
    }
    const message = err instanceof Error ? err.message : String(err);
    // Quoted in parentheses inside a sentence: without its own full stop ("….).").
    const detail = message.replace(/[.\s]+$/, '');
    const code = err instanceof this.surface.LanguageModelError ? err.code : '';
    this.log(`vscode.lm request for '${model}' failed: ${code || 'error'}: ${message}`);
    if (code === 'NoPermissions' || /consent|permission/i.test(message)) {
      return new ModelError(
        'auth',
        `VS Code did not allow Planwise to use the model '${model}' (${detail}). ${CONSENT_ADVICE}`,
      );
    }
    if (code === 'Blocked') {
      return new ModelError(
        'rate_limited',
        `The model '${model}' is blocked for now (${detail}): its quota or rate limit was reached. Wait, or pick another model with "Planwise: Select Model".`,
      );
    }
    if (code === 'NotFound') {
      return new ModelError(
        'bad_request',
        `The model '${model}' is no longer offered by VS Code (${detail}). Pick another with "Planwise: Select Model".`,
      );
    }
    if (/context|too long|token limit|maximum/i.test(message)) {
      return new ModelError('context_length', `The request did not fit the model '${model}' (${detail}).`);
    }
    return new ModelError('server', `The VS Code language model '${model}' failed: ${message}`);
  }
}
