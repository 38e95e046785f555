/** The setup card's behaviour (host side): first run, prefilled URLs, the model list, Test connection, Save. */
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, type PlanwiseSettings } from '../../src/host/config';
import { KeyRefusedError } from '../../src/host/models';
import { SetupService, choiceOf, providerLabel, setupNeeded } from '../../src/host/setup/setupService';
import type { SetupState } from '../../src/protocol';

function setup(
  over: Partial<PlanwiseSettings> = {},
  opts: { hasKey?: boolean; models?: Record<string, string[]>; refusesWithoutKey?: string[] } = {},
) {
  let settings: PlanwiseSettings = { ...DEFAULT_SETTINGS, ...over };
  const shown: (SetupState | null)[] = [];
  const listed: string[] = [];
  const writes: string[] = [];
  const service = new SetupService({
    settings: () => settings,
    update: async (key, value) => {
      writes.push(`${key}=${value}`);
      settings = { ...settings, [key]: value };
    },
    hasKey: () => opts.hasKey ?? false,
    apiKey: async () => (opts.hasKey ? 'sk-test' : undefined),
    listModels: async (url, key) => {
      listed.push(`${url}${key ? ' (key)' : ''}`);
      if (!key && opts.refusesWithoutKey?.includes(url)) {
        throw new KeyRefusedError(
          `${url}/models refused the request (HTTP 401): set a valid key with "Planwise: Set API Key".`,
        );
      }
      const ids = opts.models?.[url];
      if (!ids)
        throw new Error(
          `Could not reach ${url}/models: connection refused. Check planwise.baseUrl and that the server runs.`,
        );
      return { ids };
    },
    lmModels: async () => [{ id: 'copilot-gpt-4.1' }],
    show: (s) => shown.push(s),
  });
  const flush = () => new Promise((r) => setImmediate(r));
  return { service, shown, listed, writes, flush, last: () => shown.at(-1) };
}

describe('setup card (host)', () => {
  it('is needed on first run only when no working provider is set', () => {
    assert.equal(setupNeeded(DEFAULT_SETTINGS, false), true, 'OpenAI with no key');
    assert.equal(setupNeeded(DEFAULT_SETTINGS, true), false);
    assert.equal(
      setupNeeded({ ...DEFAULT_SETTINGS, baseUrl: 'http://localhost:11434/v1' }, false),
      false,
      'Ollama needs no key',
    );
    assert.equal(setupNeeded({ ...DEFAULT_SETTINGS, provider: 'vscode-lm' }, false), false);
  });

  it('names the provider and model for the header', () => {
    assert.deepEqual(
      providerLabel({ ...DEFAULT_SETTINGS, baseUrl: 'http://localhost:11434/v1', planningModel: 'qwen2.5-coder:14b' }),
      {
        label: 'Ollama',
        model: 'qwen2.5-coder:14b',
      },
    );
    assert.equal(choiceOf({ provider: 'openai-compatible', baseUrl: 'http://gpu-box:8000/v1' }), 'other');
    assert.equal(providerLabel({ ...DEFAULT_SETTINGS, baseUrl: 'http://gpu-box:8000/v1' }).label, 'gpu-box:8000');
  });

  it('Ollama: the URL is prefilled, no key is asked, the model list fills the picker, Test connection and Save', async () => {
    const t = setup({}, { models: { 'http://localhost:11434/v1': ['llama3.2', 'qwen2.5-coder:14b'] } });
    t.service.open('first-run');
    assert.equal(t.last()!.draft.choice, 'openai');
    assert.equal(t.last()!.local, false, 'OpenAI needs a key: the key row shows');
    await t.flush();
    t.service.edit({ ...t.last()!.draft, choice: 'ollama' });
    assert.deepEqual(t.last()!.draft, {
      choice: 'ollama',
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen2.5-coder:14b',
    });
    assert.equal(t.last()!.local, true, 'no key row for a loopback endpoint');
    await t.flush();
    assert.deepEqual(t.last()!.models, { status: 'ready', ids: ['llama3.2', 'qwen2.5-coder:14b'] });
    assert.deepEqual(t.listed.at(-1), 'http://localhost:11434/v1', 'no key is sent to a local server');
    await t.service.test(t.last()!.draft);
    assert.deepEqual(t.last()!.test, {
      status: 'ok',
      text: 'Connected to http://localhost:11434/v1: it offers 2 models. qwen2.5-coder:14b is one of them.',
    });
    assert.equal(await t.service.save(t.last()!.draft), true);
    assert.deepEqual(t.writes, [
      'provider=openai-compatible',
      'baseUrl=http://localhost:11434/v1',
      'planningModel=qwen2.5-coder:14b',
    ]);
    assert.equal(t.last(), null, 'the card closes');
  });

  it('a local endpoint that refuses for want of a key (a local proxy, after a 401): the card offers the key, and sends it once stored', async () => {
    const url = 'http://localhost:4000/v1';
    const t = setup({ baseUrl: url }, { models: { [url]: ['proxy-model'] }, refusesWithoutKey: [url] });
    t.service.open('requested');
    assert.equal(t.last()!.local, true);
    assert.equal(t.last()!.keyRow, false, 'a local endpoint is not asked for a key up front');
    await t.flush();
    assert.equal(t.last()!.models?.status, 'failed');
    assert.equal(t.last()!.keyRow, true, 'it refused for want of a key: the key row shows');
    await t.service.test(t.last()!.draft);
    assert.match(t.last()!.test!.text, /HTTP 401/);
    assert.equal(t.last()!.keyRow, true);
    // Another local endpoint that never refused is still not asked.
    t.service.edit({ choice: 'other', baseUrl: 'http://localhost:11434/v1', model: 'm' });
    assert.equal(t.last()!.keyRow, false);
  });

  it('a stored key goes to a local endpoint too (the card lists its models with it)', async () => {
    const url = 'http://localhost:4000/v1';
    const t = setup({ baseUrl: url }, { hasKey: true, models: { [url]: ['proxy-model'] }, refusesWithoutKey: [url] });
    t.service.open('requested');
    await t.flush();
    assert.deepEqual(t.last()!.models, { status: 'ready', ids: ['proxy-model'] });
    assert.equal(t.listed.at(-1), `${url} (key)`);
    assert.equal(t.last()!.keyRow, true, 'a stored key can be changed from the card');
  });

  it('a URL without a scheme is completed; an unusable one is explained and not saved', async () => {
    const t = setup({}, { models: {} });
    t.service.open('requested');
    t.service.edit({ choice: 'openai', baseUrl: 'localhost:11434', model: 'm' });
    assert.deepEqual(t.last()!.url, { ok: true, url: 'http://localhost:11434/v1', completed: true });
    t.service.edit({ choice: 'openai', baseUrl: 'ftp://x', model: 'm' });
    assert.equal(t.last()!.url.ok, false);
    assert.equal(await t.service.save(t.last()!.draft), false);
    assert.match(t.last()!.test!.text, /must start with http:\/\/ or https:\/\//);
    assert.deepEqual(t.writes, []);
  });

  it('Test connection reports an unreachable server in one sentence', async () => {
    const t = setup({ baseUrl: 'http://localhost:11434/v1' }, { models: {} });
    t.service.open('requested');
    await t.service.test(t.last()!.draft);
    assert.equal(t.last()!.test!.status, 'failed');
    assert.match(t.last()!.test!.text, /^Could not reach http:\/\/localhost:11434\/v1\/models: connection refused\./);
    await t.flush();
    assert.equal(t.last()!.models!.status, 'failed');
  });

  it('VS Code models: no URL, no key, the models VS Code offers', async () => {
    const t = setup();
    t.service.open('requested');
    t.service.edit({ ...t.last()!.draft, choice: 'vscode-lm' });
    await t.flush();
    assert.deepEqual(t.last()!.models!.ids, ['copilot-gpt-4.1']);
    assert.equal(t.last()!.local, true);
    await t.service.save({ choice: 'vscode-lm', baseUrl: '', model: 'copilot-gpt-4.1' });
    assert.deepEqual(t.writes, ['provider=vscode-lm', 'planningModel=copilot-gpt-4.1']);
  });
});
