import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { lazyChildSignal } from '../../src/core/agent/abort';

describe('lazy child signal for a tool call', () => {
  it('adds no listener to the session signal while the tool never reads its signal', () => {
    const session = new AbortController();
    const child = lazyChildSignal(session.signal);
    const ctx = child.withSignal({ tool: 'read_file' });
    assert.equal(getEventListeners(session.signal, 'abort').length, 0);
    child.dispose();
    assert.equal(getEventListeners(session.signal, 'abort').length, 0);
    assert.equal((ctx as { signal?: AbortSignal }).signal, session.signal, 'read after the call: the session signal');
  });

  it('follows the session signal once read, and detaches when the call ends', () => {
    const session = new AbortController();
    const child = lazyChildSignal(session.signal);
    const ctx = child.withSignal({}) as { signal?: AbortSignal };
    const signal = ctx.signal!;
    assert.notEqual(signal, session.signal);
    assert.equal(ctx.signal, signal, 'the same child on every read');
    assert.deepEqual({ ...ctx }.signal, signal, 'a spread context carries it too');
    assert.equal(getEventListeners(session.signal, 'abort').length, 1);
    session.abort(new Error('cancelled by the person'));
    assert.equal(signal.aborted, true);
    assert.equal((signal.reason as Error).message, 'cancelled by the person');
    child.dispose();
    assert.equal(getEventListeners(session.signal, 'abort').length, 0);
  });

  it('removes its listener from the session signal when a call that read it ends', () => {
    const session = new AbortController();
    const child = lazyChildSignal(session.signal);
    const ctx = child.withSignal({}) as { signal?: AbortSignal };
    const signal = ctx.signal!;
    assert.equal(getEventListeners(session.signal, 'abort').length, 1);
    child.dispose();
    assert.equal(getEventListeners(session.signal, 'abort').length, 0);
    session.abort();
    assert.equal(signal.aborted, false, 'a finished call is no longer cancelled with the session');
  });

  it('leaves a context without a session signal as it is', () => {
    const child = lazyChildSignal(undefined);
    const ctx = child.withSignal({ a: 1 });
    assert.deepEqual(ctx, { a: 1 });
    assert.equal('signal' in ctx, false);
    child.dispose();
  });
});
