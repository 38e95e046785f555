/**
 * A `ModelClient` that answers from a script in-process (no SDK, no sockets), for tests that run
 * the real engine where the OpenAI SDK cannot (the webview suite's jsdom globals). Each request
 * takes the next turn; past the end it answers "Done.".
 */
import type { ModelClient, ModelRequest, ModelStreamEvent, ToolCall } from '../../src/core/agent/model';

export type InProcessTurn = { readonly text: string } | { readonly tools: readonly { name: string; args: unknown }[] };

export class InProcessModel implements ModelClient {
  readonly requests: ModelRequest[] = [];
  private calls = 0;

  constructor(private readonly turns: readonly InProcessTurn[]) {}

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.requests.push(request);
    const turn = this.turns[this.requests.length - 1] ?? { text: 'Done.' };
    if ('text' in turn) {
      yield { type: 'text', delta: turn.text };
      yield { type: 'done', finishReason: 'stop', content: turn.text, toolCalls: [] };
      return;
    }
    const toolCalls: ToolCall[] = turn.tools.map((t) => ({
      id: `call-${++this.calls}`,
      name: t.name,
      arguments: JSON.stringify(t.args),
    }));
    for (const call of toolCalls) yield { type: 'tool_call', call };
    yield { type: 'done', finishReason: 'tool_calls', content: '', toolCalls };
  }
}
