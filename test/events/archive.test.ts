import assert from 'node:assert/strict';
import { EventBus } from '../../src/core/events/bus';
import { SessionArchive } from '../../src/core/events/archive';
import type { ArchiveStore } from '../../src/core/ports';

/**
 * An in-memory store whose appends complete after a variable number of microtask hops, so a
 * non-serialised archive would finish them out of order. It records overlapping appends.
 */
class SlowMemoryStore implements ArchiveStore {
  readonly files = new Map<string, string[]>();
  inFlight = 0;
  maxInFlight = 0;
  failWhen: (line: string) => boolean = () => false;
  private calls = 0;

  async append(sessionId: string, line: string): Promise<void> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const hops = [5, 0, 3, 1][this.calls++ % 4]!;
    for (let i = 0; i < hops; i++) await Promise.resolve();
    this.inFlight--;
    if (this.failWhen(line)) throw new Error('disk full');
    const lines = this.files.get(sessionId) ?? [];
    lines.push(line);
    this.files.set(sessionId, lines);
  }

  async read(sessionId: string): Promise<string[] | undefined> {
    const lines = this.files.get(sessionId);
    return lines && [...lines];
  }

  async list(): Promise<string[]> {
    return [...this.files.keys()].sort();
  }
}

function makeBus(start = 0): EventBus {
  let t = 1000;
  return new EventBus(() => t++, start);
}

describe('SessionArchive', () => {
  it('appends every bus event in emission order, never two writes at once', async () => {
    const store = new SlowMemoryStore();
    const archive = new SessionArchive(store, 's1');
    const bus = makeBus();
    archive.attach(bus);
    bus.emit({ type: 'thread.started', thread_id: 's1', mode: 'plan', task: 'add a flag' });
    for (let i = 0; i < 40; i++) bus.emit({ type: 'progress', message: `step ${i}` });
    bus.emit({ type: 'thread.completed', thread_id: 's1' });
    await archive.flush();
    assert.equal(store.maxInFlight, 1, 'appends are serialised');
    const loaded = await SessionArchive.load(store, 's1');
    assert.ok(loaded);
    assert.deepEqual(
      loaded.events.map((e) => e.seq),
      Array.from({ length: 42 }, (_, i) => i + 1),
    );
    assert.equal(loaded.lastSeq, 42);
    assert.equal(loaded.events[0]!.type, 'thread.started');
    assert.deepEqual(loaded.events[5], { type: 'progress', message: 'step 4', seq: 6, at: 1005 });
    assert.equal(loaded.tornTail, false);
    assert.equal(loaded.skippedLines, 0);
  });

  it('stops archiving after detach', async () => {
    const store = new SlowMemoryStore();
    const archive = new SessionArchive(store, 's1');
    const bus = makeBus();
    const detach = archive.attach(bus);
    bus.emit({ type: 'progress', message: 'kept' });
    detach();
    bus.emit({ type: 'progress', message: 'not kept' });
    await archive.flush();
    assert.equal((await SessionArchive.load(store, 's1'))!.events.length, 1);
  });

  it('captures an event as it was when emitted, even if the object changes later', async () => {
    const store = new SlowMemoryStore();
    const archive = new SessionArchive(store, 's1');
    const bus = makeBus();
    archive.attach(bus);
    const event = bus.emit({ type: 'progress', message: 'before' }) as { message: string };
    event.message = 'after';
    await archive.flush();
    const [stored] = (await SessionArchive.load(store, 's1'))!.events;
    assert.equal((stored as { message: string }).message, 'before');
  });

  it('writes checkpoints after the events queued before them; load returns the last one', async () => {
    const store = new SlowMemoryStore();
    const archive = new SessionArchive(store, 's1', { now: () => 77 });
    const bus = makeBus();
    archive.attach(bus);
    bus.emit({ type: 'progress', message: 'a' });
    void archive.checkpoint({ lifecycle: { state: 'planning' } });
    bus.emit({ type: 'progress', message: 'b' });
    bus.emit({ type: 'progress', message: 'c' });
    await archive.checkpoint({ lifecycle: { state: 'awaiting_approval' }, budget: { loops: 3 } });
    const loaded = (await SessionArchive.load(store, 's1'))!;
    assert.deepEqual(loaded.lastCheckpoint, {
      kind: 'checkpoint',
      afterSeq: 3,
      at: 77,
      state: { lifecycle: { state: 'awaiting_approval' }, budget: { loops: 3 } },
    });
    const kinds = store.files.get('s1')!.map((l) => (JSON.parse(l) as { kind: string }).kind);
    assert.deepEqual(kinds, ['event', 'checkpoint', 'event', 'event', 'checkpoint']);
  });

  it('rejects a checkpoint that is not JSON data, with the reason', async () => {
    const archive = new SessionArchive(new SlowMemoryStore(), 's1');
    await assert.rejects(archive.checkpoint(undefined), /checkpoint cannot be archived: its state is undefined/);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await assert.rejects(archive.checkpoint(circular), /checkpoint cannot be archived: .*circular/i);
    await assert.rejects(archive.checkpoint({ n: 10n }), /checkpoint cannot be archived: .*BigInt/i);
  });

  it('reports a failing append through onError, keeps going, and then fails verifyPersisted', async () => {
    const store = new SlowMemoryStore();
    store.failWhen = (line) => line.includes('"poison"');
    const errors: Error[] = [];
    const archive = new SessionArchive(store, 's1', { onError: (e) => errors.push(e) });
    const bus = makeBus();
    archive.attach(bus);
    bus.emit({ type: 'progress', message: 'one' });
    assert.doesNotThrow(() => bus.emit({ type: 'progress', message: 'poison' }));
    bus.emit({ type: 'progress', message: 'three' });
    await archive.flush();
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /could not archive event 2 \(progress\) in session "s1": disk full/);
    assert.deepEqual(
      (await SessionArchive.load(store, 's1'))!.events.map((e) => e.seq),
      [1, 3],
    );
    assert.equal(archive.failures, 1);
    const check = await archive.verifyPersisted();
    assert.equal(check.ok, false);
    assert.match(!check.ok ? check.reason : '', /1 write\(s\) to session archive "s1" failed; last error: .*disk full/);
  });

  it('reports an event that cannot be serialised through onError without throwing into the bus', async () => {
    const store = new SlowMemoryStore();
    const errors: Error[] = [];
    const archive = new SessionArchive(store, 's1', { onError: (e) => errors.push(e) });
    const bus = makeBus();
    archive.attach(bus);
    const item = { id: 'i1', kind: 'notice' as const, text: 'x', extra: 1n };
    bus.emit({ type: 'item.completed', turn_id: 't1', item });
    await archive.flush();
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /event 1 \(item\.completed\) cannot be archived/);
  });

  it('verifyPersisted is ok once the last event is stored', async () => {
    const store = new SlowMemoryStore();
    const archive = new SessionArchive(store, 's1');
    const bus = makeBus();
    archive.attach(bus);
    for (let i = 0; i < 5; i++) bus.emit({ type: 'progress', message: String(i) });
    assert.deepEqual(await archive.verifyPersisted(), { ok: true, lastSeq: 5 });
  });

  it('static verifyPersisted needs an archive holding the expected events', async () => {
    const store = new SlowMemoryStore();
    const missing = await SessionArchive.verifyPersisted(store, 'nope');
    assert.match(!missing.ok ? missing.reason : '', /no session archive "nope" was written/);
    await store.append(
      's1',
      JSON.stringify({ kind: 'event', event: { type: 'progress', message: 'x', seq: 1, at: 1 } }),
    );
    assert.deepEqual(await SessionArchive.verifyPersisted(store, 's1'), { ok: true, lastSeq: 1 });
    const short = await SessionArchive.verifyPersisted(store, 's1', 4);
    assert.match(!short.ok ? short.reason : '', /ends at event 1, but event 4 was expected/);
    const broken: ArchiveStore = {
      append: (id, line) => store.append(id, line),
      list: () => store.list(),
      read: () => Promise.reject(new Error('EACCES')),
    };
    const unreadable = await SessionArchive.verifyPersisted(broken, 's1');
    assert.match(!unreadable.ok ? unreadable.reason : '', /cannot be read: EACCES/);
  });

  it('load tolerates a torn last line and skips unreadable lines elsewhere, counting them', async () => {
    const store = new SlowMemoryStore();
    const ev = (seq: number) =>
      JSON.stringify({ kind: 'event', event: { type: 'progress', message: 'm', seq, at: seq } });
    store.files.set('s1', [
      ev(1),
      ev(2).slice(0, 25),
      '',
      ev(3),
      '{"kind":"mystery"}',
      JSON.stringify({ kind: 'checkpoint', afterSeq: 3, at: 9, state: { ok: true } }),
      ev(4).slice(0, 30),
    ]);
    const loaded = (await SessionArchive.load(store, 's1'))!;
    assert.deepEqual(
      loaded.events.map((e) => e.seq),
      [1, 3],
    );
    assert.equal(loaded.lastSeq, 3);
    assert.equal(loaded.tornTail, true);
    assert.equal(loaded.skippedLines, 2);
    assert.deepEqual(loaded.lastCheckpoint?.state, { ok: true });
  });

  it('load gives undefined for an unknown session and an empty result for an empty archive', async () => {
    const store = new SlowMemoryStore();
    assert.equal(await SessionArchive.load(store, 'none'), undefined);
    store.files.set('empty', []);
    assert.deepEqual(await SessionArchive.load(store, 'empty'), {
      events: [],
      lastSeq: 0,
      tornTail: false,
      skippedLines: 0,
    });
  });

  it('a resumed bus continues the sequence in the same archive', async () => {
    const store = new SlowMemoryStore();
    const first = new SessionArchive(store, 's1');
    const bus1 = makeBus();
    first.attach(bus1);
    bus1.emit({ type: 'progress', message: 'a' });
    bus1.emit({ type: 'progress', message: 'b' });
    await first.flush();
    const before = (await SessionArchive.load(store, 's1'))!;
    const second = new SessionArchive(store, 's1');
    const bus2 = makeBus(before.lastSeq);
    second.attach(bus2);
    bus2.emit({ type: 'progress', message: 'c' });
    assert.deepEqual(await second.verifyPersisted(), { ok: true, lastSeq: 3 });
    assert.deepEqual(
      (await SessionArchive.load(store, 's1'))!.events.map((e) => e.seq),
      [1, 2, 3],
    );
  });
});
