/**
 * Provider fields that must come back: DeepSeek's `reasoning_content` over two tool rounds, Gemini's
 * thought signatures on parallel calls. The scripted server checks each follow-up request the way
 * the real API does and answers its 400 when a field is missing.
 */
import assert from 'node:assert/strict';
import type { ChatMessage, ModelRequest } from '../../src/core/agent/model';
import { OpenAIModelClient, toRequestBody } from '../../src/node/openaiModelClient';
import { ScriptedServer, sse } from '../support/scriptedServer';
import type { RecordedRequest, ScriptedTurn } from '../support/scriptedServer';
import { collect } from '../support/scriptedModel';
import {
  DEEPSEEK_MISSING,
  DEEPSEEK_MODEL,
  GEMINI_MODEL,
  deepseekCheck,
  deepseekTextTurn,
  deepseekToolTurn,
  geminiCheck,
  geminiParallelCalls,
  GROQ_MODEL,
  groqCheck,
  groqToolTurn,
} from '../support/providerFixtures';

/** Runs a tool loop the way `runTurn` stores messages, until the model answers without calls. */
async function toolLoop(client: OpenAIModelClient, model: string, history: ChatMessage[], rounds = 5) {
  for (let i = 0; i < rounds; i++) {
    const r = await collect(client.stream({ model, messages: [...history] }));
    if (r.error) return { error: r.error, history };
    const done = r.done!;
    history.push({
      role: 'assistant',
      content: done.content,
      ...(done.toolCalls.length ? { toolCalls: done.toolCalls } : {}),
      ...(done.roundTrip ? { roundTrip: done.roundTrip } : {}),
    });
    if (done.toolCalls.length === 0) return { history, reasoning: r.reasoning, text: r.text };
    for (const c of done.toolCalls) history.push({ role: 'tool', toolCallId: c.id, content: `result of ${c.name}` });
  }
  throw new Error('too many rounds');
}

describe('round-trip fields', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  describe('DeepSeek thinking mode with tools', () => {
    const reasonings = ['I should read the parser first.', 'Now the tests, to see the cases.'];
    const calls = [
      { id: 'call_ds_1', name: 'read_file', args: { path: 'src/parser.ts' } },
      { id: 'call_ds_2', name: 'read_file', args: { path: 'test/parser.test.ts' } },
    ];
    const expected = new Map(calls.map((c, i) => [c.id, reasonings[i]!]));
    const script = (req: RecordedRequest, n: number): ScriptedTurn | undefined => {
      const refused = deepseekCheck(req, expected);
      if (refused) return refused;
      if (n < 2) return deepseekToolTurn(reasonings[n]!, calls[n]!);
      return n === 2 ? deepseekTextTurn('Both read; answer.', 'The parser handles both cases.') : undefined;
    };

    it('sends each tool-calling message back with its reasoning_content over two rounds', async () => {
      server = await ScriptedServer.start(script);
      const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 });
      const r = await toolLoop(client, DEEPSEEK_MODEL, [{ role: 'user', content: 'How does the parser work?' }]);
      assert.equal(r.error, undefined, String(r.error));
      assert.equal(server.requests.length, 3);
      const sent = server.requests[2]!.body.messages.filter((m) => m.role === 'assistant');
      assert.deepEqual(
        sent.map((m) => m.reasoning_content),
        reasonings,
      );
      assert.equal(r.text, 'The parser handles both cases.');
      assert.equal(r.reasoning, 'Both read; answer.');
      // The stored thread keeps the field with the message, tagged with where it came from.
      const stored = r.history.filter((m) => m.role === 'assistant');
      assert.deepEqual(stored[0]!.role === 'assistant' && stored[0]!.roundTrip?.fields, {
        reasoning_content: reasonings[0],
      });
      // Never as visible text: the stored content is empty for a tool-only message.
      assert.equal(stored[0]!.content, '');
    });

    it('survives an archive round trip (JSON), so a resumed session still works', async () => {
      server = await ScriptedServer.start(script);
      const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 });
      const history: ChatMessage[] = [{ role: 'user', content: 'How does the parser work?' }];
      const first = await collect(client.stream({ model: DEEPSEEK_MODEL, messages: [...history] }));
      const d = first.done!;
      history.push({ role: 'assistant', content: d.content, toolCalls: d.toolCalls, roundTrip: d.roundTrip! });
      history.push({ role: 'tool', toolCallId: d.toolCalls[0]!.id, content: 'parser source' });
      const restored = JSON.parse(JSON.stringify(history)) as ChatMessage[];
      const resumed = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 });
      const r = await toolLoop(resumed, DEEPSEEK_MODEL, restored);
      assert.equal(r.error, undefined, String(r.error));
      assert.equal(server.requests.length, 3);
    });

    it('the scripted API refuses a follow-up without the field, as DeepSeek does', async () => {
      server = await ScriptedServer.start(script);
      const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 });
      const history: ChatMessage[] = [{ role: 'user', content: 'How does the parser work?' }];
      const first = await collect(client.stream({ model: DEEPSEEK_MODEL, messages: [...history] }));
      const d = first.done!;
      // A client that drops the field (as Planwise did before): the real API's 400.
      history.push({
        role: 'assistant',
        content: d.content,
        toolCalls: d.toolCalls.map(({ roundTrip: _, ...c }) => c),
      });
      history.push({ role: 'tool', toolCallId: d.toolCalls[0]!.id, content: 'parser source' });
      const r = await collect(client.stream({ model: DEEPSEEK_MODEL, messages: [...history] }));
      assert.match(String(r.error), new RegExp(DEEPSEEK_MISSING.replace(/\.$/, '').replace(/\./g, '\\.')));
    });

    it('sends nothing to another provider or model: only what came from that origin goes back', async () => {
      server = await ScriptedServer.start(script);
      const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 });
      const history: ChatMessage[] = [{ role: 'user', content: 'q' }];
      const first = await collect(client.stream({ model: DEEPSEEK_MODEL, messages: [...history] }));
      const d = first.done!;
      history.push({ role: 'assistant', content: d.content, toolCalls: d.toolCalls, roundTrip: d.roundTrip! });
      const request: ModelRequest = { model: 'gpt-4.1', messages: history };
      const other = toRequestBody(request, true, undefined, 'openai-compatible https://api.openai.com/v1 gpt-4.1');
      const msg = other.messages[1] as unknown as Record<string, unknown>;
      assert.equal(msg.reasoning_content, undefined);
      assert.deepEqual(Object.keys(msg).sort(), ['content', 'role', 'tool_calls']);
    });
  });

  describe('Gemini 3 thought signatures on parallel calls', () => {
    const sigA = 'CiQBcsjafQ1Z0f6w+signatureA==';
    const sigB = 'CiQBcsjafQ2Y1e7x+signatureB==';
    const round1 = [
      { id: 'function-call-1', name: 'read_file', args: { path: 'a.ts' } },
      { id: 'function-call-2', name: 'read_file', args: { path: 'b.ts' } },
    ];
    const round2 = [
      { id: 'function-call-3', name: 'code_search', args: { query: 'parse' } },
      { id: 'function-call-4', name: 'list_files', args: { path: 'src' } },
    ];
    const expected = new Map([
      ['function-call-1', sigA],
      ['function-call-3', sigB],
    ]);
    const script = (req: RecordedRequest, n: number): ScriptedTurn | undefined => {
      const refused = geminiCheck(req, expected);
      if (refused) return refused;
      if (n === 0) return geminiParallelCalls(sigA, round1);
      if (n === 1) return geminiParallelCalls(sigB, round2);
      return n === 2 ? sse.textTurn('Done reading.') : undefined;
    };

    it('sends extra_content back on the first call of each batch, and nothing on the others', async () => {
      server = await ScriptedServer.start(script);
      const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 });
      const r = await toolLoop(client, GEMINI_MODEL, [{ role: 'user', content: 'Read a and b.' }]);
      assert.equal(r.error, undefined, String(r.error));
      assert.equal(server.requests.length, 3);
      const sentCalls = server.requests[2]!.body.messages.flatMap((m) =>
        Array.isArray(m.tool_calls) ? (m.tool_calls as Record<string, unknown>[]) : [],
      );
      assert.deepEqual(
        sentCalls.map((c) => c.extra_content),
        [{ google: { thought_signature: sigA } }, undefined, { google: { thought_signature: sigB } }, undefined],
      );
    });

    it('the scripted API refuses a call without its signature, as Gemini does', async () => {
      server = await ScriptedServer.start(script);
      const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 });
      const history: ChatMessage[] = [{ role: 'user', content: 'Read a and b.' }];
      const d = (await collect(client.stream({ model: GEMINI_MODEL, messages: [...history] }))).done!;
      history.push({ role: 'assistant', content: '', toolCalls: d.toolCalls.map(({ roundTrip: _, ...c }) => c) });
      for (const c of d.toolCalls) history.push({ role: 'tool', toolCallId: c.id, content: 'x' });
      const r = await collect(client.stream({ model: GEMINI_MODEL, messages: [...history] }));
      assert.match(String(r.error), /Function call is missing a thought_signature/);
    });
  });

  describe('Groq: sends reasoning, refuses it back', () => {
    it('drops the refused field for that origin after the 400, asks again at once, and never sends it again', async () => {
      server = await ScriptedServer.start((req, n) => {
        const refused = groqCheck(req);
        if (refused) return refused;
        if (n === 0) return groqToolTurn('Look at a.', { id: 'call_g1', name: 'read_file', args: { path: 'a' } });
        if (n === 2) return groqToolTurn('Then b.', { id: 'call_g2', name: 'read_file', args: { path: 'b' } });
        return sse.textTurn('Done.');
      });
      const logs: string[] = [];
      const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0, log: (l) => logs.push(l) });
      const r = await toolLoop(client, GROQ_MODEL, [{ role: 'user', content: 'Read a and b.' }]);
      assert.equal(r.error, undefined, String(r.error));
      assert.deepEqual(
        server.requests.map((q) => q.body.messages.some((m) => 'reasoning' in m)),
        [false, true, false, false],
      );
      assert.ok(logs.some((l) => l.includes("refuses 'reasoning' on assistant messages")));
    });
  });
});
