// Figure: planning in a generated 100,000-file workspace, each part against its floor where one exists.
//
// Method: the tree comes from lib/tree.mjs with 100,000 files (100 packages x 10 modules x 100
// files, ~180 MB, deterministic content, generated once into the OS temp folder). Timed parts, each
// interleaved with its floor, one warm-up round then ROUNDS rounds, medians and the ratio of medians:
// - `list_files` of the root through the project's `runTool` (the Node workspace reader, ignore
//   rules, the 200-entry cap and the left-out count) against a bare breadth-first `readdir` walk in
//   this process that sorts each folder and stops where the tool stops (the same folders read);
//   raw `rg --files` (every path of the tree) is shown beside it.
// - `code_search` through `runTool` (RipgrepSearcher) against raw `rg --json <pattern> .` read to
//   the end, for a pattern with 200 matches and one with none.
// - the read-only gate (`judgeCommand` through the Node adapter) on two glob commands, against
//   bash expanding the same words in the same folder (timed inside bash with its `time` keyword,
//   so no process start is counted): `ls pkg*/mod1/file1.ts` (100 matches, one in each package:
//   allowed) and `wc -l pkg*/mod*/*.ts` (100,000 paths: past the gate's 2,000-entry glob budget,
//   so refused as soon as the budget runs out).
// - host memory: a non-interactive planning session (createSession, the Node adapters, the real
//   SDK) against the scripted server in a process of its own, which asks for 200 tool calls in
//   turn (read_file of distinct files, list_files of distinct folders, code_search): heapUsed after
//   a forced GC before the session and after its 200 calls, with the session still held, shown
//   against the thread the session must keep (the bytes of its last request). No floor: reported.
import { spawn, spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { figureMain, log, measured, notMeasured } from './lib/figure.mjs';
import { loadTs } from './lib/load.mjs';
import { loadPlanwise, runPlanwiseSession } from './lib/planwiseLoop.mjs';
import { startScriptedServer } from './lib/serverClient.mjs';
import { formatBytes, formatMs, median, round, timeMs } from './lib/stats.mjs';
import { NO_MATCH_PATTERN, RARE_EVERY, RARE_PATTERN, filePath, ensureTree } from './lib/tree.mjs';

const FILES = 100_000;
const ROUNDS = Number(process.env.PLANWISE_BENCH_ROUNDS ?? 7);
const TOOL_CALLS = 200;
const GOAL_RATIO = 1.2;

const ENTRY = `
  export { NodeWorkspaceReader } from './src/node/fsWorkspace';
  export { findRipgrep, RipgrepSearcher } from './src/node/ripgrepSearcher';
  export { codeSearchTool, listFilesTool, runTool } from './src/core/tools/index';
  export { judgeCommand } from './src/core/gate/index';
  export { Spool } from './src/core/spool';`;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

function runRg(rg, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || code === 1 ? resolve(bytes) : reject(new Error(`rg exited ${code}`))));
  });
}

/**
 * The least a listing with list_files' answer must do: read folders breadth-first, each sorted,
 * until 200 entries are shown and 20,000 more counted (list_files' cap and count budget).
 */
async function bareListing(root, shown = 200, countBudget = 20_000) {
  const queue = [root];
  let listed = 0;
  let counted = 0;
  for (let q = 0; q < queue.length; q++) {
    if (listed >= shown && counted >= countBudget) break;
    const entries = await readdir(queue[q], { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (listed < shown) listed++;
      else counted++;
      if (e.isDirectory() && counted < countBudget) queue.push(path.join(queue[q], e.name));
    }
  }
  return listed + counted;
}

/** Interleaves `sides` (name -> async fn) for one warm-up and ROUNDS rounds; medians in ms. */
async function interleave(sides) {
  const samples = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (let r = 0; r <= ROUNDS; r++) {
    const order = Object.keys(sides);
    if (r % 2 === 1) order.reverse();
    for (const k of order) {
      const { ms } = await timeMs(sides[k]);
      if (r > 0) samples[k].push(ms);
    }
  }
  const medians = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  return { medians, samples: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map((x) => round(x))])) };
}

/** bash's own time for expanding `glob` into an array in `cwd`, in ms (its `time` keyword, 1 ms resolution). */
function bashExpand(glob, cwd) {
  const r = spawnSync('bash', ['-c', `TIMEFORMAT=%3R; time { a=(${glob}); }; echo "\${#a[@]}" >&2`], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C' },
  });
  const [seconds, count] = r.stderr.trim().split('\n');
  return { ms: Number(seconds) * 1000, count: Number(count) };
}

async function listPart(mod, ctx, tree, rg) {
  const tool = () => mod.runTool(mod.listFilesTool, JSON.stringify({ path: '.' }), ctx);
  const first = await tool();
  const { medians, samples } = await interleave({
    tool,
    bare: () => bareListing(tree),
    rgFiles: () => runRg(rg, ['--files', '.'], tree),
  });
  const ratio = medians.tool / medians.bare;
  log(
    `scale list_files: ${formatMs(medians.tool)} vs bare readdir walk ${formatMs(medians.bare)} (${ratio.toFixed(2)}x); rg --files ${formatMs(medians.rgFiles)}`,
  );
  return {
    firstLine: first.content.split('\n').slice(-1)[0],
    medianMs: { tool: round(medians.tool), bare: round(medians.bare), rgFiles: round(medians.rgFiles) },
    ratio: round(ratio, 3),
    samplesMs: samples,
  };
}

async function searchPart(mod, ctx, tree, rg, pattern, expected) {
  const tool = () => mod.runTool(mod.codeSearchTool, JSON.stringify({ pattern }), ctx);
  const result = await tool();
  const found = Number(/^(\d+)\+? matches/.exec(result.content)?.[1] ?? 0);
  if (found !== expected) throw new Error(`code_search /${pattern}/ found ${found} matches, expected ${expected}`);
  const { medians, samples } = await interleave({ tool, raw: () => runRg(rg, ['--json', pattern, '.'], tree) });
  const ratio = medians.tool / medians.raw;
  log(
    `scale code_search /${pattern}/: ${formatMs(medians.tool)} vs raw rg ${formatMs(medians.raw)} (${ratio.toFixed(2)}x)`,
  );
  return {
    pattern,
    matches: expected,
    medianMs: { tool: round(medians.tool), raw: round(medians.raw) },
    ratio: round(ratio, 3),
    samplesMs: samples,
  };
}

async function gatePart(mod, tree, command, glob) {
  const ctx = { roots: [tree], trusted: true, home: tree, fs: new mod.NodeWorkspaceReader([tree]) };
  const judge = () => mod.judgeCommand(command, ctx);
  const verdict = (await judge()).verdict;
  const gateMs = [];
  const bashMs = [];
  let count = 0;
  for (let r = 0; r <= ROUNDS; r++) {
    const g = (await timeMs(judge)).ms;
    const b = bashExpand(glob, tree);
    count = b.count;
    if (r === 0) continue;
    gateMs.push(g);
    bashMs.push(b.ms);
  }
  const m = { gate: median(gateMs), bash: Math.max(1, median(bashMs)) };
  const ratio = m.gate / m.bash;
  log(
    `scale gate \`${command}\`: ${verdict.allowed ? 'allowed' : `refused (${verdict.reason})`} in ${formatMs(m.gate)} vs bash expanding ${count} words ${formatMs(m.bash)} (${ratio.toFixed(2)}x)`,
  );
  return {
    command,
    allowed: verdict.allowed,
    reason: verdict.allowed ? undefined : verdict.reason,
    bashWords: count,
    medianMs: { gate: round(m.gate), bash: round(m.bash) },
    ratio: round(ratio, 3),
    samplesMs: { gate: gateMs.map((x) => round(x)), bash: bashMs.map((x) => round(x)) },
  };
}

const FINAL = `<proposed_plan>
# Scale
## Summary
Read the packages.
## Implementation Steps
1. Read -> files: [pkg0/mod0/file0.ts] -> verify: [npm test]
## Test Cases and Validation
- tests: npm test
## Assumptions and Defaults
- none
</proposed_plan>`;

/** 200 tool calls over the tree: read_file of distinct files, list_files of distinct folders, code_search. */
function toolCalls() {
  const calls = [];
  for (let k = 0; k < TOOL_CALLS; k++) {
    if (k % 10 === 9) calls.push({ name: 'code_search', args: { pattern: `planwiseNeedle_${k * RARE_EVERY}\\b` } });
    else if (k % 5 === 4) calls.push({ name: 'list_files', args: { path: `pkg${k % 100}/mod${(k >> 2) % 10}` } });
    else
      calls.push({
        name: 'read_file',
        args: {
          path: filePath(k * 497)
            .split(path.sep)
            .join('/'),
        },
      });
  }
  return calls;
}

async function memoryPart(tree) {
  const mod = await loadPlanwise();
  if (mod.missing) return { missing: mod.missing };
  const server = await startScriptedServer();
  try {
    const baseURL = await server.start({ kind: 'calls', calls: toolCalls(), final: FINAL });
    gc();
    const before = process.memoryUsage();
    let held;
    const raised = 1_000_000;
    const budgets = {
      toolCallsPerTurn: raised,
      loopsPerTurn: raised,
      sessionToolCalls: raised,
      previewTurnBytes: { plan: raised * 1000 },
      lowSignal: { consecutive: raised, total: raised },
    };
    const { ms } = await timeMs(async () => {
      held = await runPlanwiseSession(mod, { workspace: tree, baseURL, userTurns: ['Read the packages.'], budgets });
    });
    gc();
    const after = process.memoryUsage();
    const stats = await server.stats();
    const growth = after.heapUsed - before.heapUsed;
    log(
      `scale memory: heap ${formatBytes(before.heapUsed)} -> ${formatBytes(after.heapUsed)} (+${formatBytes(growth)}) after ${stats.requests - 1} tool calls in ${formatMs(ms)}; last request ${formatBytes(stats.lastBodyBytes)}`,
    );
    return {
      toolCalls: stats.requests - 1,
      events: held.events,
      sessionMs: round(ms),
      heapBefore: before.heapUsed,
      heapAfter: after.heapUsed,
      heapGrowth: growth,
      rssAfter: after.rss,
      lastRequestBytes: stats.lastBodyBytes,
      growthToThread: round(growth / stats.lastBodyBytes, 2),
    };
  } finally {
    await server.close();
  }
}

async function scale() {
  const mod = await loadTs('scale', ENTRY);
  const rg = mod.findRipgrep();
  if (!rg) return notMeasured('ripgrep (rg) is not on PATH');
  const tree = ensureTree(log, FILES);
  const reader = new mod.NodeWorkspaceReader([tree]);
  const ctx = {
    reader,
    searcher: new mod.RipgrepSearcher(rg, reader),
    trusted: true,
    previewLimitBytes: 8 * 1024,
    spool: new mod.Spool(),
  };
  const list = await listPart(mod, ctx, tree, rg);
  const rare = await searchPart(mod, ctx, tree, rg, RARE_PATTERN, FILES / RARE_EVERY);
  const none = await searchPart(mod, ctx, tree, rg, NO_MATCH_PATTERN, 0);
  const globs = [
    await gatePart(mod, tree, 'ls pkg*/mod1/file1.ts', 'pkg*/mod1/file1.ts'),
    await gatePart(mod, tree, 'wc -l pkg*/mod*/*.ts', 'pkg*/mod*/*.ts'),
  ];
  const memory = await memoryPart(tree);
  const mem = memory.missing
    ? `host memory not measured: ${memory.missing}`
    : `host heap +${formatBytes(memory.heapGrowth)} after ${memory.toolCalls} tool calls (${memory.growthToThread}x the ${formatBytes(memory.lastRequestBytes)} thread it holds; no floor)`;
  const value =
    `list_files ${list.ratio.toFixed(2)}x a bare readdir walk (${formatMs(list.medianMs.tool)} vs ${formatMs(list.medianMs.bare)}; rg --files ${formatMs(list.medianMs.rgFiles)}); ` +
    `code_search ${rare.ratio.toFixed(2)}x raw rg with ${rare.matches} matches (${formatMs(rare.medianMs.tool)} vs ${formatMs(rare.medianMs.raw)}), ${none.ratio.toFixed(2)}x with none; ` +
    globs
      .map(
        (g) =>
          `gate \`${g.command}\` ${g.allowed ? 'allowed' : 'refused'} in ${formatMs(g.medianMs.gate)} (${g.ratio.toFixed(2)}x bash expanding ${g.bashWords.toLocaleString('en-US')} words, ${formatMs(g.medianMs.bash)})`,
      )
      .join(', ') +
    `; ${mem}`;
  // Met: the searches within GOAL_RATIO of raw rg, and the listing within GOAL_RATIO of the bare walk.
  const met = list.ratio <= GOAL_RATIO && rare.ratio <= GOAL_RATIO && none.ratio <= GOAL_RATIO;
  return measured(value, met, { files: FILES, rounds: ROUNDS, goalRatio: GOAL_RATIO, list, rare, none, globs, memory });
}

await figureMain({ scale });
