/**
 * Every error text the VS Code host and the CLI can show a person, built from the functions that
 * build them with realistic inputs (provider bodies that end in a full stop or carry their own
 * parentheses), held to one style: no "..", no repeated "Planwise:", no nested parentheses. The
 * toast is checked as shown ("Planwise: " + the message), the CLI line as printed.
 */
import assert from 'node:assert/strict';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  InternalServerError,
  BadRequestError,
} from 'openai';
import type { ModelError } from '../../src/core/agent/model';
import { adviceForMissingKey, adviceForModelError, adviceForSettings, toastText } from '../../src/host/errors';
import { readSettings } from '../../src/host/config';
import { requestError, streamError, timeoutError, retryAdvice } from '../../src/node/openaiModelErrors';
import { resolveModelSettings, type RunFlags } from '../../src/cli/compose';
import { readEndpointUrl } from '../../src/node/endpointUrl';
import { clause, flattenParens, parenthetical, prefixed, sentence } from '../../src/node/messageText';
import { retryText } from '../../src/host/panel/translate';
import { reportStop } from '../../src/cli/render/stop';
import { styleProblems } from './style';
import { pickModel } from '../../src/cli/modelPick';
import { SetupService } from '../../src/host/setup/setupService';
import { DEFAULT_SETTINGS } from '../../src/host/config';
import type { SetupState } from '../../src/protocol';

const runFlags = (f: Partial<RunFlags>): RunFlags => ({
  json: false,
  untrusted: false,
  allowCommands: [],
  verbose: false,
  positionals: [],
  ...f,
});

const BASE = 'http://localhost:11434/v1';
const CTX = { baseURL: BASE, model: 'gpt-4.1', hasApiKey: true };
const NO_KEY = { ...CTX, hasApiKey: false };

/** Provider bodies as servers really word them: with a full stop, with parentheses, empty. */
const SAID = [
  'Incorrect API key provided: sk-abc***. You can find your API key at https://platform.openai.com/account/api-keys.',
  "model 'gpt-4.1' not found (try pulling it first).",
  'Rate limit reached for requests (limit: 3/min).',
  'internal error',
  '',
];

function headers(h: Record<string, string> = {}): Headers {
  return new Headers(h);
}

function sdkErrors(): unknown[] {
  const out: unknown[] = [];
  for (const said of SAID) {
    const body = said ? { message: said } : undefined;
    out.push(new AuthenticationError(401, body, said || undefined, headers()));
    out.push(new PermissionDeniedError(403, body, said || undefined, headers()));
    out.push(new NotFoundError(404, body, said || undefined, headers()));
    out.push(new RateLimitError(429, body, said || undefined, headers()));
    out.push(new RateLimitError(429, body, said || undefined, headers({ 'retry-after': '900' })));
    out.push(new InternalServerError(500, body, said || undefined, headers()));
    out.push(new BadRequestError(400, body, said || undefined, headers()));
    out.push(
      new BadRequestError(400, { message: `${said} maximum context length is 8192 tokens.` }, undefined, headers()),
    );
    out.push(
      new BadRequestError(400, { message: `API key not valid (API_KEY_INVALID). ${said}` }, undefined, headers()),
    );
    out.push(APIError.generate(undefined, body, said || undefined, undefined));
  }
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), { code: 'ECONNREFUSED' });
  out.push(new APIConnectionError({ cause: refused }));
  const tls = Object.assign(new Error('wrong version number'), { code: 'EPROTO' });
  out.push(new APIConnectionError({ cause: tls }));
  out.push(new APIConnectionError({ cause: new Error('socket hang up (idle).') }));
  out.push(new Error('Something broke.'));
  return out;
}

/** Every ModelError the OpenAI-compatible client can raise, for one, several and no retries. */
function modelErrors(): ModelError[] {
  const out: ModelError[] = [];
  for (const err of sdkErrors()) {
    for (const ctx of [CTX, NO_KEY]) {
      out.push(requestError(err, ctx, 1), requestError(err, ctx, 4));
      const s = streamError(err, ctx);
      if (s) out.push(s);
    }
  }
  out.push(streamError(new SyntaxError('Unexpected token < in JSON at position 0.'), CTX)!);
  out.push(timeoutError({ kind: 'first-byte', limitMs: 120_000, bytes: 0 }, CTX));
  out.push(timeoutError({ kind: 'first-byte', limitMs: 120_000, headersAfterMs: 300, bytes: 0 }, CTX));
  out.push(timeoutError({ kind: 'idle', limitMs: 120_000, bytes: 2048 }, CTX));
  return out;
}

/** The texts a person reads: panel notices (the message), toasts, CLI lines. */
function surfaced(): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  const errors = modelErrors();
  for (const e of errors) out.push({ where: `model error (${e.kind})`, text: e.message });
  for (const e of errors) {
    for (const hasKey of [true, false]) {
      for (const provider of ['openai-compatible', 'vscode-lm'] as const) {
        const a = adviceForModelError(e, BASE, hasKey, provider);
        out.push({ where: `toast for ${e.kind}`, text: toastText(a.message) });
      }
    }
  }
  for (const err of sdkErrors()) {
    const r = retryAdvice(err);
    if (r.reason) out.push({ where: 'retry notice', text: retryText(2000, 2, 4, r.reason) });
  }
  out.push({ where: 'missing key toast', text: toastText(adviceForMissingKey(BASE).message) });
  // Every setting with a wrong value, alone and together.
  const bad: Record<string, unknown> = {
    baseUrl: 'localhost:',
    planningModel: '',
    contextWindow: -3,
    'request.firstByteTimeoutSeconds': 0,
    'context.compactAtPercent': 150,
    'budgets.blockedCap': 'x',
    plansDirectory: '../outside',
    requireVerifyToComplete: 'yes',
    buildCommandAllowList: 'npm test',
    provider: 'copilot',
    defaultAgent: 'ask',
  };
  const all = readSettings((k) => bad[k as string]).problems;
  for (const p of all) out.push({ where: `setting ${p.key}`, text: toastText(adviceForSettings([p])!.message) });
  out.push({ where: 'settings, several', text: toastText(adviceForSettings(all)!.message) });
  for (const url of ['ftp://x', 'mailto:a', 'https://u:p@x.com', '', 'not a url']) {
    const r = readEndpointUrl(url);
    if (!r.ok) out.push({ where: `base URL ${url}`, text: r.error });
    const cli = resolveModelSettings(runFlags({ baseUrl: url || ' ', model: 'm' }), {});
    if ('error' in cli) out.push({ where: `CLI --base-url ${url}`, text: `planwise plan: ${cli.error}` });
  }
  for (const flags of [{}, { model: 'm', apiKeyEnv: 'NOPE' }, { model: 'm', baseUrl: 'https://api.openai.com/v1' }]) {
    const cli = resolveModelSettings(runFlags(flags), { PLANWISE_MODEL_RETRIES: 'many' });
    if ('error' in cli) out.push({ where: 'CLI settings', text: `planwise plan: ${cli.error}` });
  }
  for (const e of errors) out.push({ where: `CLI stop (${e.kind})`, text: `planwise: ${e.message}` });
  // How a run ended, as the CLI prints it: reasons as the engine words them, with and without a final stop.
  for (const reason of ['the model returned empty responses.', 'the synthesis pass (repair) did not produce a plan']) {
    for (const state of ['planning', 'executing'] as const) {
      for (const stop of [
        { kind: 'blocked', reason, resumeId: 's1' },
        { kind: 'error', message: sentence(reason) },
      ] as const) {
        let text = '';
        const sink = { write: (t: string) => ((text += t), true) } as unknown as NodeJS.WritableStream;
        const ui = { breakLine: () => undefined, line: (t: string) => void (text += t) } as never;
        reportStop({ id: 's1', ui, stderr: sink, style: {} as never, redact: (t) => t, shown: (f) => f }, stop, state);
        out.push({ where: `CLI stop ${stop.kind} while ${state}`, text: text.trim() });
      }
    }
  }
  return out;
}

/** The CLI's model pick and the setup card's Test connection, over refused, blocked and odd endpoints. */
async function pickAndSetupTexts(): Promise<{ where: string; text: string }[]> {
  const out: { where: string; text: string }[] = [];
  const failing = (err: unknown) => (async () => Promise.reject(err)) as unknown as typeof fetch;
  const refused = new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
  });
  const blocked = new TypeError('fetch failed', { cause: new Error('bad port') });
  const odd = new TypeError('fetch failed', { cause: new Error('socket hang up (idle).') });
  for (const err of [refused, blocked, odd]) {
    const r = await pickModel(BASE, undefined, { fetch: failing(err) });
    if ('error' in r) out.push({ where: 'CLI model pick', text: `planwise: ${r.error}` });
  }
  const answering = (status: number, body: unknown) =>
    (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;
  for (const f of [answering(500, {}), answering(200, { data: [] })]) {
    const r = await pickModel(BASE, undefined, { fetch: f });
    if ('error' in r) out.push({ where: 'CLI model pick', text: `planwise: ${r.error}` });
  }
  let shown: SetupState | null = null;
  const service = new SetupService({
    settings: () => DEFAULT_SETTINGS,
    update: async () => undefined,
    hasKey: () => false,
    apiKey: async () => undefined,
    listModels: async (url) => {
      throw new Error(
        `Could not reach ${url}/models: connection refused. Check planwise.baseUrl and that the server runs.`,
      );
    },
    lmModels: async () => [],
    show: (s) => (shown = s),
  });
  service.open('first-run');
  for (const draft of [
    { choice: 'ollama' as const, baseUrl: BASE, model: 'm' },
    { choice: 'vscode-lm' as const, baseUrl: '', model: 'm' },
    { choice: 'other' as const, baseUrl: 'ftp://x', model: 'm' },
  ]) {
    await service.test(draft);
    const s = shown as SetupState | null;
    if (s?.test) out.push({ where: `setup test ${draft.choice}`, text: s.test.text });
  }
  return out;
}

describe('message style: every surfaced error text', () => {
  it('the CLI model pick and the setup card follow it too', async () => {
    const texts = await pickAndSetupTexts();
    assert.ok(texts.length >= 7, `only ${texts.length}`);
    const bad = texts.filter((m) => styleProblems(m.text).length > 0).map((m) => `${m.where}: ${m.text}`);
    assert.deepEqual(bad, []);
    const two = texts.filter((m) => m.where === 'CLI model pick').every((m) => m.text.split('\n').length === 2);
    assert.ok(two, 'the CLI says it in two lines');
  });

  it('the checker itself catches each fault it exists for', () => {
    assert.deepEqual(styleProblems('is running.. Check that it runs'), ['".."', 'double punctuation']);
    assert.deepEqual(styleProblems('Planwise: Planwise cannot reach'), ['"Planwise" repeated']);
    assert.deepEqual(styleProblems('Planwise: x. Planwise: y'), ['"Planwise:" repeated']);
    assert.deepEqual(styleProblems('rejected the API key (The endpoint rejected it (401: no).)'), [
      'nested parentheses',
    ]);
    assert.deepEqual(styleProblems('Open ../plans/x.md, then http://localhost:11434/v1.'), []);
  });

  it('has no "..", no repeated "Planwise:", no nested parentheses', () => {
    const all = surfaced();
    assert.ok(all.length > 400, `only ${all.length} messages were built`);
    const bad = all
      .map((m) => ({ ...m, problems: styleProblems(m.text) }))
      .filter((m) => m.problems.length > 0)
      .map((m) => `${m.where}: ${m.problems.join(', ')}\n    ${m.text}`);
    assert.equal(
      bad.length,
      0,
      `${bad.length} of ${all.length} messages break the style:\n${[...new Set(bad)].slice(0, 25).join('\n')}`,
    );
  });

  it('a toast says "Planwise:" once, whatever the message starts with', () => {
    assert.equal(toastText('Planwise cannot reach it.'), 'Planwise cannot reach it.');
    assert.equal(toastText('The key was rejected.'), 'Planwise: The key was rejected.');
    assert.equal(prefixed('planwise: x'), 'planwise: x');
  });

  it('a message embedded in another keeps one full stop and flat parentheses', () => {
    assert.equal(clause(' The server said no (401: bad key). '), 'The server said no (401: bad key)');
    assert.equal(parenthetical(' The server said no (401: bad key). '), 'The server said no, 401: bad key');
    assert.equal(sentence('Check it'), 'Check it.');
    assert.equal(sentence('Check it?'), 'Check it?');
    assert.equal(flattenParens('a (b (c)) d'), 'a, b, c d');
  });

  it('the toast for an unreachable server is the engine message, said once', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const e = requestError(new APIConnectionError({ cause: refused }), CTX, 4);
    const toast = toastText(adviceForModelError(e, BASE, false).message);
    assert.equal(
      toast,
      "Planwise: Cannot reach the model 'gpt-4.1' at http://localhost:11434/v1: connection refused (tried 4 times). " +
        'Check the base URL setting and that the server is running.',
    );
  });

  it('a base URL without a scheme is completed, not refused as "got localhost:"', () => {
    assert.deepEqual(readEndpointUrl('localhost:11434'), {
      ok: true,
      url: 'http://localhost:11434/v1',
      completed: true,
    });
    assert.equal(readSettings((k) => (k === 'baseUrl' ? 'localhost:11434' : undefined)).settings.baseUrl, BASE);
    const cli = resolveModelSettings(runFlags({ baseUrl: 'localhost:11434', model: 'm' }), {});
    assert.ok(!('error' in cli) && cli.baseURL === BASE);
    const remote = readEndpointUrl('openrouter.ai/api/v1');
    assert.deepEqual(remote, { ok: true, url: 'https://openrouter.ai/api/v1', completed: true });
  });
});
