// Figures whose producers belong to other parts of the project: this file only runs them (as child
// processes) or reads what they wrote, and turns their output into figure records. A producer that
// is missing or fails gives a "not measured" record with the reason.
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measured, notMeasured, oneLine } from './figure.mjs';
import { exists, repoRoot } from './load.mjs';
import { failureReason, findNumber, lastJson, runNode } from './producers.mjs';
import { formatBytes, formatCount, median } from './stats.mjs';

export const GATE_GOAL = 100_000;
export const FRAME_GOAL_MS = 16;
export const ACTIVATION_GOAL_RATIO = 2;
export const ACTIVATION_GOAL_MS = 20;

/** A record the producer printed in this harness's own shape, if it did. */
function ownRecord(json) {
  return json && (json.status === 'measured' || json.status === 'not measured') ? json : undefined;
}

export async function gate() {
  const script = 'bench/gate.mjs';
  if (!exists(script)) return notMeasured(`${script} (the gate's throughput benchmark) does not exist yet`);
  const run = await runNode(script, { timeoutMs: 180_000 });
  const json = lastJson(run.stdout);
  if (ownRecord(json)) return ownRecord(json);
  const rate =
    findNumber(json, /(commands?|cmds|checks?|ops)_?(per_?s(ec(ond)?)?|\/s)$|throughput/i) ?? textRate(run.stdout);
  if (run.code !== 0 || !rate) {
    return notMeasured(run.code !== 0 ? failureReason(script, run) : `${script} printed no commands-per-second figure`);
  }
  const value = `${formatCount(rate.value)} commands/s (${script}: ${rate.key})`;
  return measured(value, rate.value >= GATE_GOAL, { commandsPerSecond: rate.value, goal: GATE_GOAL, output: json });
}

/** "123,456 commands/s" (or "cmds/s") in plain text output. */
function textRate(text) {
  const m = /([\d][\d,._]*)\s*(k)?\s*(?:commands?|cmds|checks?)\s*\/\s*s/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1].replace(/[,_]/g, '')) * (m[2] ? 1000 : 1);
  return Number.isFinite(n) ? { key: 'text', value: n } : undefined;
}

export async function panel() {
  const script = 'bench/panel.mjs';
  if (!exists(script)) return notMeasured(`${script} (the panel in Chromium) does not exist yet`);
  const run = await runNode(script, { timeoutMs: 420_000 });
  const json = lastJson(run.stdout);
  if (ownRecord(json)) return ownRecord(json);
  const p95 = findNumber(json, /frame.*p95/i) ?? findNumber(json, /p95/i);
  const heap = findNumber(json, /heap.*end/i) ?? findNumber(json, /heap/i);
  if (run.code !== 0 || !p95) {
    return notMeasured(run.code !== 0 ? failureReason(script, run) : `${script} printed no p95 frame time`);
  }
  const heapText = !heap
    ? ''
    : /mb/i.test(heap.key)
      ? `; JS heap ${heap.value} MB (${heap.key})`
      : `; JS heap ${heap.value > 4096 ? formatBytes(heap.value) : heap.value} (${heap.key})`;
  const value = `p95 frame ${p95.value.toFixed(1)} ms${heapText}`;
  return measured(value, p95.value <= FRAME_GOAL_MS, {
    p95FrameMs: p95.value,
    heap: heap ? { [heap.key]: heap.value } : undefined,
    output: json,
  });
}

/**
 * The plan-store crash loop: bench/planStoreCrash.mjs when it exists, else the plan store's crash
 * test (test/plan/storeCrash.test.ts), which SIGKILLs writers at random moments and fails on any
 * torn or invalid plan, history entry or tracker.
 */
export async function planStore() {
  if (exists('bench/planStoreCrash.mjs')) {
    const run = await runNode('bench/planStoreCrash.mjs', { timeoutMs: 420_000 });
    const json = lastJson(run.stdout);
    if (ownRecord(json)) return ownRecord(json);
    const torn = findNumber(json, /torn|invalid|corrupt/i);
    if (run.code !== 0 || !torn) return notMeasured(failureReason('bench/planStoreCrash.mjs', run));
    return measured(`${torn.value} torn or invalid files (${torn.key})`, torn.value === 0, { output: json });
  }
  const test = 'test/plan/storeCrash.test.ts';
  if (!exists(test))
    return notMeasured('no crash-loop producer yet (bench/planStoreCrash.mjs or test/plan/storeCrash.test.ts)');
  const report = path.join(os.tmpdir(), `planwise-bench-crash-${process.pid}.json`);
  const mocha = path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const run = await runNode(mocha, {
    args: [test, '--reporter', 'json', '--reporter-option', `output=${report}`],
    env: { PLANWISE_CRASH_REPORT: '1' },
    timeoutMs: 420_000,
  });
  if (!existsSync(report)) return notMeasured(failureReason(test, run));
  const result = JSON.parse(readFileSync(report, 'utf8'));
  rmSync(report, { force: true });
  const kills = /(\d+) kills; (\d+) temporary files/.exec(run.stdout);
  const data = {
    source: test,
    passes: result.stats?.passes ?? 0,
    failures: result.stats?.failures ?? 0,
    kills: kills ? Number(kills[1]) : undefined,
    tempFilesLeft: kills ? Number(kills[2]) : undefined,
  };
  if (data.failures > 0 || data.passes === 0) {
    const first = result.failures?.[0]?.err?.message ?? 'no test passed';
    return measured(`torn or invalid files found: ${oneLine(first)}`, false, data);
  }
  const killsText = data.kills !== undefined ? ` after ${data.kills} SIGKILLs during writes` : '';
  const temps =
    data.tempFilesLeft !== undefined ? ` (${data.tempFilesLeft} temporary files left by kills mid-write)` : '';
  return measured(`0 torn or invalid files${killsText}${temps}`, true, data);
}

/** Where the e2e harness may record activation times; the first that exists is read. */
const ACTIVATION_FILES = ['test-artifacts/e2e/activation.json', 'test-artifacts/e2e/timings.json'];

/**
 * `activate()` in the real VS Code of the e2e harness: read from the harness's output. Samples
 * come from `samplesMs` / `activationMs` (a number or a list) or `planwiseActivationMs`; the floor,
 * when recorded, from `emptyExtensionActivationMs` (an empty extension activated the same way in the
 * same extension host). With a floor the figure is the ratio of the medians (goal ≤ 2×); without
 * one, the median against the old absolute goal.
 */
export async function activation() {
  for (const rel of ACTIVATION_FILES) {
    const file = path.join(repoRoot, rel);
    if (!existsSync(file)) continue;
    let json;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    const numbers = (raw) =>
      (Array.isArray(raw) ? raw : [raw]).filter((x) => typeof x === 'number' && Number.isFinite(x));
    const samples = numbers(
      json.samplesMs ?? json.activationMs ?? json.planwiseActivationMs ?? json.planwise?.activationMs,
    );
    if (samples.length === 0) continue;
    const floor = numbers(json.emptyExtensionActivationMs);
    const med = median(samples);
    const written = statSync(file).mtime.toISOString();
    const note = samples.length >= 5 ? `median of ${samples.length} starts` : `${samples.length} start(s) only, not 5`;
    const where = `${rel}, written ${written.slice(0, 16).replace('T', ' ')} UTC`;
    const data = { samplesMs: samples, medianMs: med, source: rel, written };
    if (floor.length > 0) {
      const floorMed = median(floor);
      // VS Code reports whole milliseconds; an empty extension may read 0 ms.
      const ratio = Math.round((med / Math.max(1, floorMed)) * 100) / 100;
      // The same activations timed in the extension host at a microsecond's resolution, when recorded.
      const timed = json.inProcess;
      const timedText =
        typeof timed?.ratio === 'number'
          ? `; timed in the extension host (loading the main file + activate()): ${timed.ratio}x, ` +
            `${timed.median} vs ${timed.emptyMedian} ms`
          : '';
      return measured(
        `${ratio}x an empty extension (${med} ms vs ${floorMed} ms, ${note}, both activated by a command${timedText}; ${where})`,
        ratio <= ACTIVATION_GOAL_RATIO,
        {
          ...data,
          floorSamplesMs: floor,
          floorMedianMs: floorMed,
          ratio,
          goalRatio: ACTIVATION_GOAL_RATIO,
          ...(timed ? { inProcess: timed } : {}),
        },
      );
    }
    return measured(`${med} ms (${note}; no floor recorded; ${where})`, med <= ACTIVATION_GOAL_MS, data);
  }
  return notMeasured(
    `no Planwise activation time recorded by the e2e harness yet (looked for ${ACTIVATION_FILES.join(', ')}; run npm run test:e2e first)`,
  );
}

/**
 * Task submitted → the first request's head at the scripted server, in the real VS Code of the e2e
 * harness (test/e2e/firstPaint.e2e.ts writes test-artifacts/e2e/firstRequest.json), cold (first
 * session after activation) and warm (the median of the next sessions), with the time spent loading bundles in
 * between, and the floor: an empty extension's input box whose text is posted at once (the
 * webview-probe fixture's Ask and Send), timed the same way. Goal: warm ≤ 50 ms of Planwise's own
 * work (the time less the bundles' loading and less the floor).
 */
export const FIRST_REQUEST_GOAL_MS = 50;

export async function firstRequest() {
  const rel = 'test-artifacts/e2e/firstRequest.json';
  const file = path.join(repoRoot, rel);
  if (!existsSync(file)) return notMeasured(`${rel} not written yet (run npm run test:e2e first)`);
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const { cold, warm } = json;
  if (!cold || !warm) return notMeasured(`${rel} has no cold and warm figures`);
  // Planwise's own work: the time less the bundles' loading and less the floor (an empty
  // extension's input box posting its text, timed the same way), when the e2e measured one.
  const floorMs = (x) => json.floor?.[x]?.ms ?? 0;
  const own = (x, which) => Math.max(0, x.ms - x.moduleLoadMs - floorMs(which));
  const share = (x) => (x.ms > 0 ? Math.round((x.moduleLoadMs / x.ms) * 100) : 0);
  const written = statSync(file).mtime.toISOString();
  const runs = (x) => (Array.isArray(x.samplesMs) ? `, median of ${x.samplesMs.length}` : '');
  const floor = json.floor
    ? `; floor (an empty extension's input box posting its text) ${json.floor.cold.ms} / ${json.floor.warm.ms} ms${runs(json.floor.warm)}`
    : '; no floor measured';
  return measured(
    `cold ${cold.ms} ms (${share(cold)}% loading bundles: ${cold.moduleLoadMs} ms); warm ${warm.ms} ms${runs(warm)} ` +
      `(${share(warm)}% loading bundles; own work ${own(warm, 'warm')} ms)${floor}; ${rel}, written ${written.slice(0, 16).replace('T', ' ')} UTC`,
    own(warm, 'warm') <= FIRST_REQUEST_GOAL_MS,
    { ...json, source: rel, written, goalMs: FIRST_REQUEST_GOAL_MS },
  );
}

/**
 * The panel's first paint in the real VS Code of the e2e harness (test/e2e/firstPaint.e2e.ts writes
 * test-artifacts/e2e/firstPaint.json), as the webview itself marks it (the performance mark
 * `planwise:first-paint`, webview/firstPaint.ts): from the host's resolve call (before dist/host.js
 * loads) to the first frame painted after the host's first snapshot, against an empty webview view
 * resolved for the first time in the same window that marks its first paint the same way (the
 * webview-probe fixture's floor view). Goal: ≤ 2×.
 */
export const FIRST_PAINT_GOAL_RATIO = 2;

export async function firstPaint() {
  const rel = 'test-artifacts/e2e/firstPaint.json';
  const file = path.join(repoRoot, rel);
  if (!existsSync(file)) return notMeasured(`${rel} not written yet (run npm run test:e2e first)`);
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const { planwise, emptyView, harness } = json;
  if (typeof planwise?.sinceResolveMs !== 'number' || typeof emptyView?.sinceResolveMs !== 'number') {
    return notMeasured(`${rel} has no first-paint marks from the webviews (written by an older e2e)`);
  }
  const written = statSync(file).mtime.toISOString();
  const seen = harness ? `; seen from outside by the harness ${harness.planwiseMs} vs ${harness.emptyViewMs} ms` : '';
  const of = typeof json.loads === 'number' ? `, medians of ${json.loads} window loads` : '';
  return measured(
    `${json.ratio}x an empty webview view: ${planwise.sinceResolveMs} ms vs ${emptyView.sinceResolveMs} ms from the view's resolve to ` +
      `its first paint, marked in each webview (from the document's navigation ${Math.round(planwise.sinceNavigationMs)} vs ` +
      `${Math.round(emptyView.sinceNavigationMs)} ms${of})${seen}; ${rel}, written ${written.slice(0, 16).replace('T', ' ')} UTC`,
    json.ratio <= FIRST_PAINT_GOAL_RATIO,
    { ...json, source: rel, written, goalRatio: FIRST_PAINT_GOAL_RATIO },
  );
}
