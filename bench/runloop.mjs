// Figures: runloop overhead, and the share of requests whose prefix is byte-identical to the first.
//
// runloop: the scripted server (its own process) answers 1,000 requests with one read_file call
// each, then a final answer. The same script is run by (a) a bare loop on the `openai` SDK
// (lib/bareLoop.mjs) and (b) a Planwise planning session through `createSession`, with the real
// guards, gate, tools and Node adapters (lib/planwiseLoop.mjs). Both send byte-identical requests
// (checked: the SHA-256 of each run's last request, which holds the whole thread). After one
// 100-turn warm-up each, PAIRS pairs of runs (Planwise then bare, bare then Planwise, ...) are
// timed, with a forced GC before every run; the figure is the median over the pairs of
// Planwise's wall time / the bare loop's, beside the same median for the client process's CPU
// time. Adjacent runs see about the same load from other processes, so per-pair ratios cancel most
// of a shared machine's noise. Planwise's budgets are raised so no guard stops a 1,000-call turn,
// but every guard still runs.
//
// prefix: a scripted two-turn planning session through `createSession` with default budgets:
// listing, reading, searching, a shell command, parallel calls, six search misses that trigger the
// tool-free synthesis pass, then a revision turn. The server compares each request's serialised
// system message and tools array with the first request's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { runBareLoop } from './lib/bareLoop.mjs';
import { figureMain, log, measured, notMeasured } from './lib/figure.mjs';
import { loadPlanwise, runPlanwiseSession } from './lib/planwiseLoop.mjs';
import { startScriptedServer } from './lib/serverClient.mjs';
import { formatMs, median, round, timeMs } from './lib/stats.mjs';

export const GOAL_RATIO = 1.2;
const TURNS = Number(process.env.PLANWISE_BENCH_TURNS ?? 1000);
/** Timed pairs (one run of each side); PLANWISE_BENCH_ROUNDS overrides. */
const PAIRS = Number(process.env.PLANWISE_BENCH_ROUNDS ?? 7);
/** No new pair starts after this many seconds of timed runs, once MIN_PAIRS are done. */
const BUDGET_MS = Number(process.env.PLANWISE_BENCH_RUNLOOP_SECONDS ?? 300) * 1000;
const MIN_PAIRS = Math.min(3, PAIRS);
const WARMUP_TURNS = 100;
/** One distinct file per call, so no call repeats an earlier one (the repeated-request guard would trip). */
const FILES = Math.max(TURNS, WARMUP_TURNS);
const TASK = 'Plan how to add input validation to every exported function.';
const FINAL = `<proposed_plan>
# Validate inputs
## Summary
Add argument checks to the exported functions.
## Implementation Steps
1. Add checks -> files: [src/f1.ts] -> verify: [npm test]
## Test Cases and Validation
- tests: npm test
## Assumptions and Defaults
- none
</proposed_plan>`;

/** A workspace of `count` small, distinct source files src/f<i>.ts. */
function makeWorkspace(count) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'planwise-bench-ws-'));
  mkdirSync(path.join(dir, 'src'));
  for (let i = 0; i < count; i++) {
    const lines = [`// module ${i}`, `export function step${i}(input: number): number {`];
    for (let l = 0; l < 8; l++) lines.push(`  const v${l} = input * ${i + l} + ${l};`);
    lines.push(`  return v7 - ${i};`, '}', '');
    writeFileSync(path.join(dir, 'src', `f${i}.ts`), lines.join('\n'));
  }
  return dir;
}

const RAISED = 1_000_000;
const NO_STOP_BUDGETS = {
  toolCallsPerTurn: RAISED,
  loopsPerTurn: RAISED,
  sessionToolCalls: RAISED,
  previewTurnBytes: { plan: RAISED * 1000 },
  lowSignal: { consecutive: RAISED, total: RAISED },
};

/** A full collection before each run, so neither side pays for the other's garbage. */
function collector() {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
}

async function runloop() {
  const mod = await loadPlanwise();
  if (mod.missing) return notMeasured(`${mod.missing}; the bare SDK baseline (lib/bareLoop.mjs) is ready`);
  const gc = collector();
  const workspace = makeWorkspace(FILES);
  const server = await startScriptedServer();
  const tools = mod.planningToolSchemas();
  try {
    const once = async (side, turns) => {
      const baseURL = await server.start({ kind: 'toolLoop', turns, files: FILES, final: FINAL });
      gc();
      const cpuBefore = process.cpuUsage();
      const { ms } = await timeMs(() =>
        side === 'bare'
          ? runBareLoop({ workspace, baseURL, system: mod.PLANNING_SYSTEM_PROMPT, tools, userText: TASK })
          : runPlanwiseSession(mod, { workspace, baseURL, userTurns: [TASK], budgets: NO_STOP_BUDGETS }),
      );
      const cpu = process.cpuUsage(cpuBefore);
      const stats = await server.stats();
      if (stats.requests !== turns + 1) {
        throw new Error(`the ${side} loop made ${stats.requests} requests, expected ${turns + 1}`);
      }
      return {
        ms,
        clientCpuMs: (cpu.user + cpu.system) / 1000,
        serverMs: stats.serverMs,
        requestBytes: stats.bodyBytes,
        requestDigest: stats.requestDigest,
        prefixIdentical: `${stats.identical}/${stats.requests}`,
      };
    };
    log(`runloop: warm-up (${WARMUP_TURNS} turns each)`);
    await once('bare', WARMUP_TURNS);
    await once('planwise', WARMUP_TURNS);

    const pairs = [];
    const started = Date.now();
    const loadBefore = os.loadavg()[0];
    for (let p = 0; p < PAIRS; p++) {
      if (p >= MIN_PAIRS && Date.now() - started > BUDGET_MS) {
        log(`runloop: stopping after ${p} pairs (past the ${BUDGET_MS / 1000} s budget for timed runs)`);
        break;
      }
      const order = p % 2 === 0 ? ['planwise', 'bare'] : ['bare', 'planwise'];
      const pair = {};
      for (const side of order) pair[side] = await once(side, TURNS);
      pair.first = order[0];
      pair.ratio = pair.planwise.ms / pair.bare.ms;
      pair.cpuRatio = pair.planwise.clientCpuMs / pair.bare.clientCpuMs;
      pairs.push(pair);
      log(
        `runloop: pair ${p + 1}/${PAIRS} (${order.join(' then ')}): Planwise ${formatMs(pair.planwise.ms)} ` +
          `(CPU ${formatMs(pair.planwise.clientCpuMs)}), bare ${formatMs(pair.bare.ms)} ` +
          `(CPU ${formatMs(pair.bare.clientCpuMs)}): ${pair.ratio.toFixed(2)}x wall, ${pair.cpuRatio.toFixed(2)}x CPU`,
      );
    }

    const ratios = pairs.map((x) => x.ratio);
    const cpuRatios = pairs.map((x) => x.cpuRatio);
    const ratio = median(ratios);
    const cpuRatio = median(cpuRatios);
    const med = (side, key) => median(pairs.map((x) => x[side][key]));
    const sameRequests = pairs.every(
      (x) => x.planwise.requestDigest === x.bare.requestDigest && x.planwise.requestBytes === x.bare.requestBytes,
    );
    const span = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}x`;
    const value =
      `${ratio.toFixed(2)}x wall, ${cpuRatio.toFixed(2)}x client CPU (medians of ${pairs.length} interleaved pairs; ` +
      `per pair ${span(ratios)} wall, ${span(cpuRatios)} CPU); ${(med('planwise', 'ms') / TURNS).toFixed(2)} vs ` +
      `${(med('bare', 'ms') / TURNS).toFixed(2)} ms/turn over ${TURNS} turns` +
      (sameRequests ? '; byte-identical requests' : '; requests NOT byte-identical (see results.json)');
    const run = (x) => ({
      ms: round(x.ms),
      clientCpuMs: round(x.clientCpuMs),
      serverMs: round(x.serverMs),
      requestBytes: x.requestBytes,
      prefixIdentical: x.prefixIdentical,
    });
    return measured(value, ratio <= GOAL_RATIO, {
      method: 'median of per-pair ratios over interleaved pairs (Planwise/bare), forced GC before each run',
      turns: TURNS,
      pairs: pairs.length,
      loadAverage1m: { before: round(loadBefore), after: round(os.loadavg()[0]) },
      goalRatio: GOAL_RATIO,
      ratio: round(ratio, 3),
      clientCpuRatio: round(cpuRatio, 3),
      pairRatios: ratios.map((x) => round(x, 3)),
      pairCpuRatios: cpuRatios.map((x) => round(x, 3)),
      sameRequests,
      requestDigests: { planwise: pairs[0]?.planwise.requestDigest, bare: pairs[0]?.bare.requestDigest },
      medianMs: { planwise: round(med('planwise', 'ms')), bare: round(med('bare', 'ms')) },
      medianClientCpuMs: { planwise: round(med('planwise', 'clientCpuMs')), bare: round(med('bare', 'clientCpuMs')) },
      medianServerMs: { planwise: round(med('planwise', 'serverMs')), bare: round(med('bare', 'serverMs')) },
      runs: pairs.map((x) => ({ first: x.first, planwise: run(x.planwise), bare: run(x.bare) })),
    });
  } finally {
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

const PLANNING_STEPS = [
  { tools: [{ name: 'list_files', args: { path: '.' } }] },
  { tools: [{ name: 'read_file', args: { path: 'src/f1.ts' } }] },
  { tools: [{ name: 'code_search', args: { pattern: 'export function step[0-9]+' } }] },
  { tools: [{ name: 'exec_command', args: { command: 'ls src' } }] },
  {
    tools: [
      { name: 'read_file', args: { path: 'src/f2.ts' } },
      { name: 'read_file', args: { path: 'src/f3.ts' } },
    ],
  },
  ...Array.from({ length: 6 }, (_, i) => ({ tools: [{ name: 'code_search', args: { pattern: `absentName${i}` } }] })),
  { tools: [{ name: 'read_file', args: { path: 'src/f4.ts' } }] },
  { text: FINAL },
];

async function prefix() {
  const mod = await loadPlanwise();
  if (mod.missing) return notMeasured(mod.missing);
  const workspace = makeWorkspace(8);
  const server = await startScriptedServer();
  try {
    const baseURL = await server.start({ kind: 'planning', steps: PLANNING_STEPS, final: FINAL });
    await runPlanwiseSession(mod, {
      workspace,
      baseURL,
      userTurns: [TASK, 'Also cover the error path of step 4.'],
    });
    const stats = await server.stats();
    const share = stats.requests === 0 ? 0 : stats.identical / stats.requests;
    const value =
      `${round(share * 100, 1)}% (${stats.identical} of ${stats.requests} requests over 2 turns` +
      `${stats.toolChoiceNone === 1 ? ', incl. 1 tool-free synthesis request' : ''}` +
      `${stats.toolChoiceNone > 1 ? `, incl. ${stats.toolChoiceNone} tool-free synthesis requests` : ''})`;
    return measured(value, share === 1, { ...stats, share: round(share, 4) });
  } finally {
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

await figureMain({ runloop, prefix });
