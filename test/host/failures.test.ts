/**
 * A failed request ends the turn cleanly, on the engine the host really builds: the person's
 * message is in the transcript before anything is sent, the error shows once with Retry and
 * Change provider, nothing stays busy, and Retry sends the same message with the settings as they
 * are now.
 */
import assert from 'node:assert/strict';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../src/core/index';
import { LiveModelClient, type LiveInputs } from '../../src/host/adapters/liveModelClient';
import { EventTranslator } from '../../src/host/panel/translate';
import { PanelHub } from '../../src/host/panel/hub';
import { PendingRequests } from '../../src/host/prompts/pending';
import { SessionController } from '../../src/host/session/controller';
import { MissingApiKeyError } from '../../src/host/session/engine';
import { emptyViewState, type NoticeItem, type ViewState } from '../../src/protocol';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { startEngineHost, until, type EngineHost } from './engineHost';
import { FakeEngine, FakeSession } from './support';

const TASK = 'add a greeting helper';
const errorsOf = (s: ViewState) =>
  s.transcript.filter((i): i is NoticeItem => i.kind === 'notice' && i.level === 'error');

describe('failures end cleanly', () => {
  let h: EngineHost | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a 401 ends the turn: the task stays, one error with Retry, then Retry plans with the fixed model', async () => {
    let model = 'wrong-model';
    h = await startEngineHost(
      [sse.httpError(401, 'Incorrect API key provided.'), sse.textTurn(planResponse(samplePlan()))],
      { settings: () => ({ planningModel: model }) },
    );
    const stop = await h.controller.start(TASK, 'plan');
    assert.equal(stop?.kind, 'error');
    const s = h.hub.state;
    assert.deepEqual(s.transcript[0], { id: s.transcript[0]!.id, kind: 'user', text: TASK });
    const errors = errorsOf(s);
    assert.equal(errors.length, 1, 'the error is shown once');
    assert.match(errors[0]!.text, /\(401: Incorrect API key provided\)\. Set the API key/);
    assert.deepEqual(errors[0]!.actions, ['setApiKey', 'retry', 'changeProvider'], 'a refused key: Set API Key first');
    assert.equal(s.lifecycle.busy, false, 'nothing stays busy');
    assert.equal(h.controller.isBusy, false);

    model = 'fixed-model';
    const retried = h.controller.retry(errors[0]!.id);
    await until(() => h!.pending.has('approval'), 'the gate after Retry');
    assert.equal(h.server.requests.length, 2);
    assert.equal(h.server.requests[1]!.body.model, 'fixed-model', 'the setting changed since reached the request');
    const sent = JSON.stringify(h.server.requests[1]!.body.messages);
    assert.ok(sent.includes(TASK), 'Retry sent the same task');
    const users = h.hub.state.transcript.filter((i) => i.kind === 'user');
    assert.deepEqual(
      users.map((u) => ('text' in u ? u.text : '')),
      [TASK],
    );
    assert.equal(errorsOf(h.hub.state).length, 0, "the failed attempt's notice belonged to the replaced session");
    await h.controller.decide('cancel');
    await retried;
  });

  it('no session could be built (no key): the task and the error show, and Retry tries again', async () => {
    const engine = new FakeEngine();
    let missing = true;
    const create = engine.create.bind(engine);
    engine.create = async () => {
      if (missing) throw new MissingApiKeyError('https://api.openai.com/v1');
      return create();
    };
    const hub = new PanelHub(emptyViewState(), { schedule: (f) => f() });
    const controller = new SessionController({
      engine,
      hub,
      translator: new EventTranslator({ relativePath: (p) => p }),
      pending: new PendingRequests(),
      flags: () => ({ hasApiKey: false, trusted: true }),
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    await controller.submit(TASK);
    const [user, error] = hub.state.transcript;
    assert.deepEqual(user && { kind: user.kind, text: 'text' in user ? user.text : '' }, { kind: 'user', text: TASK });
    assert.ok(error?.kind === 'notice' && error.level === 'error');
    assert.equal(
      error.text,
      'No API key is set for https://api.openai.com/v1. Set one with "Set API Key", or choose a local server that needs none.',
    );
    assert.deepEqual(error.actions, ['retry', 'changeProvider']);
    missing = false;
    engine.next = () => new FakeSession();
    await controller.retry(error.id);
    assert.deepEqual(engine.sessions[0]!.calls[0], `start ${TASK} plan`);
  });

  it('a failure after the task (a follow-up) retries the follow-up in the same session', async () => {
    const engine = new FakeEngine();
    const session = Object.assign(new FakeSession(), {
      onStart: (s: FakeSession) => {
        s.state = 'planning';
        return { kind: 'completed', summary: '' } as const;
      },
    });
    let fail = true;
    session.onSubmit = (s) => {
      if (!fail) return { kind: 'completed', summary: '' };
      s.emit({ type: 'error', message: 'The model server failed.', recoverable: true });
      return { kind: 'error', message: 'The model server failed.' };
    };
    engine.next = () => session;
    const hub = new PanelHub(emptyViewState(), { schedule: (f) => f() });
    const controller = new SessionController({
      engine,
      hub,
      translator: new EventTranslator({ relativePath: (p) => p }),
      pending: new PendingRequests(),
      flags: () => ({ hasApiKey: true, trusted: true }),
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    await controller.submit(TASK);
    await controller.submit('also handle names');
    const errors = errorsOf(hub.state);
    assert.equal(errors.length, 1);
    fail = false;
    await controller.retry(errors[0]!.id);
    assert.deepEqual(session.calls, [`start ${TASK} plan`, 'submit also handle names', 'submit also handle names']);
    assert.deepEqual(errorsOf(hub.state)[0]!.actions, [], 'a used Retry is gone');
  });
});

describe('LiveModelClient', () => {
  class Recorder implements ModelClient {
    readonly seen: string[] = [];
    constructor(readonly name: string) {}
    // eslint-disable-next-line require-yield -- the recorder only notes the request
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      this.seen.push(`${this.name}:${request.model}`);
    }
  }

  it('builds a new endpoint client only when the endpoint changed, and maps the model names to the current ones', async () => {
    let inputs: LiveInputs = { endpoint: { baseURL: 'a' }, planningModel: 'p1', buildModel: '' };
    const built: Recorder[] = [];
    const live = new LiveModelClient(
      async () => inputs,
      (i) => {
        const r = new Recorder(String(i.endpoint.baseURL));
        built.push(r);
        return r;
      },
      { planningModel: 'p1', buildModel: '' },
    );
    const send = async (model: string) => {
      for await (const _ of live.stream({ model, messages: [] })) void _;
    };
    await send('p1');
    await send('p1');
    inputs = { endpoint: { baseURL: 'b' }, planningModel: 'p2', buildModel: 'b2' };
    await send('p1');
    await send('other');
    assert.equal(built.length, 2);
    assert.deepEqual(
      built.flatMap((b) => b.seen),
      ['a:p1', 'a:p1', 'b:p2', 'b:other'],
    );
  });
});
