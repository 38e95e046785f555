/**
 * The Language Model API adapter against a fake `vscode.lm` shaped like the real one: message and
 * tool conversion, streamed text and tool calls, reasoning, token counting, the context window,
 * cancellation, a refused consent, and a whole planning session through the same engine.
 */
import assert from 'node:assert/strict';
import type { ChatMessage, ModelRequest } from '../../src/core/agent/model';
import { ModelError } from '../../src/core/agent/model';
import { createSession } from '../../src/core/session/session';
import { VscodeLmModelClient, listLmModels } from '../../src/host/adapters/vscodeLmModelClient';
import { systemClock } from '../../src/node/clock';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { collect } from '../support/scriptedModel';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { makeTempWorkspace } from '../support/tempWorkspace';
import {
  FakeChatModel,
  LanguageModelChatMessage,
  LanguageModelError,
  LanguageModelTextPart,
  LanguageModelThinkingPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
  fakeSurface,
} from '../support/fakeLm';

const tools = [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: {} } }];

function model(answers: ConstructorParameters<typeof FakeChatModel>[5], delayMs = 0) {
  return new FakeChatModel('copilot-gpt-4.1', 'GPT-4.1', 'copilot', 'gpt-4.1', 64_000, answers, delayMs);
}

describe('VscodeLmModelClient (vscode.lm)', () => {
  it('sends the thread as User/Assistant messages with text, tool-call and tool-result parts, and the tools', async () => {
    const m = model([[new LanguageModelTextPart('ok')]]);
    const client = new VscodeLmModelClient(fakeSurface([m]));
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You plan.' },
      { role: 'user', content: 'Plan X' },
      {
        role: 'assistant',
        content: 'Reading.',
        toolCalls: [
          { id: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
          { id: 'c2', name: 'read_file', arguments: '{"path":"b"}', roundTrip: { origin: 'other', fields: { x: 1 } } },
        ],
      },
      { role: 'tool', toolCallId: 'c1', content: 'A' },
      { role: 'tool', toolCallId: 'c2', content: 'B' },
    ];
    const r = await collect(client.stream({ model: 'copilot-gpt-4.1', messages, tools }));
    assert.equal(r.error, undefined, String(r.error));
    const sent = m.requests[0]!;
    assert.deepEqual(
      sent.messages.map((x) => x.role),
      [1, 1, 2, 1],
    );
    assert.deepEqual(sent.messages[0]!.content, [new LanguageModelTextPart('You plan.')]);
    assert.deepEqual(sent.messages[2]!.content, [
      new LanguageModelTextPart('Reading.'),
      new LanguageModelToolCallPart('c1', 'read_file', { path: 'a' }),
      new LanguageModelToolCallPart('c2', 'read_file', { path: 'b' }),
    ]);
    assert.deepEqual(sent.messages[3]!.content, [
      new LanguageModelToolResultPart('c1', [new LanguageModelTextPart('A')]),
      new LanguageModelToolResultPart('c2', [new LanguageModelTextPart('B')]),
    ]);
    assert.deepEqual(sent.options?.tools, [
      { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: {} } },
    ]);
    assert.ok(sent.options?.justification);
    assert.ok(sent.messages.every((x) => x instanceof LanguageModelChatMessage));
  });

  it("reads thinking parts by the API's class where VS Code has one, whose minified name says nothing", async () => {
    // VS Code 1.106 hands consumers its LanguageModelThinkingPart under a minified class name.
    const Qc = class {
      constructor(public value: string | string[]) {}
    };
    const m = model([[new Qc(['weighing ', 'both files']), new LanguageModelTextPart('Reading.')]]);
    const client = new VscodeLmModelClient({ ...fakeSurface([m]), LanguageModelThinkingPart: Qc });
    const r = await collect(client.stream({ model: 'copilot-gpt-4.1', messages: [{ role: 'user', content: 'go' }] }));
    assert.equal(r.reasoning, 'weighing both files');
    assert.equal(r.text, 'Reading.');
  });

  it('streams text and tool calls into the port events; <think> and thinking parts are reasoning', async () => {
    const m = model([
      [
        new LanguageModelThinkingPart('planning '),
        new LanguageModelTextPart('<thi'),
        new LanguageModelTextPart('nk>weigh</think>\n\nReading '),
        new LanguageModelTextPart('two files.'),
        new LanguageModelToolCallPart('call_1', 'read_file', { path: 'src/a.ts' }),
        new LanguageModelToolCallPart('call_2', 'read_file', { path: 'src/b.ts' }),
      ],
    ]);
    const client = new VscodeLmModelClient(fakeSurface([m]));
    const r = await collect(client.stream({ model: 'copilot-gpt-4.1', messages: [{ role: 'user', content: 'go' }] }));
    assert.equal(r.reasoning, 'planning weigh');
    assert.equal(r.text, 'Reading two files.');
    assert.equal(r.done?.finishReason, 'tool_calls');
    // Usage counted with the model's tokenizer (the fake's: 4 characters a token).
    const written = 'Reading two files.' + 'read_file{"path":"src/a.ts"}' + 'read_file{"path":"src/b.ts"}';
    const completion = Math.ceil(written.length / 4);
    assert.deepEqual(r.done?.usage, { promptTokens: 1, completionTokens: completion, totalTokens: 1 + completion });
    assert.deepEqual(r.done?.toolCalls, [
      { id: 'call_1', name: 'read_file', arguments: '{"path":"src/a.ts"}' },
      { id: 'call_2', name: 'read_file', arguments: '{"path":"src/b.ts"}' },
    ]);
  });

  it('counts tokens with model.countTokens and reads the window from maxInputTokens', async () => {
    const m = model([]);
    const client = new VscodeLmModelClient(fakeSurface([m]));
    assert.equal(client.contextWindow('copilot-gpt-4.1'), undefined, 'unknown until the model was looked up');
    await client.prepare(['copilot-gpt-4.1']);
    assert.equal(client.contextWindow('copilot-gpt-4.1'), 64_000);
    const req: ModelRequest = {
      model: 'copilot-gpt-4.1',
      messages: [
        { role: 'system', content: 'x'.repeat(400) },
        { role: 'user', content: 'y'.repeat(40) },
      ],
    };
    assert.equal(await client.countTokens(req), 110);
    // Each message is counted once: the next request counts only what was added.
    const calls = m.countCalls;
    const next = { ...req, messages: [...req.messages, { role: 'user' as const, content: 'z'.repeat(8) }], tools };
    assert.equal(await client.countTokens(next), 110 + 2 + Math.ceil(JSON.stringify(tools).length / 4));
    assert.equal(m.countCalls - calls, 2, 'the new message and the tools, once');
    await client.countTokens(next);
    assert.equal(m.countCalls - calls, 2);
  });

  it('cancels through the CancellationToken when the signal aborts', async () => {
    const parts = Array.from({ length: 50 }, (_, i) => new LanguageModelTextPart(`w${i} `));
    const m = model([parts], 5);
    const client = new VscodeLmModelClient(fakeSurface([m]));
    const controller = new AbortController();
    const r = await collect(
      client.stream({ model: 'copilot-gpt-4.1', messages: [{ role: 'user', content: 'go' }] }, controller.signal),
      (e) => {
        if (e.type === 'text') controller.abort();
      },
    );
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'aborted');
    assert.equal(m.requests[0]!.token?.isCancellationRequested, true);
  });

  it('an abort ends the stream at once when the model has gone silent (VS Code does not tell the provider)', async () => {
    // VS Code 1.106 does not pass a cancellation on once the answer streams: the next part may never come.
    let release = () => {};
    const stalled = model([]);
    stalled.sendRequest = async () => ({
      stream: (async function* () {
        yield new LanguageModelTextPart('Reading ');
        await new Promise<void>((r) => (release = r));
        yield new LanguageModelTextPart('never seen');
      })(),
      text: (async function* () {})(),
    });
    const client = new VscodeLmModelClient(fakeSurface([stalled]));
    const controller = new AbortController();
    try {
      const r = await collect(
        client.stream({ model: 'copilot-gpt-4.1', messages: [{ role: 'user', content: 'go' }] }, controller.signal),
        (e) => {
          if (e.type === 'text') setTimeout(() => controller.abort(), 10);
        },
      );
      assert.ok(r.error instanceof ModelError, String(r.error));
      assert.equal(r.error.kind, 'aborted');
      assert.equal(r.text, 'Reading ');
    } finally {
      release();
    }
  });

  it('a refused consent is a clear auth error, not a crash', async () => {
    const m = model([LanguageModelError.NoPermissions('The user did not grant access to the language model.')]);
    const client = new VscodeLmModelClient(fakeSurface([m]));
    const r = await collect(client.stream({ model: 'copilot-gpt-4.1', messages: [{ role: 'user', content: 'go' }] }));
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'auth');
    assert.equal(
      r.error.message,
      "VS Code did not allow Planwise to use the model 'copilot-gpt-4.1' (The user did not grant access to the language model). " +
        'Planwise needs your permission to use this model: start planning again and choose "Allow" when VS Code asks, ' +
        'or allow it under Accounts > Manage Language Model Access.',
    );
  });

  it('a model VS Code does not offer says to pick one', async () => {
    const client = new VscodeLmModelClient(fakeSurface([model([])]));
    const r = await collect(client.stream({ model: 'gone', messages: [{ role: 'user', content: 'go' }] }));
    assert.ok(r.error instanceof ModelError);
    assert.equal(r.error.kind, 'bad_request');
    assert.match(r.error.message, /VS Code offers no language model 'gone'\. Run "Planwise: Select Model"/);
  });

  it('lists the models VS Code offers, for Select Model', async () => {
    const other = new FakeChatModel('ext-llama', 'Llama (extension)', 'acme', 'llama', 8000, []);
    assert.deepEqual(
      (await listLmModels(fakeSurface([model([]), other]))).map((m) => `${m.vendor}/${m.id}`),
      ['copilot/copilot-gpt-4.1', 'acme/ext-llama'],
    );
  });

  it('plans a whole task through the same engine: a tool call, then a plan at the gate, no key', async () => {
    const ws = makeTempWorkspace({ 'src/a.ts': 'export const a = 1;\n' });
    try {
      const m = model((req, n) =>
        n === 0
          ? [new LanguageModelToolCallPart('call_r', 'read_file', { path: 'src/a.ts' })]
          : [new LanguageModelTextPart(planResponse(samplePlan()))],
      );
      const client = new VscodeLmModelClient(fakeSurface([m]));
      const session = createSession(
        {
          reader: ws.reader,
          writer: new NodeWorkspaceWriter(),
          searcher: createSearcher(ws.reader),
          model: client,
          clock: systemClock,
          interviewer: { ask: async () => ({ kind: 'cancelled' }) },
          approver: {
            approvePlan: async () => ({ decision: 'cancel' }),
            grantMore: async () => 0,
            approveCommand: async () => false,
          },
        },
        { planningModel: 'copilot-gpt-4.1', trusted: true, interactive: false },
      );
      const stop = await session.start('plan a change to a');
      assert.equal(stop.kind, 'awaiting_approval', JSON.stringify(stop));
      assert.equal(m.requests.length, 2);
      const second = m.requests[1]!.messages;
      const result = second.at(-1)!.content[0] as LanguageModelToolResultPart;
      assert.equal(result.callId, 'call_r');
      assert.match(String((result.content[0] as LanguageModelTextPart).value), /export const a = 1;/);
    } finally {
      ws.cleanup();
    }
  });
});
