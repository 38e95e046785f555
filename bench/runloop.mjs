// Figures: runloop overhead, and the share of requests whose prefix is byte-identical to the first.
//
// runloop: the scripted server (its own process) answers 1,000 requests with one read_file call
// each, then a final answer. The same script is run by (a) a bare loop on the `openai` SDK
// (lib/bareLoop.mjs) and (b) Planwise's runloop, `runTurn`, with the real guards, gate, tools and
// Node adapters (lib/planwiseLoop.mjs); both send the same system prompt and planning tool schemas.
// One warm-up round of 100 turns each, then ROUNDS measured rounds, the order alternating; the
// figure is median(Planwise) / median(bare). Planwise's budgets are raised so no guard stops a
// 1,000-call turn, but every guard still runs.
//
// prefix: a scripted two-turn planning session through `runTurn` with default budgets: listing,
// reading, searching, a shell command, parallel calls, six search misses that trigger the tool-free
// synthesis pass, then a follow-up turn. The server compares each request's serialised system
// message and tools array with the first request's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBareLoop } from './lib/bareLoop.mjs';
import { figureMain, log, measured, notMeasured } from './lib/figure.mjs';
import { loadPlanwise, runPlanwiseSession } from './lib/planwiseLoop.mjs';
import { startScriptedServer } from './lib/serverClient.mjs';
import { formatMs, median, round, timeMs } from './lib/stats.mjs';

export const GOAL_RATIO = 1.2;
const TURNS = Number(process.env.PLANWISE_BENCH_TURNS ?? 1000);
const ROUNDS = Number(process.env.PLANWISE_BENCH_ROUNDS ?? 5);
const WARMUP_TURNS = 100;
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

async function runloop() {
  const mod = await loadPlanwise();
  if (mod.missing) return notMeasured(`${mod.missing}; the bare SDK baseline (lib/bareLoop.mjs) is ready`);
  const workspace = makeWorkspace(TURNS);
  const server = await startScriptedServer();
  const tools = mod.planningToolSchemas();
  try {
    const once = async (side, turns) => {
      const baseURL = await server.start({ kind: 'toolLoop', turns, files: TURNS, final: FINAL });
      const cpuBefore = process.cpuUsage();
      const { ms } = await timeMs(() =>
        side === 'bare'
          ? runBareLoop({ workspace, baseURL, system: mod.PLANNING_SYSTEM_PROMPT, tools, userText: TASK })
          : runPlanwiseSession(mod, { workspace, baseURL, userTurns: [TASK], budgets: NO_STOP_BUDGETS }),
      );
      const cpu = process.cpuUsage(cpuBefore);
      const stats = await server.stats();
      stats.clientCpuMs = (cpu.user + cpu.system) / 1000;
      if (stats.requests !== turns + 1) {
        throw new Error(`the ${side} loop made ${stats.requests} requests, expected ${turns + 1}`);
      }
      return { ms, stats };
    };
    log(`runloop: warm-up (${WARMUP_TURNS} turns each)`);
    await once('bare', WARMUP_TURNS);
    await once('planwise', WARMUP_TURNS);
    const runs = { bare: [], planwise: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? ['bare', 'planwise'] : ['planwise', 'bare'];
      for (const side of order) {
        const { ms, stats } = await once(side, TURNS);
        runs[side].push({
          ms,
          clientCpuMs: stats.clientCpuMs,
          serverMs: stats.serverMs,
          requestBytes: stats.bodyBytes,
          prefixIdentical: `${stats.identical}/${stats.requests}`,
        });
        log(
          `runloop: round ${r + 1}/${ROUNDS} ${side}: ${formatMs(ms)} for ${TURNS} turns ` +
            `(client CPU ${formatMs(stats.clientCpuMs)}, server ${formatMs(stats.serverMs)})`,
        );
      }
    }
    const med = (side, key) => median(runs[side].map((x) => x[key]));
    const bare = med('bare', 'ms');
    const planwise = med('planwise', 'ms');
    const ratio = planwise / bare;
    const cpuRatio = med('planwise', 'clientCpuMs') / med('bare', 'clientCpuMs');
    const value =
      `${ratio.toFixed(2)}x (Planwise ${formatMs(planwise)} vs bare SDK loop ${formatMs(bare)} for ${TURNS} turns, ` +
      `${(planwise / TURNS).toFixed(2)} vs ${(bare / TURNS).toFixed(2)} ms/turn; client CPU ${cpuRatio.toFixed(2)}x)`;
    const summary = (side) => ({
      medianMs: round(med(side, 'ms')),
      medianClientCpuMs: round(med(side, 'clientCpuMs')),
      medianServerMs: round(med(side, 'serverMs')),
      requestBytes: runs[side][0]?.requestBytes,
      runs: runs[side].map((x) => ({
        ...x,
        ms: round(x.ms),
        clientCpuMs: round(x.clientCpuMs),
        serverMs: round(x.serverMs),
      })),
    });
    return measured(value, ratio <= GOAL_RATIO, {
      turns: TURNS,
      rounds: ROUNDS,
      goalRatio: GOAL_RATIO,
      ratio: round(ratio, 3),
      clientCpuRatio: round(cpuRatio, 3),
      bare: summary('bare'),
      planwise: summary('planwise'),
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
