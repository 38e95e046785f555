import assert from 'node:assert/strict';
import { PendingRequests, type Timers } from '../../src/host/prompts/pending';

function manualTimers() {
  const timers = new Map<number, () => void>();
  let next = 0;
  const t: Timers & { fireAll(): void; count(): number } = {
    set: (fn) => {
      timers.set(++next, fn);
      return next;
    },
    clear: (h) => void timers.delete(h as number),
    fireAll: () => {
      const fns = [...timers.values()];
      timers.clear();
      fns.forEach((f) => f());
    },
    count: () => timers.size,
  };
  return t;
}

describe('pending-request table', () => {
  it('settles a request once, by id and kind, and refuses late, duplicate and mismatched answers', async () => {
    const table = new PendingRequests(manualTimers(), () => 0, 'x');
    const { id, promise } = table.open<string>('approval');
    assert.equal(table.resolve(id, 'interview', 'wrong kind'), false);
    assert.equal(table.resolve('approval-x-99', 'approval', 'unknown'), false);
    assert.equal(table.resolve(id, 'approval', 'yes'), true);
    assert.equal(table.resolve(id, 'approval', 'again'), false);
    assert.equal(await promise, 'yes');
    assert.equal(table.size, 0);
  });

  it('gives distinct ids to requests open at the same time', async () => {
    const table = new PendingRequests(manualTimers());
    const a = table.open<number>('interview');
    const b = table.open<number>('interview');
    assert.notEqual(a.id, b.id);
    table.resolve(b.id, 'interview', 2);
    table.resolve(a.id, 'interview', 1);
    assert.deepEqual(await Promise.all([a.promise, b.promise]), [1, 2]);
  });

  it('settles with the safe default on timeout and stops the timer when answered', async () => {
    const timers = manualTimers();
    const table = new PendingRequests(timers);
    const timed = table.open<boolean>('grantMore', { timeoutMs: 600_000, onTimeout: () => false });
    const answered = table.open<boolean>('grantMore', { timeoutMs: 600_000, onTimeout: () => false });
    table.resolve(answered.id, 'grantMore', true);
    assert.equal(timers.count(), 1, 'the answered request no longer has a timer');
    timers.fireAll();
    assert.equal(await timed.promise, false);
    assert.equal(await answered.promise, true);
  });

  it('has no timer when no timeout is given (plan decisions wait for the person)', () => {
    const timers = manualTimers();
    new PendingRequests(timers).open('approval');
    assert.equal(timers.count(), 0);
  });

  it('rejects when its signal aborts, and refuses answers afterwards', async () => {
    const table = new PendingRequests(manualTimers());
    const controller = new AbortController();
    const { id, promise } = table.open('approval', { signal: controller.signal });
    controller.abort(new Error('decided elsewhere'));
    await assert.rejects(promise, /decided elsewhere/);
    assert.equal(table.resolve(id, 'approval', 'late'), false);
    await assert.rejects(table.open('approval', { signal: controller.signal }).promise, /decided elsewhere/);
  });

  it('finds the oldest pending request of a kind for commands', () => {
    const table = new PendingRequests(manualTimers());
    const q1 = table.open('interview', { data: { n: 1 } });
    table.open('interview', { data: { n: 2 } });
    assert.equal(table.first('interview')?.id, q1.id);
    assert.deepEqual(table.first('interview')?.data, { n: 1 });
    assert.equal(table.has('approval'), false);
  });

  it('closes everything with a reason and tells listeners what happened', async () => {
    const table = new PendingRequests(manualTimers());
    const events: string[] = [];
    table.onDidChange((e, what) => events.push(`${e.kind}:${what}`));
    const a = table.open('approval');
    const b = table.open('interview');
    table.resolve(b.id, 'interview', 'ok');
    table.closeAll('window closing');
    await assert.rejects(a.promise, /window closing/);
    assert.deepEqual(events, ['approval:opened', 'interview:opened', 'interview:answered', 'approval:closed']);
  });
});
