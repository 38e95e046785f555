/**
 * What servers say when a request does not fit, and when a key is wrong with a 400: each wording
 * reaches the engine as the right kind of error, with the provider's words.
 */
import assert from 'node:assert/strict';
import { ModelError } from '../../src/core/agent/model';
import { OpenAIModelClient } from '../../src/node/openaiModelClient';
import { ScriptedServer } from '../support/scriptedServer';
import { collect } from '../support/scriptedModel';
import { contextOverflowBodies, geminiInvalidKey, openaiContextLengthExceeded } from '../support/providerFixtures';

const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('provider error wordings', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const errorOf = async (turn: Parameters<typeof ScriptedServer.start>[0]) => {
    server = await ScriptedServer.start(turn);
    const r = await collect(new OpenAIModelClient({ baseURL: server.baseURL, maxRetries: 0 }).stream(request));
    await server.close();
    server = undefined;
    assert.ok(r.error instanceof ModelError, String(r.error));
    return r.error;
  };

  it('OpenAI context_length_exceeded is a context_length error with the provider message', async () => {
    const e = await errorOf([openaiContextLengthExceeded(4097, 4294)]);
    assert.equal(e.kind, 'context_length');
    assert.match(e.message, /maximum context length is 4097 tokens\. However, your messages resulted in 4294 tokens/);
  });

  for (const { server: name, status, body } of contextOverflowBodies) {
    it(`${name}'s overflow wording is a context_length error`, async () => {
      const e = await errorOf([{ status, body, headers: { 'content-type': 'application/json' } }]);
      assert.equal(e.kind, 'context_length', e.message);
      assert.doesNotMatch(e.message, /no body/);
    });
  }

  it("Gemini's 400 API_KEY_INVALID gets the same advice as a 401", async () => {
    const e = await errorOf([geminiInvalidKey()]);
    assert.equal(e.kind, 'auth');
    assert.match(
      e.message,
      /rejected the API key \(400: API key not valid\. Please pass a valid API key\)\. Set the API key/,
    );
  });

  for (const said of ['Incorrect API key provided: sk-abc***.', 'invalid_api_key']) {
    it(`a 400 saying "${said}" is an auth error`, async () => {
      const e = await errorOf([
        {
          status: 400,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ error: { message: said, type: 'invalid_request_error', code: 'invalid_api_key' } }),
        },
      ]);
      assert.equal(e.kind, 'auth');
    });
  }
});
