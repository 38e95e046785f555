/**
 * Every provider stream quirk, sent by the scripted server over 127.0.0.1 and read through the
 * real `openai` SDK by `OpenAIModelClient`.
 */
import assert from 'node:assert/strict';
import { ModelError } from '../../src/core/agent/model';
import type { ModelRequest } from '../../src/core/agent/model';
import { OpenAIModelClient } from '../../src/node/openaiModelClient';
import { ScriptedServer, envelope, sse } from '../support/scriptedServer';
import type { ScriptedTurn } from '../support/scriptedServer';
import { collect } from '../support/scriptedModel';

const request: ModelRequest = { model: 'quirk-model', messages: [{ role: 'user', content: 'plan it' }] };

/** Serves one turn and reads it through the client. */
async function through(turn: ScriptedTurn) {
  const server = await ScriptedServer.start([turn]);
  try {
    const client = new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 });
    const result = await collect(client.stream(request));
    assert.equal(server.requests.length, 1);
    return result;
  } finally {
    await server.close();
  }
}

async function okThrough(turn: ScriptedTurn) {
  const r = await through(turn);
  assert.equal(r.error, undefined, `unexpected error: ${String(r.error)}`);
  assert.ok(r.done, 'a done event');
  return { ...r, done: r.done };
}

const isStreamError = (re: RegExp) => (e: unknown) =>
  e instanceof ModelError && e.kind === 'stream' && re.test(e.message);

describe('OpenAIModelClient: provider stream quirks over HTTP', () => {
  it('reads a call whose id and name come first and whose arguments split mid-token, mid-escape and mid-character', async () => {
    const args = '{"path":"src/caf\u00e9 \\"x\\" \ud83d\ude00.ts","reason":"look"}';
    const escapeAt = args.indexOf('\\"') + 1; // between the backslash and the quote
    const surrogateAt = args.indexOf('\ud83d') + 1; // between the two halves of the emoji
    const r = await okThrough(
      sse.turn(
        sse.toolCall({ id: 'call_a', name: 'read_file', args, split: [3, 9, escapeAt, surrogateAt, args.length - 2] }),
        sse.finish('tool_calls'),
      ),
    );
    assert.deepEqual(r.done.toolCalls, [{ id: 'call_a', name: 'read_file', arguments: args }]);
    assert.deepEqual(JSON.parse(r.done.toolCalls[0]!.arguments), { path: 'src/café "x" 😀.ts', reason: 'look' });
    assert.deepEqual(
      r.events.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && e.call.id),
      ['call_a'],
    );
  });

  it('reads SSE bytes split inside a multi-byte UTF-8 character', async () => {
    const line = Buffer.from(`data: ${JSON.stringify(sse.text('naïve 😀 plan', { size: 100 })[0])}\n\n`);
    const at = line.indexOf(Buffer.from('😀')) + 2;
    const r = await okThrough({
      raw: [
        line.subarray(0, at),
        line.subarray(at),
        `data: ${JSON.stringify(sse.finish('stop'))}\n\n`,
        'data: [DONE]\n\n',
      ],
    });
    assert.equal(r.text, 'naïve 😀 plan');
    assert.equal(r.done.content, 'naïve 😀 plan');
  });

  it('keeps interleaved parallel calls at indexes 0 and 1 apart', async () => {
    const r = await okThrough(
      sse.turn(
        sse.parallelToolCalls([
          { id: 'p0', name: 'list_dir', args: { path: 'src/core' } },
          { id: 'p1', name: 'grep', args: { pattern: 'ModelClient', glob: '*.ts' } },
        ]),
        sse.finish('tool_calls'),
        sse.usage(50, 20),
      ),
    );
    assert.deepEqual(
      r.done.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [
        ['p0', 'list_dir', { path: 'src/core' }],
        ['p1', 'grep', { pattern: 'ModelClient', glob: '*.ts' }],
      ],
    );
  });

  it('reads Ollama whole calls in one chunk, all at index 0, as separate calls by id', async () => {
    const r = await okThrough(
      sse.turn(
        sse.ollamaToolCalls([
          { id: 'call_o1', name: 'read_file', args: { path: 'a.ts' } },
          { id: 'call_o2', name: 'read_file', args: { path: 'b.ts' } },
        ]),
        sse.finish('stop'),
        sse.usage(30, 12),
      ),
    );
    assert.deepEqual(r.done.toolCalls, [
      { id: 'call_o1', name: 'read_file', arguments: '{"path":"a.ts"}' },
      { id: 'call_o2', name: 'read_file', arguments: '{"path":"b.ts"}' },
    ]);
    assert.equal(r.done.finishReason, 'tool_calls');
  });

  it('reads Ollama calls sent one chunk each at index 0 with different ids', async () => {
    const r = await okThrough(
      sse.turn(
        sse.ollamaToolCalls(
          [
            { id: 'k1', name: 'grep', args: { pattern: 'a' } },
            { id: 'k2', name: 'list_dir', args: { path: '.' } },
          ],
          true,
        ),
        sse.finish('tool_calls'),
      ),
    );
    assert.deepEqual(
      r.done.toolCalls.map((c) => c.id + ':' + c.name),
      ['k1:grep', 'k2:list_dir'],
    );
  });

  it('keeps the name when continuation fragments carry function.name ""', async () => {
    const r = await okThrough(
      sse.turn(
        sse.toolCall({ id: 'n1', name: 'search_code', args: { query: 'accumulator' }, emptyNameOnContinuation: true }),
        sse.finish('tool_calls'),
      ),
    );
    assert.deepEqual(r.done.toolCalls, [{ id: 'n1', name: 'search_code', arguments: '{"query":"accumulator"}' }]);
  });

  it('reads tool-call chunks that carry no role', async () => {
    const r = await okThrough(
      sse.turn(
        sse.toolCall({ id: 'r1', name: 'list_dir', args: { path: 'test' }, role: false }),
        sse.finish('tool_calls'),
      ),
    );
    assert.deepEqual(r.done.toolCalls, [{ id: 'r1', name: 'list_dir', arguments: '{"path":"test"}' }]);
  });

  it('generates a unique id for a call sent without one', async () => {
    const r = await okThrough(
      sse.turn(
        sse.parallelToolCalls([
          { id: null, name: 'read_file', args: { path: 'a' } },
          { id: null, name: 'read_file', args: { path: 'b' } },
        ]),
        sse.finish('tool_calls'),
      ),
    );
    const ids = r.done.toolCalls.map((c) => c.id);
    assert.equal(ids.length, 2);
    assert.ok(
      ids.every((id) => /^call_\w+$/.test(id)),
      `ids look like call ids: ${ids.join(', ')}`,
    );
    assert.notEqual(ids[0], ids[1]);
  });

  it('shows delta.reasoning and delta.reasoning_content as reasoning and never as content', async () => {
    const r = await okThrough(
      sse.turn(
        sse.reasoning('First, read the files. ', 'reasoning'),
        sse.reasoning('Then plan.', 'reasoning_content'),
        sse.text('Here is my answer.'),
        sse.finish('stop'),
      ),
    );
    assert.equal(r.reasoning, 'First, read the files. Then plan.');
    assert.equal(r.text, 'Here is my answer.');
    assert.equal(r.done.content, 'Here is my answer.');
  });

  it('skips SSE comment lines such as ": OPENROUTER PROCESSING"', async () => {
    const r = await okThrough(
      sse.turn(
        sse.comment('OPENROUTER PROCESSING'),
        sse.comment('OPENROUTER PROCESSING'),
        sse.text('after the comments'),
        sse.comment('keep-alive'),
        sse.finish('stop'),
      ),
    );
    assert.equal(r.done.content, 'after the comments');
  });

  it('skips a placeholder first chunk with choices: []', async () => {
    const r = await okThrough(sse.turn(sse.placeholder(), sse.role(), sse.text('hello'), sse.finish('stop')));
    assert.equal(r.done.content, 'hello');
    assert.deepEqual(r.done.toolCalls, []);
  });

  it('ignores tool_calls: [] on every text delta', async () => {
    const r = await okThrough(sse.turn(sse.text('just prose here', { emptyToolCalls: true }), sse.finish('stop')));
    assert.equal(r.done.content, 'just prose here');
    assert.deepEqual(r.done.toolCalls, []);
    assert.equal(r.done.finishReason, 'stop');
  });

  it('counts streamed calls when finish_reason is "stop"', async () => {
    const r = await okThrough(
      sse.turn(
        sse.text('Reading.', { role: true }),
        sse.toolCall({ id: 's1', name: 'read_file', args: { path: 'x' } }),
        sse.finish('stop'),
      ),
    );
    assert.equal(r.done.toolCalls.length, 1);
    assert.equal(r.done.finishReason, 'tool_calls');
    assert.equal(r.done.content, 'Reading.');
  });

  it('finishes without a usage chunk', async () => {
    const r = await okThrough(sse.textTurn('no usage here', { usage: null }));
    assert.equal(r.done.usage, undefined);
    assert.ok(!r.events.some((e) => e.type === 'usage'));
    assert.equal(r.done.content, 'no usage here');
  });

  it('reports the usage chunk with choices: [] that arrives after the finish', async () => {
    const r = await okThrough(sse.textTurn('with usage', { usage: [120, 33] }));
    assert.deepEqual(r.done.usage, { promptTokens: 120, completionTokens: 33, totalTokens: 153 });
    assert.deepEqual(r.events.map((e) => e.type).slice(-2), ['usage', 'done']);
  });

  it('accepts a stream that ends cleanly after its finish chunk without [DONE]', async () => {
    const r = await okThrough({ ...sse.textTurn('done without DONE'), omitDone: true });
    assert.equal(r.done.content, 'done without DONE');
  });

  it('accepts a stream that sends [DONE] but never a finish_reason', async () => {
    const r = await okThrough(sse.turn(sse.text('no finish reason')));
    assert.equal(r.done.content, 'no finish reason');
  });

  it('turns a mid-stream error object into a stream ModelError with the provider message', async () => {
    const r = await through(
      sse.turn(sse.text('Partial answ'), sse.error('Provider returned error: upstream overloaded')),
    );
    assert.ok(isStreamError(/upstream overloaded/)(r.error), String(r.error));
    assert.equal(r.text, 'Partial answ', 'text already streamed stays streamed');
    assert.equal(r.done, undefined);
  });

  it('passes on a mid-stream error given as a bare string', async () => {
    const r = await through(sse.turn(sse.text('x'), { error: 'context length exceeded' }));
    assert.ok(isStreamError(/: context length exceeded\.$/)(r.error), String(r.error));
  });

  it('reports a stream cut before it ended (socket destroyed) as ended early and emits nothing further', async () => {
    const turn = sse.turn(
      sse.text('The plan is to'),
      sse.toolCall({ id: 'cut', name: 'read_file', args: { path: 'abc' } }),
    );
    const r = await through({ ...turn, cutAfter: 3 });
    assert.ok(isStreamError(/ended early/)(r.error), String(r.error));
    assert.ok((r.error as Error).message.includes('quirk-model'), 'the message names the model');
    assert.equal(r.text, 'The plan is to');
    assert.ok(!r.events.some((e) => e.type === 'tool_call' || e.type === 'done'));
  });

  it('reports a stream that closes cleanly with no finish_reason and no [DONE] as ended early', async () => {
    const r = await through({ ...sse.turn(sse.text('half of it')), omitDone: true });
    assert.ok(isStreamError(/ended early/)(r.error), String(r.error));
    assert.equal(r.done, undefined);
  });

  it('keeps an answer whose connection broke after the finish chunk', async () => {
    const r = await okThrough({ ...sse.textTurn('complete answer', { usage: null }), cutAfter: 4 });
    assert.equal(r.done.content, 'complete answer');
  });

  it('fails a non-JSON data line with a clear stream error', async () => {
    const r = await through(sse.turn(sse.text('ok'), sse.raw('data: {not json\n\n'), sse.finish('stop')));
    assert.ok(isStreamError(/not JSON/)(r.error), String(r.error));
  });

  it('reads an endpoint that ignores stream: true and answers one JSON completion', async () => {
    const completion = {
      ...envelope([]),
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'whole answer',
            tool_calls: [{ id: 'j1', type: 'function', function: { name: 'read_file', arguments: '{"path":"z"}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
    };
    const r = await okThrough({ body: JSON.stringify(completion), headers: { 'content-type': 'application/json' } });
    assert.equal(r.text, 'whole answer');
    assert.equal(r.done.content, 'whole answer');
    assert.deepEqual(r.done.toolCalls, [{ id: 'j1', name: 'read_file', arguments: '{"path":"z"}' }]);
    assert.equal(r.done.usage?.totalTokens, 11);
  });

  it('gives done the full assistant text', async () => {
    const long = 'A plan in many pieces: '.repeat(20);
    const r = await okThrough(sse.turn(sse.role(), sse.text(long, { size: 3 }), sse.finish('stop'), sse.usage(1, 2)));
    assert.ok(r.events.filter((e) => e.type === 'text').length > 100);
    assert.equal(r.done.content, long);
    assert.equal(r.text, long);
  });
});
