import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { EventBus } from '../../src/core/events/bus';
import { SessionArchive } from '../../src/core/events/archive';
import { FileArchiveStore, checkSessionId } from '../../src/node/fileArchiveStore';

const repo = resolve(__dirname, '../..');

describe('FileArchiveStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'planwise-archive-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends lines to <id>.jsonl, creating the folder, and reads them back', async () => {
    const store = new FileArchiveStore(join(dir, 'sessions'));
    assert.equal(await store.read('s1'), undefined);
    assert.deepEqual(await store.list(), []);
    await store.append('s1', '{"a":1}');
    await store.append('s1', '{"b":"ünïcødé ✓"}');
    await store.append('s-2.x_y', '{}');
    assert.equal(readFileSync(join(dir, 'sessions', 's1.jsonl'), 'utf8'), '{"a":1}\n{"b":"ünïcødé ✓"}\n');
    assert.deepEqual(await store.read('s1'), ['{"a":1}', '{"b":"ünïcødé ✓"}']);
    assert.deepEqual(await store.list(), ['s-2.x_y', 's1']);
  });

  it('lists only archive files with valid ids', async () => {
    const store = new FileArchiveStore(dir);
    await store.append('ok', '{}');
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, '.hidden.jsonl'), 'x');
    assert.deepEqual(await store.list(), ['ok']);
  });

  it('keeps concurrent appends to one session whole and in call order', async () => {
    const store = new FileArchiveStore(dir);
    const big = 'z'.repeat(1 << 18);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.append('s', JSON.stringify({ i, big }))));
    const lines = (await store.read('s'))!;
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { i: number }).i),
      Array.from({ length: 20 }, (_, i) => i),
    );
  });

  it('rejects ids that could leave the folder or are not portable file names', async () => {
    const store = new FileArchiveStore(join(dir, 'sessions'));
    for (const bad of [
      '../evil',
      '..',
      '.',
      'a/b',
      'a\\b',
      '/abs',
      '',
      '.hidden',
      'x'.repeat(129),
      'NUL',
      'com1.log',
      'a b',
    ]) {
      assert.throws(() => checkSessionId(bad), /invalid session id .*letters, digits/, bad);
      await assert.rejects(store.append(bad, '{}'), /invalid session id/, bad);
      await assert.rejects(store.read(bad), /invalid session id/, bad);
    }
    assert.equal(existsSync(join(dir, 'evil.jsonl')), false);
    assert.equal(existsSync(join(dir, 'sessions')), false, 'nothing was created');
    assert.doesNotThrow(() => checkSessionId('2026-11-30T10-00-00_abc.1'));
  });

  it('rejects a line containing a line break', async () => {
    const store = new FileArchiveStore(dir);
    await assert.rejects(store.append('s', '{"a":\n1}'), /must not contain a line break/);
    await assert.rejects(store.append('s', 'a\rb'), /must not contain a line break/);
    assert.equal(await store.read('s'), undefined);
  });

  it('returns a torn last line as it is, and starts a fresh line before the next append', async () => {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, '{"kind":"a"}\n{"kind":"tor');
    const store = new FileArchiveStore(dir);
    assert.deepEqual(await store.read('s'), ['{"kind":"a"}', '{"kind":"tor']);
    await store.append('s', '{"kind":"b"}');
    await store.append('s', '{"kind":"c"}');
    assert.equal(readFileSync(file, 'utf8'), '{"kind":"a"}\n{"kind":"tor\n{"kind":"b"}\n{"kind":"c"}\n');
  });

  it('surfaces read errors other than a missing file', async () => {
    const store = new FileArchiveStore(join(dir, 'file-not-folder'));
    writeFileSync(join(dir, 'file-not-folder'), 'x');
    await assert.rejects(store.list(), /ENOTDIR/);
    await assert.rejects(store.append('s', '{}'), /EEXIST|ENOTDIR/);
  });
});

describe('SessionArchive over FileArchiveStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'planwise-archive-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('recovers from a torn line: earlier events intact, later appends readable', async () => {
    const store = new FileArchiveStore(dir);
    const archive = new SessionArchive(store, 'run1');
    const bus = new EventBus(() => 5);
    archive.attach(bus);
    bus.emit({ type: 'thread.started', thread_id: 'run1', mode: 'plan' });
    bus.emit({ type: 'progress', message: 'reading' });
    await archive.checkpoint({ lifecycle: 'planning' });
    await archive.flush();
    appendFileSync(join(dir, 'run1.jsonl'), '{"kind":"event","event":{"type":"progress","mess');

    const torn = (await SessionArchive.load(new FileArchiveStore(dir), 'run1'))!;
    assert.equal(torn.tornTail, true);
    assert.deepEqual(
      torn.events.map((e) => e.seq),
      [1, 2],
    );
    assert.deepEqual(torn.lastCheckpoint?.state, { lifecycle: 'planning' });

    const resumedStore = new FileArchiveStore(dir);
    const resumed = new SessionArchive(resumedStore, 'run1');
    const bus2 = new EventBus(() => 6, torn.lastSeq);
    resumed.attach(bus2);
    bus2.emit({ type: 'progress', message: 'resumed' });
    assert.deepEqual(await resumed.verifyPersisted(), { ok: true, lastSeq: 3 });
    const after = (await SessionArchive.load(resumedStore, 'run1'))!;
    assert.deepEqual(
      after.events.map((e) => e.seq),
      [1, 2, 3],
    );
    assert.equal(after.tornTail, false);
    assert.equal(after.skippedLines, 1, 'the torn fragment is skipped, not glued to the next record');
  });

  it('survives a writer SIGKILLed in the middle of appending', async function () {
    const id = 'killed';
    const file = join(dir, `${id}.jsonl`);
    const committed = 20;
    const fixture = join(__dirname, 'fixtures', 'archiveWriter.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir, id, String(committed), String(16 << 20)], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let stdout = '';
    await new Promise<void>((resolveReady, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes(`committed ${committed}\n`)) resolveReady();
      });
      child.on('exit', (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
    });

    // Kill as soon as the file grows past what was committed: the writer is inside a large append.
    const boundary = statSync(file).size;
    const guard = Date.now() + 15_000;
    while (statSync(file).size <= boundary && Date.now() < guard) {
      // busy-wait on purpose: the kill must land while the chunked write is under way
    }
    child.kill('SIGKILL');
    const [, signal] = await exited;
    assert.equal(signal, 'SIGKILL');

    const raw = readFileSync(file);
    const endsWithNewline = raw.length > 0 && raw[raw.length - 1] === 0x0a;
    const loaded = (await SessionArchive.load(new FileArchiveStore(dir), id))!;
    assert.equal(loaded.tornTail, !endsWithNewline, 'a cut-off last line is reported as torn');
    assert.equal(loaded.skippedLines, 0);
    assert.ok(loaded.events.length >= committed);
    assert.deepEqual(
      loaded.events.map((e) => e.seq),
      Array.from({ length: loaded.events.length }, (_, i) => i + 1),
      'events form an unbroken prefix',
    );
    loaded.events.forEach((e, i) => {
      assert.equal(e.type, 'item.completed');
      const text = e.type === 'item.completed' ? e.item.text : undefined;
      assert.equal(text, i < committed ? `note ${i + 1}` : 'y'.repeat(16 << 20), `event ${i + 1} is intact`);
    });
    this.test!.title += endsWithNewline ? ' (killed between lines)' : ' (killed mid-line)';

    // A resumed writer appends after the torn fragment, never onto it.
    const resumed = new SessionArchive(new FileArchiveStore(dir), id);
    const bus = new EventBus(() => 1, loaded.lastSeq);
    resumed.attach(bus);
    bus.emit({ type: 'progress', message: 'resumed after kill' });
    assert.deepEqual(await resumed.verifyPersisted(), { ok: true, lastSeq: loaded.lastSeq + 1 });
    const after = (await SessionArchive.load(new FileArchiveStore(dir), id))!;
    assert.equal(after.events.length, loaded.events.length + 1);
    assert.equal(after.tornTail, false);
    assert.equal(after.skippedLines, endsWithNewline ? 0 : 1);
  });
});
