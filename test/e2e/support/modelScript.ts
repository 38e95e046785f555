/**
 * The scripted model for the end-to-end scenarios: one ScriptedServer (test/support/scriptedServer.ts)
 * per code-server, fed from a queue the scenarios fill as they go. The extension host inside
 * code-server reaches it over 127.0.0.1.
 *
 *   const model = await ModelScript.start();            // or { apiKey } to require a bearer key
 *   const mark = model.mark();                          // requests sent so far
 *   model.push(sse.toolTurn([...]), sse.textTurn(planResponse(plan)));
 *   ... drive the UI ...
 *   model.since(mark)                                   // the requests this step caused
 *   model.assertDrained()                               // every pushed turn was asked for
 *
 * A request that finds the queue empty gets the scripted server's 500 ("the script has no turn N"),
 * which the extension reports as a failed run: a scenario that sends more requests than it
 * scripted fails loudly instead of hanging.
 */
import assert from 'node:assert/strict';
import { ScriptedServer, type RecordedRequest, type ScriptedTurn } from '../../support/scriptedServer';

export class ModelScript {
  private constructor(
    readonly server: ScriptedServer,
    private readonly queue: ScriptedTurn[],
  ) {}

  static async start(options: { apiKey?: string } = {}): Promise<ModelScript> {
    const queue: ScriptedTurn[] = [];
    const server = await ScriptedServer.start(() => queue.shift(), {
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    });
    return new ModelScript(server, queue);
  }

  get baseURL(): string {
    return this.server.baseURL;
  }

  /** Chat requests answered or refused so far (every one, in order). */
  get requests(): readonly RecordedRequest[] {
    return this.server.requests;
  }

  /** Turns pushed but not asked for yet. */
  get pending(): number {
    return this.queue.length;
  }

  push(...turns: ScriptedTurn[]): void {
    this.queue.push(...turns);
  }

  /** The number of chat requests so far; pass it to `since()`. */
  mark(): number {
    return this.server.requests.length;
  }

  since(mark: number): readonly RecordedRequest[] {
    return this.server.requests.slice(mark);
  }

  /** Waits until `count` chat requests have arrived in total. */
  async waitForRequests(count: number, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.server.requests.length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `The extension sent ${this.server.requests.length} chat request(s) to the scripted model within ${timeoutMs} ms; ` +
            `expected ${count}. Check the Planwise log in the test artifacts.`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Every pushed turn was requested, and no request found the script empty. */
  assertDrained(): void {
    assert.equal(this.queue.length, 0, `${this.queue.length} scripted turn(s) were never requested`);
    assert.deepEqual(this.server.exhausted, [], 'the extension sent requests the scenario did not script');
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/** The text content of a chat message (string content, or the text parts of an array). */
export function messageText(message: Record<string, unknown> | undefined): string {
  const content = message?.['content'];
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (typeof p === 'object' && p !== null && 'text' in p ? String((p as { text: unknown }).text) : ''))
      .join('');
  }
  return '';
}

/** The tool results (role "tool") a request carried, in order. */
export function toolResults(request: RecordedRequest | undefined): string[] {
  return (request?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => messageText(m));
}
