/** The setup card's behaviour (host side): first run, prefilled URLs, the model list, Test connection, Save. */
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, type PlanwiseSettings } from '../../src/host/config';
import { KeyRefusedError } from '../../src/host/models';
import { panelFlags } from '../../src/host/panel/flags';
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

  it('the header names a provider only when one works: not the first-run defaults, nor an endpoint without its key', () => {
    const flags = (over: Partial<PlanwiseSettings>, known: string[]) =>
      panelFlags({
        keys: { known, checked: true },
        config: { settings: { ...DEFAULT_SETTINGS, ...over } },
        trust: { trusted: true },
      }).provider;
    assert.equal(flags({}, []), undefined, 'OpenAI with no key is what nobody set up');
    assert.equal(flags({ baseUrl: 'https://openrouter.ai/api/v1' }, []), undefined);
    assert.equal(flags({ baseUrl: 'not a url' }, ['sk-test']), undefined);
    assert.deepEqual(flags({}, ['sk-test']), { label: 'OpenAI', model: 'gpt-4.1' });
    assert.deepEqual(flags({ baseUrl: 'http://localhost:11434/v1', planningModel: 'llama3.2' }, []), {
      label: 'Ollama',
      model: 'llama3.2',
    });
  });

  it('on first run nothing is requested, so nothing fails, until the person acts', async () => {
    const t = setup();
    t.service.open('first-run');
    await t.flush();
    assert.deepEqual(t.listed, [], 'the defaults nobody chose are not tried');
    assert.equal(t.last()!.models, null);
    assert.equal(t.last()!.test, null);
    // Opened again from the header or Change provider: the person asked, the list is read.
    t.service.open('requested');
    await t.flush();
    assert.deepEqual(t.listed, ['https://api.openai.com/v1']);
    assert.equal(t.last()!.models?.status, 'failed');
    // Asked for by the person: read at once.
    const r = setup();
    r.service.open('requested');
    await r.flush();
    assert.deepEqual(r.listed, ['https://api.openai.com/v1']);
  });

  it('on first run a new key reads the list (the person acted)', async () => {
    const t = setup({}, { hasKey: true, models: { 'https://api.openai.com/v1': ['gpt-4.1'] } });
    t.service.open('first-run');
    await t.flush();
    assert.deepEqual(t.listed, []);
    t.service.keyChanged();
    await t.flush();
    assert.deepEqual(t.last()!.models, { status: 'ready', ids: ['gpt-4.1'] });
  });

  it('Ollama: the URL is prefilled, the key is optional, the model list fills the picker, Test connection and Save', async () => {
    const t = setup({}, { models: { 'http://localhost:11434/v1': ['llama3.2', 'qwen2.5-coder:14b'] } });
    t.service.open('first-run');
    assert.equal(t.last()!.draft.choice, 'openai');
    assert.equal(t.last()!.local, false, 'OpenAI needs a key: the key row shows');
    assert.equal(t.last()!.keyRow, true);
    await t.flush();
    t.service.edit({ ...t.last()!.draft, choice: 'ollama' });
    assert.deepEqual(t.last()!.draft, {
      choice: 'ollama',
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen2.5-coder:14b',
    });
    assert.equal(t.last()!.local, true, 'a loopback endpoint: the key is optional');
    assert.equal(t.last()!.keyRow, true);
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

  it('a local endpoint that needs a key (a local proxy): the card offers the key up front, and a 401 says so', async () => {
    const url = 'http://127.0.0.1:4000/v1';
    const t = setup({ baseUrl: url }, { models: { [url]: ['proxy-model'] }, refusesWithoutKey: [url] });
    t.service.open('requested');
    assert.equal(t.last()!.local, true);
    assert.equal(t.last()!.keyRow, true, 'the key row is there before any refusal');
    await t.flush();
    assert.equal(t.listed.at(-1), url, 'no key is stored: none is sent');
    assert.equal(t.last()!.models?.status, 'failed');
    await t.service.test(t.last()!.draft);
    assert.match(t.last()!.test!.text, /HTTP 401/);
    // VS Code's models take no key.
    t.service.edit({ choice: 'vscode-lm', baseUrl: '', model: '' });
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
