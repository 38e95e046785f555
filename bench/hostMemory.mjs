// Figure: host memory after a 10,000-event session.
//
// Method: the host's whole event path without VS Code: the engine's EventBus feeds the session
// archive (SessionArchive over FileArchiveStore, a JSON-line file in a temp folder) and the panel
// path (EventTranslator -> PanelHub with its ViewModel, delivering seq-numbered deltas to a post
// function that serialises each message as postMessage would). 10,000 synthetic events of a long
// planning session (streamed prose, tool calls with 2 KB result previews, budgets, plans) are
// emitted in frames of 50. heapUsed is read after a forced GC (node --expose-gc) before the
// session, every 2,500 events, and after the session is dropped. Bounded means: the growth is
// within 4x the panel state's JSON size (what the host must hold), and dropping the session
// returns the heap to within 1 MB of where it started (nothing leaks past a session).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { figureMain, log, measured, notMeasured } from './lib/figure.mjs';
import { exists, loadTs } from './lib/load.mjs';
import { formatBytes, round } from './lib/stats.mjs';

const EVENTS = 10_000;
const FRAME = 50;
const GROWTH_FACTOR_LIMIT = 4;
const RETAINED_LIMIT = 1024 * 1024;

const ENTRY = `
  export { EventBus } from './src/core/events/bus';
  export { SessionArchive } from './src/core/events/archive';
  export { FileArchiveStore } from './src/node/fileArchiveStore';
  export { EventTranslator } from './src/host/panel/translate';
  export { PanelHub } from './src/host/panel/hub';`;

const WORDS = 'the plan reads the module and checks each exported function for argument validation before'.split(' ');

/** Deterministic text of about `chars` characters. */
function text(seed, chars) {
  let out = '';
  for (let i = seed; out.length < chars; i++) out += `${WORDS[i % WORDS.length]} `;
  return out.slice(0, chars);
}

/** The events of one planning turn `t` (about 30), as bodies for the bus, shaped as the engine emits them. */
function* turnEvents(t) {
  const turn_id = `turn-${t}`;
  yield { type: 'turn.started', turn_id };
  const textId = `text-${t}`;
  yield { type: 'item.started', turn_id, item: { id: textId, kind: 'assistant_text', text: '' } };
  let prose = '';
  for (let d = 0; d < 20; d++) {
    const delta = text(t + d, 40);
    prose += delta;
    yield { type: 'item.updated', turn_id, item: { id: textId, kind: 'assistant_text', delta } };
  }
  yield { type: 'item.completed', turn_id, item: { id: textId, kind: 'assistant_text', text: prose } };
  const callId = `call_${t}`;
  const call = {
    id: `call-${callId}`,
    kind: 'tool_call',
    tool: { callId, name: 'read_file', arguments: JSON.stringify({ path: `src/module${t}.ts` }) },
    verdict: { allowed: true, reason: 'read-only tool' },
  };
  yield { type: 'item.started', turn_id, item: call };
  yield { type: 'item.completed', turn_id, item: call };
  const preview = text(t * 7, 2000);
  yield {
    type: 'item.completed',
    turn_id,
    item: { id: `result-${callId}`, kind: 'tool_result', result: { callId, ok: true, bytes: 6000, preview } },
  };
  if (t % 40 === 39) {
    for (let d = 0; d < 20; d++) yield { type: 'plan.delta', turn_id, delta: text(t + d, 60) };
  }
  const budget = {
    toolCalls: { used: t + 1, max: 400 },
    loops: { used: 1, max: 60 },
    previewBytes: { used: 2000, max: 98304 },
    blockedCalls: { consecutive: 0, total: 0, fuse: 24 },
    tokens: { input: 1000 * (t + 1), output: 200 * (t + 1), cap: 0 },
    contextPercent: Math.min(99, t % 100),
  };
  yield { type: 'budget.updated', budget };
  yield { type: 'turn.completed', turn_id, usage: { promptTokens: 1000, completionTokens: 200, totalTokens: 1200 } };
}

function* sessionEvents(count) {
  yield { type: 'thread.started', thread_id: 'bench', mode: 'plan', task: 'Plan input validation' };
  let emitted = 1;
  for (let t = 0; ; t++) {
    for (const e of turnEvents(t)) {
      if (emitted++ >= count) return;
      yield e;
    }
  }
}

function heapAfterGc() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/** One session through the host path; `onCheckpoint(n)` after every 2,500 events. */
async function runSession(mod, dir, onCheckpoint) {
  const bus = new mod.EventBus(Date.now);
  const store = new mod.FileArchiveStore(dir);
  const archive = new mod.SessionArchive(store, 'bench-session');
  archive.attach(bus);
  const translator = new mod.EventTranslator({ relativePath: (p) => path.relative(dir, p) });
  let flush;
  const hub = new mod.PanelHub(undefined, { schedule: (fn) => (flush = fn) });
  let posted = { messages: 0, bytes: 0 };
  hub.attach(async (message) => {
    posted.messages++;
    posted.bytes += JSON.stringify(message).length;
    return true;
  }, true);
  hub.sendSnapshot();
  bus.on((event) => hub.update(translator.translate(event)));

  let n = 0;
  const started = performance.now();
  for (const body of sessionEvents(EVENTS)) {
    bus.emit(body);
    n++;
    if (n % FRAME === 0) {
      flush?.();
      flush = undefined;
      await archive.flush();
    }
    if (n % 2500 === 0) await onCheckpoint(n, hub);
  }
  flush?.();
  await archive.flush();
  const ms = performance.now() - started;
  const check = await archive.verifyPersisted();
  if (!check.ok) throw new Error(`the archive was not fully written: ${check.reason}`);
  return {
    events: n,
    ms,
    posted,
    stateJsonBytes: JSON.stringify(hub.state).length,
    archiveFile: store.pathOf('bench-session'),
  };
}

async function hostMemory() {
  if (typeof globalThis.gc !== 'function') return notMeasured('run with node --expose-gc (bench/run.mjs does)');
  for (const f of ['src/host/panel/translate.ts', 'src/host/panel/hub.ts', 'src/core/events/archive.ts']) {
    if (!exists(f)) return notMeasured(`${f} does not exist yet`);
  }
  const mod = await loadTs('host-memory', ENTRY);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'planwise-bench-archive-'));
  try {
    // Warm-up: a short session so compiled code and caches are in place before the baseline.
    const warm = mkdtempSync(path.join(dir, 'warm-'));
    await runSession(mod, warm, async () => {});
    rmSync(warm, { recursive: true, force: true });

    const before = heapAfterGc();
    const checkpoints = [];
    const result = await runSession(mod, dir, async (n) => {
      const heap = heapAfterGc();
      checkpoints.push({ events: n, heapUsed: heap, growth: heap - before });
      log(`hostMemory: ${n} events: heap ${formatBytes(heap)} (+${formatBytes(heap - before)})`);
    });
    const after = checkpoints.at(-1)?.heapUsed ?? heapAfterGc();
    const growth = after - before;
    const archiveBytes = statSync(result.archiveFile).size;
    const dropped = heapAfterGc();
    const retained = dropped - before;
    const factor = growth / result.stateJsonBytes;
    const bounded = factor <= GROWTH_FACTOR_LIMIT && retained <= RETAINED_LIMIT;
    const value =
      `heap ${formatBytes(before)} -> ${formatBytes(after)} (+${formatBytes(growth)}, ${factor.toFixed(1)}x the ` +
      `${formatBytes(result.stateJsonBytes)} panel state); ${formatBytes(Math.max(0, retained))} left after the session ` +
      `is dropped; archive ${formatBytes(archiveBytes)}`;
    return measured(value, bounded, {
      events: result.events,
      heapUsedBefore: before,
      heapUsedAfter: after,
      growthBytes: growth,
      panelStateJsonBytes: result.stateJsonBytes,
      growthToStateFactor: round(factor, 2),
      retainedAfterDropBytes: retained,
      archiveBytes,
      postedMessages: result.posted.messages,
      postedBytes: result.posted.bytes,
      pipelineMs: round(result.ms),
      checkpoints,
      limits: { growthToStateFactor: GROWTH_FACTOR_LIMIT, retainedAfterDropBytes: RETAINED_LIMIT },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await figureMain({ hostMemory });
