/**
 * A provider's own client (vscode.lm) follows the model settings of a live session, as the
 * endpoint's LiveModelClient does: a model picked with Select Model after a request failed reaches
 * Retry's request, its token counts and its context window.
 */
import assert from 'node:assert/strict';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../src/core/index';
import { LiveModelNames, type ModelNames } from '../../src/host/adapters/liveModelClient';

class Recorder implements ModelClient {
  readonly seen: string[] = [];
  // eslint-disable-next-line require-yield -- the recorder only notes the request
  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.seen.push(`stream:${request.model}`);
  }
  async countTokens(request: ModelRequest): Promise<number> {
    this.seen.push(`count:${request.model}`);
    return 7;
  }
  contextWindow(model: string): number | undefined {
    this.seen.push(`window:${model}`);
    return model === 'b2' ? 8000 : 16000;
  }
}

describe('LiveModelNames', () => {
  it('maps the names the session was created with to the ones set now, for requests, counts and windows', async () => {
    let now: ModelNames = { planningModel: 'gone-model', buildModel: '' };
    const inner = new Recorder();
    const live = new LiveModelNames(inner, () => now, { planningModel: 'gone-model', buildModel: '' });
    const send = async (model: string) => {
      for await (const _ of live.stream({ model, messages: [] })) void _;
    };
    await send('gone-model');
    // "VS Code offers no language model 'gone-model'": the person picks another, then Retry.
    now = { planningModel: 'b2', buildModel: '' };
    await send('gone-model');
    assert.equal(await live.countTokens!({ model: 'gone-model', messages: [] }), 7);
    assert.equal(live.contextWindow!('gone-model'), 8000);
    await send('other');
    assert.deepEqual(inner.seen, ['stream:gone-model', 'stream:b2', 'count:b2', 'window:b2', 'stream:other']);
  });

  it('keeps planning and building apart when the session was created with both', async () => {
    let now: ModelNames = { planningModel: 'p1', buildModel: 'b1' };
    const inner = new Recorder();
    const live = new LiveModelNames(inner, () => now, { planningModel: 'p1', buildModel: 'b1' });
    const send = async (model: string) => {
      for await (const _ of live.stream({ model, messages: [] })) void _;
    };
    now = { planningModel: 'p2', buildModel: 'b2' };
    await send('p1');
    await send('b1');
    assert.equal(await live.countTokens!({ model: 'b1', messages: [] }), 7);
    assert.equal(live.contextWindow!('b1'), 8000);
    assert.deepEqual(inner.seen, ['stream:p2', 'stream:b2', 'count:b2', 'window:b2']);
  });

  it('offers countTokens and contextWindow only when the provider has them', () => {
    const bare: ModelClient = { async *stream() {} };
    const live = new LiveModelNames(bare, () => ({ planningModel: 'p', buildModel: '' }), {
      planningModel: 'p',
      buildModel: '',
    });
    assert.equal(live.countTokens, undefined);
    assert.equal(live.contextWindow, undefined);
  });
});
