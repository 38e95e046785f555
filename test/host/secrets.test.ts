import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelError, type ModelClient, type ModelStreamEvent } from '../../src/core/agent/model';
import { SessionArchive } from '../../src/core/events/archive';
import { FileArchiveStore } from '../../src/node/fileArchiveStore';
import { ObservedModelClient } from '../../src/host/adapters/observedModel';
import { RedactingArchiveStore, redactJsonLine, redactMessage } from '../../src/host/adapters/redactingArchive';
import { DEFAULT_SETTINGS, readSettings } from '../../src/host/config';
import { adviceForModelError } from '../../src/host/errors';
import { API_KEY_SECRET } from '../../src/host/ids';
import { HostLog, redact } from '../../src/host/log';
import { PanelHub } from '../../src/host/panel/hub';
import { EventTranslator } from '../../src/host/panel/translate';
import { PendingRequests } from '../../src/host/prompts/pending';
import { ApiKeyStore, checkApiKey, type SecretStorageLike } from '../../src/host/secrets';
import { SessionController } from '../../src/host/session/controller';
import { emptyViewState, type HostMessage } from '../../src/protocol';
import { FakeEngine, FakeSession } from './support';

const KEY = 'sk-proj-Zq81vXc0LeakCheck77aa';

function memorySecrets() {
  const data = new Map<string, string>();
  const listeners = new Set<(e: { key: string }) => void>();
  const storage: SecretStorageLike = {
    get: async (k) => data.get(k),
    store: async (k, v) => {
      data.set(k, v);
      listeners.forEach((l) => l({ key: k }));
    },
    delete: async (k) => {
      data.delete(k);
      listeners.forEach((l) => l({ key: k }));
    },
    onDidChange: (l) => {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
  };
  return { storage, data };
}

describe('the API key', () => {
  it('is kept in secret storage under one key and read back', async () => {
    const { storage, data } = memorySecrets();
    const keys = new ApiKeyStore(storage);
    const seen: boolean[] = [];
    keys.onDidChange((h) => seen.push(h));
    assert.equal(await keys.hasKey(), false);
    await keys.set(`  ${KEY}\n`);
    assert.deepEqual([...data.entries()], [[API_KEY_SECRET, KEY]]);
    assert.equal(await keys.get(), KEY);
    assert.deepEqual(keys.known, [KEY]);
    await keys.clear();
    assert.equal(await keys.hasKey(), false);
    assert.deepEqual(seen, [true, false]);
  });

  it('says it is not checked until secret storage answers, so the panel waits before any key banner', async () => {
    const { storage } = memorySecrets();
    let answer!: () => void;
    const slow: SecretStorageLike = {
      ...storage,
      get: (k) => new Promise((ok) => (answer = () => ok(storage.get(k)))),
    };
    await storage.store(API_KEY_SECRET, KEY);
    const keys = new ApiKeyStore(slow);
    const asked = keys.hasKey();
    assert.equal(keys.checked, false);
    assert.deepEqual(keys.known, []);
    answer();
    assert.equal(await asked, true);
    assert.equal(keys.checked, true);
    assert.deepEqual(keys.known, [KEY]);
  });

  it('notices a key changed by another window', async () => {
    const { storage } = memorySecrets();
    const a = new ApiKeyStore(storage);
    const b = new ApiKeyStore(storage);
    await b.get();
    await a.set(KEY);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(b.known, [KEY]);
  });

  it('refuses text that cannot be a key, saying why', async () => {
    assert.match(checkApiKey('') ?? '', /Enter the key/);
    assert.match(checkApiKey('sk-abc def') ?? '', /no spaces/);
    assert.match(checkApiKey('short') ?? '', /too short/);
    assert.equal(checkApiKey(KEY), undefined);
    await assert.rejects(new ApiKeyStore(memorySecrets().storage).set('sk a b c d'), /no spaces/);
  });

  it('is redacted from log lines, by value and by shape', () => {
    assert.equal(redact(`request failed for ${KEY}`, [KEY]), 'request failed for [redacted]');
    assert.match(redact('Authorization: Bearer abcdefgh12345678'), /^Authorization: \[redacted\]( \[redacted\])?$/);
    assert.equal(redact('header Bearer abcdefgh12345678 sent'), 'header Bearer [redacted] sent');
    assert.equal(redact('api_key=abcdef123456'), 'api_key=[redacted]');
    assert.equal(redact('key sk-abcdefghijklmnop0'), 'key [redacted]');
    assert.equal(redact('nothing secret here'), 'nothing secret here');
  });

  it('is replaced in archive lines and panel messages, keeping them valid JSON', () => {
    const line = JSON.stringify({ kind: 'event', event: { type: 'error', message: `bad key ${KEY}` } });
    const clean = redactJsonLine(line, [KEY]);
    assert.doesNotMatch(clean, new RegExp(KEY));
    assert.equal((JSON.parse(clean) as { event: { message: string } }).event.message, 'bad key [redacted]');
    const quoted = 'abc"def\\ghi';
    assert.doesNotMatch(redactJsonLine(JSON.stringify({ m: quoted }), [quoted]), /def/);
    const msg = { type: 'delta', seq: 1, ops: [] } as unknown as HostMessage;
    assert.equal(redactMessage(msg, [KEY]), msg, 'a clean message is passed on as is');
  });

  it('advises "Set API Key" when the server rejects the key, without quoting the key', () => {
    const advice = adviceForModelError(
      new ModelError('auth', 'Incorrect API key provided', 401),
      'https://api.openai.com/v1',
      true,
    );
    assert.deepEqual(advice.actions, ['Set API Key', 'Open Settings']);
    const unreachable = adviceForModelError(
      new ModelError('unreachable', 'ECONNREFUSED'),
      'http://localhost:11434/v1',
      false,
    );
    assert.deepEqual(unreachable.actions, ['Open Settings', 'Show Log']);
    assert.match(unreachable.message, /localhost:11434/);
  });
});

describe('the key never leaks from a session', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'planwise-leak-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appears in no setting, log line, archived line or panel message, while the panel learns hasApiKey', async () => {
    const { storage } = memorySecrets();
    const keys = new ApiKeyStore(storage);
    await keys.set(KEY);

    const logLines: string[] = [];
    const sink = (level: string) => (l: string) => logLines.push(`${level} ${l}`);
    const log = new HostLog(
      { debug: sink('debug'), info: sink('info'), warn: sink('warn'), error: sink('error') },
      () => keys.known,
    );

    const posted: HostMessage[] = [];
    const hub = new PanelHub(emptyViewState(), {
      schedule: (f) => f(),
      sanitize: (m) => redactMessage(m, keys.known),
    });
    hub.attach(async (m) => {
      posted.push(m);
      return true;
    }, true);
    hub.sendSnapshot();

    const archive = new RedactingArchiveStore(new FileArchiveStore(dir), () => keys.known);

    // A model whose server echoes the key in its error, as some do.
    const leakyModel: ModelClient = {
      // eslint-disable-next-line require-yield
      async *stream(): AsyncIterable<ModelStreamEvent> {
        throw new ModelError('auth', `Incorrect API key provided: ${KEY}`, 401);
      },
    };
    const observed = new ObservedModelClient(leakyModel, {
      debug: (l) => log.debug(l),
      onError: (err) => log.error('model error', err),
    });

    const engine = new FakeEngine();
    engine.next = () => {
      const s = new FakeSession();
      const archived = new SessionArchive(archive, s.id);
      archived.attach(s.bus);
      s.onStart = async (x) => {
        x.emit({ type: 'thread.started', thread_id: x.id, mode: 'plan', task: 'check the .env handling' });
        try {
          for await (const _ of observed.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })) void _;
        } catch (err) {
          x.emit({ type: 'error', message: (err as Error).message, recoverable: true });
        }
        const call = {
          id: 'call-1',
          kind: 'tool_call' as const,
          tool: { callId: '1', name: 'read_file', arguments: '{"path":".env"}' },
        };
        x.emit(
          { type: 'item.started', turn_id: 't', item: call },
          {
            type: 'item.completed',
            turn_id: 't',
            item: {
              id: 'result-1',
              kind: 'tool_result',
              result: { callId: '1', ok: true, bytes: 40, preview: `OPENAI_API_KEY=${KEY}` },
            },
          },
          {
            type: 'item.completed',
            turn_id: 't',
            item: { id: 'n', kind: 'notice', text: `key ${KEY} rejected`, level: 'error' },
          },
        );
        await archived.flush();
        return { kind: 'error', message: `auth failed for ${KEY}` };
      };
      return s;
    };
    const controller = new SessionController({
      engine,
      hub,
      translator: new EventTranslator({ relativePath: (p) => p }),
      pending: new PendingRequests(),
      flags: () => ({ hasApiKey: keys.known.length > 0, trusted: true }),
      log,
    });
    await controller.start('check the .env handling');

    const archivedText = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    const settingsText = JSON.stringify(readSettings(() => undefined).settings) + JSON.stringify(DEFAULT_SETTINGS);
    const outputs = {
      logs: logLines.join('\n'),
      archive: archivedText,
      panel: JSON.stringify(posted),
      settings: settingsText,
    };
    for (const [where, text] of Object.entries(outputs)) {
      assert.equal(text.includes(KEY), false, `the key leaked into ${where}`);
    }
    // The run really produced output in each place, so the search above meant something.
    assert.match(outputs.logs, /model request #1 failed/);
    assert.match(outputs.logs, /Incorrect API key provided: \[redacted\]/);
    assert.match(outputs.archive, /OPENAI_API_KEY=\[redacted\]/);
    assert.match(outputs.panel, /OPENAI_API_KEY=\[redacted\]/);
    assert.match(outputs.panel, /"hasApiKey":true/);
  });
});
