// Figures: runloop overhead, and the share of requests whose prefix is byte-identical to the first.
//
// runloop: a Planwise planning session through `createSession`, with the real guards, gate, tools and
// Node adapters (lib/planwiseLoop.mjs), and a bare loop on the `openai` SDK (lib/bareLoop.mjs), each
// in a client process of its own (lib/runloopClient.mjs), run the same 1,000-turn script of
// read_file calls at the same time in lockstep (lib/lockstepServer.mjs): one turn of one, then one
// turn of the other, only one of them busy at any moment. Whatever else the machine does in a
// second falls on both alike, which interleaving whole runs could not achieve on a shared machine
// (pairs of adjacent 15-second runs still ranged from 0.8x to 1.5x). Each side's time is the time it
// was busy (its answers and its own work), its CPU time that of its process. Both send
// byte-identical requests (checked: bytes and the SHA-256 of the last request, which holds the
// whole thread). After a 100-turn warm-up round, ROUNDS rounds are timed, Planwise taking the first
// turn in odd rounds and the bare loop in even ones; the figure is the median over the rounds of
// Planwise's busy time / the bare loop's, beside the same median for client CPU time.
//
// prefix: a scripted two-turn planning session through `createSession` with default budgets:
// listing, reading, searching, a shell command, parallel calls, six search misses that trigger the
// tool-free synthesis pass, then a revision turn. The server compares each request's serialised
// system message and tools array with the first request's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { figureMain, log, measured, notMeasured } from './lib/figure.mjs';
import { loadPlanwise, runPlanwiseSession } from './lib/planwiseLoop.mjs';
import { SIDES } from './lib/lockstepServer.mjs';
import { startScriptedServer } from './lib/serverClient.mjs';
import { formatMs, median, round } from './lib/stats.mjs';

export const GOAL_RATIO = 1.05;
const TURNS = Number(process.env.PLANWISE_BENCH_TURNS ?? 1000);
/** Timed rounds (one lockstep run of both sessions each); PLANWISE_BENCH_ROUNDS overrides. */
const ROUNDS = Number(process.env.PLANWISE_BENCH_ROUNDS ?? 5);
/** No new round starts after this many seconds of timed runs, once MIN_ROUNDS are done. */
const BUDGET_MS = Number(process.env.PLANWISE_BENCH_RUNLOOP_SECONDS ?? 300) * 1000;
const MIN_ROUNDS = Math.min(3, ROUNDS);
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

/** A figure client (lib/runloopClient.mjs) for `side`, driven over IPC: one request, one answer. */
async function startClient(side) {
  const child = fork(path.join(path.dirname(new URL(import.meta.url).pathname), 'lib', 'runloopClient.mjs'), [side], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = [];
  const waiting = [];
  let failure;
  child.on('message', (m) => (waiting.length ? waiting.shift().resolve(m) : replies.push(m)));
  child.on('exit', (code) => {
    failure = new Error(`the ${side} client process exited (code ${code})`);
    for (const w of waiting.splice(0)) w.reject(failure);
  });
  const next = () =>
    replies.length
      ? Promise.resolve(replies.shift())
      : failure
        ? Promise.reject(failure)
        : new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  const ready = await next();
  if (ready.missing) throw new Error(ready.missing);
  return {
    run: async (msg) => {
      child.send({ cmd: 'run', ...msg });
      const reply = await next();
      if (!reply.ok) throw new Error(`the ${side} loop failed: ${reply.error}`);
      return reply;
    },
    close: () => (child.connected ? child.disconnect() : undefined), // the client exits when disconnected
  };
}

async function runloop() {
  const mod = await loadPlanwise();
  if (mod.missing) return notMeasured(`${mod.missing}; the bare SDK baseline (lib/bareLoop.mjs) is ready`);
  const workspace = makeWorkspace(FILES);
  const server = await startScriptedServer();
  const clients = {};
  try {
    for (const side of SIDES) clients[side] = await startClient(side);
    /** One lockstep run of both sessions; `first` takes the first turn. */
    const once = async (turns, first) => {
      const urls = await server.lockstep({ turns, files: FILES, final: FINAL, first });
      const done = await Promise.all(SIDES.map((s) => clients[s].run({ baseURL: urls[s], workspace, task: TASK })));
      const stats = await server.lockstepStats();
      const out = {};
      SIDES.forEach((s, i) => {
        if (stats[s].requests !== turns + 1) {
          throw new Error(`the ${s} loop made ${stats[s].requests} requests, expected ${turns + 1}`);
        }
        out[s] = { ...stats[s], clientCpuMs: done[i].cpuMs, sessionMs: done[i].ms };
      });
      return out;
    };
    log(`runloop: warm-up (${WARMUP_TURNS} turns each, in lockstep)`);
    await once(WARMUP_TURNS, 'bare');

    const runs = [];
    const started = Date.now();
    const loadBefore = os.loadavg()[0];
    for (let r = 0; r < ROUNDS; r++) {
      if (r >= MIN_ROUNDS && Date.now() - started > BUDGET_MS) {
        log(`runloop: stopping after ${r} rounds (past the ${BUDGET_MS / 1000} s budget for timed runs)`);
        break;
      }
      const first = r % 2 === 0 ? 'planwise' : 'bare';
      const run = await once(TURNS, first);
      run.first = first;
      run.ratio = run.planwise.busyMs / run.bare.busyMs;
      run.cpuRatio = run.planwise.clientCpuMs / run.bare.clientCpuMs;
      runs.push(run);
      log(
        `runloop: round ${r + 1}/${ROUNDS} (${first} first): Planwise ${formatMs(run.planwise.busyMs)} ` +
          `(CPU ${formatMs(run.planwise.clientCpuMs)}), bare ${formatMs(run.bare.busyMs)} ` +
          `(CPU ${formatMs(run.bare.clientCpuMs)}): ${run.ratio.toFixed(2)}x wall, ${run.cpuRatio.toFixed(2)}x CPU`,
      );
    }

    const ratios = runs.map((x) => x.ratio);
    const cpuRatios = runs.map((x) => x.cpuRatio);
    const ratio = median(ratios);
    const cpuRatio = median(cpuRatios);
    const med = (side, key) => median(runs.map((x) => x[side][key]));
    const sameRequests = runs.every(
      (x) => x.planwise.requestDigest === x.bare.requestDigest && x.planwise.requestBytes === x.bare.requestBytes,
    );
    const span = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}x`;
    const value =
      `${ratio.toFixed(2)}x wall, ${cpuRatio.toFixed(2)}x client CPU (medians of ${runs.length} lockstep rounds; ` +
      `per round ${span(ratios)} wall, ${span(cpuRatios)} CPU); ${(med('planwise', 'busyMs') / TURNS).toFixed(2)} vs ` +
      `${(med('bare', 'busyMs') / TURNS).toFixed(2)} ms/turn over ${TURNS} turns` +
      (sameRequests ? '; byte-identical requests' : '; requests NOT byte-identical (see results.json)');
    const side = (x) => ({
      busyMs: round(x.busyMs),
      clientCpuMs: round(x.clientCpuMs),
      requestBytes: x.requestBytes,
    });
    return measured(value, ratio <= GOAL_RATIO, {
      method:
        'both sessions in lockstep (one turn each in turn, each client in its own process); per round the ratio of ' +
        'busy times and of client CPU; medians over the rounds',
      turns: TURNS,
      rounds: runs.length,
      loadAverage1m: { before: round(loadBefore), after: round(os.loadavg()[0]) },
      goalRatio: GOAL_RATIO,
      ratio: round(ratio, 3),
      clientCpuRatio: round(cpuRatio, 3),
      roundRatios: ratios.map((x) => round(x, 3)),
      roundCpuRatios: cpuRatios.map((x) => round(x, 3)),
      sameRequests,
      requestDigests: { planwise: runs[0]?.planwise.requestDigest, bare: runs[0]?.bare.requestDigest },
      medianBusyMs: { planwise: round(med('planwise', 'busyMs')), bare: round(med('bare', 'busyMs')) },
      medianClientCpuMs: { planwise: round(med('planwise', 'clientCpuMs')), bare: round(med('bare', 'clientCpuMs')) },
      runs: runs.map((x) => ({ first: x.first, planwise: side(x.planwise), bare: side(x.bare) })),
    });
  } finally {
    for (const c of Object.values(clients)) c.close();
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
