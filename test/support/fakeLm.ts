/**
 * A fake of the `vscode.lm` surface the Language Model adapter uses, shaped like the real API in
 * @types/vscode 1.100 (classes with the same constructors and fields, `LanguageModelChat` with
 * `sendRequest`, `countTokens`, `maxInputTokens`, errors with `code`, cancellation tokens). Each
 * fake model answers from a script: a list of parts per request, or an error to throw.
 */
import type * as vscode from 'vscode';
import type { LmSurface } from '../../src/host/adapters/vscodeLmModelClient';

export class LanguageModelTextPart {
  constructor(public value: string) {}
}
export class LanguageModelToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
export class LanguageModelToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
/** A thinking part as newer VS Code versions stream it (a proposed API in 1.100). */
export class LanguageModelThinkingPart {
  constructor(public value: string) {}
}

type Part = LanguageModelTextPart | LanguageModelToolCallPart | LanguageModelToolResultPart;

export class LanguageModelChatMessage {
  content: Part[];
  constructor(
    public role: number,
    content: string | Part[],
    public name?: string,
  ) {
    this.content = typeof content === 'string' ? [new LanguageModelTextPart(content)] : content;
  }
  static User(content: string | Part[], name?: string) {
    return new LanguageModelChatMessage(1, content, name);
  }
  static Assistant(content: string | Part[], name?: string) {
    return new LanguageModelChatMessage(2, content, name);
  }
}

export class LanguageModelError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
  static NoPermissions(message = 'The user did not grant permission') {
    return new LanguageModelError(message, 'NoPermissions');
  }
  static Blocked(message = 'Blocked') {
    return new LanguageModelError(message, 'Blocked');
  }
  static NotFound(message = 'Not found') {
    return new LanguageModelError(message, 'NotFound');
  }
}

export class CancellationTokenSource {
  private listeners: (() => void)[] = [];
  cancelled = false;
  readonly token: {
    readonly isCancellationRequested: boolean;
    onCancellationRequested(fn: () => void): { dispose(): void };
  };
  constructor() {
    const state = { source: this };
    this.token = {
      get isCancellationRequested() {
        return state.source.cancelled;
      },
      onCancellationRequested: (fn) => {
        this.listeners.push(fn);
        return { dispose: () => undefined };
      },
    };
  }
  cancel() {
    this.cancelled = true;
    for (const l of this.listeners) l();
  }
  dispose() {}
}

export interface SentRequest {
  readonly messages: LanguageModelChatMessage[];
  readonly options: vscode.LanguageModelChatRequestOptions | undefined;
  readonly token: CancellationTokenSource['token'] | undefined;
}

export type LmAnswer = readonly unknown[] | Error | ((req: SentRequest, n: number) => readonly unknown[] | Error);

export class FakeChatModel {
  readonly requests: SentRequest[] = [];
  readonly version = '1';
  constructor(
    readonly id: string,
    readonly name: string,
    readonly vendor: string,
    readonly family: string,
    readonly maxInputTokens: number,
    private readonly answers: LmAnswer[] | ((req: SentRequest, n: number) => readonly unknown[] | Error),
    /** Milliseconds between streamed parts. */
    private readonly delayMs = 0,
  ) {}

  async sendRequest(
    messages: LanguageModelChatMessage[],
    options?: vscode.LanguageModelChatRequestOptions,
    token?: CancellationTokenSource['token'],
  ) {
    const req = { messages, options, token };
    const n = this.requests.length;
    this.requests.push(req);
    const a = typeof this.answers === 'function' ? this.answers : this.answers[n];
    const parts = typeof a === 'function' ? a(req, n) : a;
    if (parts === undefined) throw new Error(`fake model ${this.id}: no answer ${n}`);
    if (parts instanceof Error) throw parts;
    const delay = this.delayMs;
    async function* stream() {
      for (const p of parts as readonly unknown[]) {
        if (delay) await new Promise((r) => setTimeout(r, delay));
        if (token?.isCancellationRequested) {
          const e = new Error('Canceled');
          e.name = 'Canceled';
          throw e;
        }
        yield p;
      }
    }
    return {
      stream: stream(),
      text: (async function* () {})(),
    };
  }

  /** How many times countTokens was called. */
  countCalls = 0;

  async countTokens(text: string | LanguageModelChatMessage): Promise<number> {
    this.countCalls++;
    const s =
      typeof text === 'string' ? text : text.content.map((p) => ('value' in p ? p.value : JSON.stringify(p))).join('');
    return Math.ceil(s.length / 4);
  }
}

export function fakeSurface(models: FakeChatModel[]): LmSurface {
  return {
    lm: {
      selectChatModels: async (selector?: vscode.LanguageModelChatSelector) =>
        models.filter((m) => !selector?.id || m.id === selector.id) as unknown as vscode.LanguageModelChat[],
    },
    LanguageModelChatMessage: LanguageModelChatMessage as unknown as typeof vscode.LanguageModelChatMessage,
    LanguageModelTextPart: LanguageModelTextPart as unknown as typeof vscode.LanguageModelTextPart,
    LanguageModelToolCallPart: LanguageModelToolCallPart as unknown as typeof vscode.LanguageModelToolCallPart,
    LanguageModelToolResultPart: LanguageModelToolResultPart as unknown as typeof vscode.LanguageModelToolResultPart,
    LanguageModelError: LanguageModelError as unknown as typeof vscode.LanguageModelError,
    CancellationTokenSource: CancellationTokenSource as unknown as typeof vscode.CancellationTokenSource,
  };
}
