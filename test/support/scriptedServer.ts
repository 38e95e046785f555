/**
 * A scripted OpenAI-compatible server on 127.0.0.1 for model, runloop and end-to-end tests.
 * Tests point the real `openai` SDK (through `OpenAIModelClient`) at `server.baseURL`.
 *
 * How to script a scenario:
 *
 * ```ts
 * const server = await ScriptedServer.start([
 *   sse.toolTurn([{ name: 'read_file', args: { path: 'src/a.ts' } }]),   // answer to request 0
 *   sse.textTurn('Here is the plan…'),                                  // answer to request 1
 * ]);
 * try {
 *   // … run the code under test against server.baseURL …
 *   assert.equal(server.requests.length, 2);
 *   assert.deepEqual(server.requests[1]!.body.messages.at(-1), { role: 'tool', … });
 * } finally {
 *   await server.close();
 * }
 * ```
 *
 * - Each `POST /v1/chat/completions` consumes the next `ScriptedTurn` (or calls the script
 *   function with the parsed request and its 0-based number). A turn is data: `chunks` (objects,
 *   each sent as one `data:` line, then `data: [DONE]`), or `raw` SSE text, or an HTTP error
 *   (`status` + `body`, see `sse.httpError`). `cutAfter`, `stallAfter`, `delayMs`,
 *   `headersDelayMs` and `omitDone` shape the delivery; see `ScriptedTurn`.
 * - `sse` builds chunks the way real providers send them: `sse.text`, `sse.reasoning`,
 *   `sse.toolCall` (id + name first, arguments split mid-token), `sse.parallelToolCalls`,
 *   `sse.ollamaToolCalls` (whole calls, all at index 0), `sse.finish`, `sse.usage`,
 *   `sse.placeholder` (`choices: []`), `sse.error` (mid-stream error object), `sse.comment`
 *   and `sse.raw` (verbatim pieces mixed into `chunks`), and whole turns with `sse.turn`,
 *   `sse.textTurn`, `sse.toolTurn`.
 * - When the script runs out, the server answers 500 with a JSON error saying it has no turn N
 *   (and `x-should-retry: false`, so the client fails at once), and records N in `exhausted`.
 * - `requests` holds every chat request (parsed JSON body + headers), in order; `otherRequests`
 *   the rest. `GET /v1/models` lists `options.models`. With `options.apiKey`, a request without
 *   `Authorization: Bearer <apiKey>` gets 401 and consumes no turn.
 * - A request without `stream: true` gets the turn's chunks folded into one JSON completion.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RAW, SCRIPTED_MODEL, isRawPiece, toCompletion } from './scriptedChunks';
import type { ScriptedTurn } from './scriptedChunks';

export { sse, splitAt, envelope, SCRIPTED_MODEL } from './scriptedChunks';
export type { ScriptedTurn, ToolCallSpec, RawPiece, TextOptions } from './scriptedChunks';

/** The parts of a chat request body tests usually read; everything else is there too. */
export interface ChatRequestBody {
  readonly model?: string;
  readonly messages: Record<string, unknown>[];
  readonly tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  readonly stream?: boolean;
  readonly stream_options?: { include_usage?: boolean };
  readonly [key: string]: unknown;
}

export interface RecordedRequest {
  /** 0-based number among chat requests (-1 for other paths). */
  readonly n: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  /** The parsed JSON body (`{ messages: [] }` when the body was not JSON). */
  readonly body: ChatRequestBody;
}

export type Script = readonly ScriptedTurn[] | ((req: RecordedRequest, n: number) => ScriptedTurn | undefined);

export interface ScriptedServerOptions {
  /** Ids listed by `GET /v1/models` (default: `['scripted-model']`). */
  readonly models?: readonly string[];
  /** When set, requests must carry `Authorization: Bearer <apiKey>`; others get 401. */
  readonly apiKey?: string;
}

const write = (res: ServerResponse, piece: string | Uint8Array) =>
  new Promise<void>((resolve) => res.write(piece, () => resolve()));

function jsonError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  extra: Record<string, string> = {},
) {
  const body = JSON.stringify({ error: { message, type, param: null, code: type } });
  res.writeHead(status, { 'content-type': 'application/json', 'x-should-retry': 'false', ...extra });
  res.end(body);
}

export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  readonly otherRequests: RecordedRequest[] = [];
  /** Numbers of chat requests that found no turn in the script. */
  readonly exhausted: number[] = [];
  readonly baseURL: string;
  private closed = false;
  /** Pending delays, cleared by `close()` so no timer outlives the server. */
  private readonly timers = new Map<ReturnType<typeof setTimeout>, () => void>();

  private constructor(
    private readonly server: Server,
    private readonly script: Script,
    private readonly options: ScriptedServerOptions,
  ) {
    this.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  /**
   * Calls `listener` as each request's head arrives (its first bytes, before the body is read),
   * with the request path and `Date.now()`: what a time-to-first-request measurement reads.
   */
  onRequestStart(listener: (path: string, atMs: number) => void): void {
    this.server.on('request', (req: IncomingMessage) => listener(req.url ?? '', Date.now()));
  }

  /** Starts a server on 127.0.0.1 on a free port. */
  static async start(script: Script, options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const scripted = new ScriptedServer(server, script, options);
    server.on('request', (req, res) => {
      scripted.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) jsonError(res, 500, `Scripted server failed: ${String(err)}`, 'scripted_server_error');
        else res.destroy();
      });
    });
    return scripted;
  }

  /** Turns left in an array script (Infinity for a function script). */
  get remaining(): number {
    return typeof this.script === 'function' ? Infinity : Math.max(0, this.script.length - this.requests.length);
  }

  /** Stops the server, ending open streams at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [timer, wake] of this.timers) {
      clearTimeout(timer);
      wake();
    }
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.set(timer, resolve);
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pieces: Buffer[] = [];
    for await (const piece of req) pieces.push(piece as Buffer);
    const rawBody = Buffer.concat(pieces).toString('utf8');
    let body: ChatRequestBody = { messages: [] };
    try {
      if (rawBody) body = JSON.parse(rawBody) as ChatRequestBody;
    } catch {
      // recorded as the raw text; the default body stays
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const isChat = req.method === 'POST' && path.replace(/\/+$/, '') === '/v1/chat/completions';
    const record: RecordedRequest = {
      n: isChat ? this.requests.length : -1,
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      rawBody,
      body,
    };
    if (this.options.apiKey !== undefined && req.headers.authorization !== `Bearer ${this.options.apiKey}`) {
      this.otherRequests.push(record);
      jsonError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
      return;
    }
    if (!isChat) {
      this.otherRequests.push(record);
      if (req.method === 'GET' && path === '/v1/models') {
        const data = (this.options.models ?? [SCRIPTED_MODEL]).map((id) => ({
          id,
          object: 'model',
          created: 1_700_000_000,
          owned_by: 'scripted',
        }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data }));
        return;
      }
      jsonError(res, 404, `Scripted server: no route for ${req.method} ${path}.`, 'not_found');
      return;
    }
    this.requests.push(record);
    const n = record.n;
    const turn = typeof this.script === 'function' ? this.script(record, n) : this.script[n];
    if (turn === undefined) {
      this.exhausted.push(n);
      const size =
        typeof this.script === 'function'
          ? 'the script function returned nothing'
          : `it has ${this.script.length} turn(s)`;
      jsonError(
        res,
        500,
        `Scripted server: the script has no turn ${n} (${size}); the client sent more chat requests than the test scripted.`,
        'script_exhausted',
      );
      return;
    }
    await this.answer(turn, body.stream === true, res);
  }

  private async answer(turn: ScriptedTurn, stream: boolean, res: ServerResponse): Promise<void> {
    if (turn.headersDelayMs) await this.sleep(turn.headersDelayMs);
    if (this.closed || res.destroyed) return;
    const status = turn.status ?? 200;
    if (turn.body !== undefined || status >= 300) {
      res.writeHead(status, { 'content-type': 'application/json', ...turn.headers });
      res.end(turn.body ?? JSON.stringify({ error: { message: `Scripted error ${status}`, type: 'error' } }));
      return;
    }
    if (!stream) {
      res.writeHead(status, { 'content-type': 'application/json', ...turn.headers });
      res.end(JSON.stringify(toCompletion(turn.chunks ?? [])));
      return;
    }
    const pieces: (string | Uint8Array)[] = turn.raw
      ? [...turn.raw]
      : (turn.chunks ?? []).map((c) => (isRawPiece(c) ? c[RAW] : `data: ${JSON.stringify(c)}\n\n`));
    if (!turn.raw && !turn.omitDone) pieces.push('data: [DONE]\n\n');
    res.writeHead(status, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...turn.headers,
    });
    res.flushHeaders();
    for (let i = 0; i < pieces.length; i++) {
      if (turn.cutAfter !== undefined && i >= turn.cutAfter) {
        res.socket?.destroy();
        return;
      }
      if (turn.stallAfter !== undefined && i >= turn.stallAfter) return; // left open until close()
      if (i > 0 && turn.delayMs) await this.sleep(turn.delayMs);
      if (this.closed || res.destroyed) return;
      await write(res, pieces[i]!);
    }
    if (turn.cutAfter !== undefined && turn.cutAfter <= pieces.length) {
      res.socket?.destroy();
      return;
    }
    if (turn.stallAfter !== undefined) return;
    res.end();
  }
}
