// Figure: `code_search` against raw ripgrep on a generated tree of 50,000 files.
//
// Method: the tree comes from lib/tree.mjs (deterministic content, cached in the OS temp folder).
// Each round times, in turn: (a) raw `rg --json <pattern> .` with ripgrep's defaults, its output
// read to the end; (b) `rg` with exactly the arguments the project's RipgrepSearcher passes (captured
// from its own spawn call), output read to the end; (c) the `code_search` tool run through the
// project's `runTool` with the Node workspace reader, RipgrepSearcher and a spool, as the agent
// runs it. One warm-up round, then ROUNDS measured rounds; the figure is median(c) / median(a).
// Two patterns: a rare one (100 matches, under the tool's 300-match cap, so both sides scan the
// whole tree and report every match) and one that matches nothing.
import childProcess, { spawn } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { figureMain, log, measured, notMeasured } from './lib/figure.mjs';
import { loadTs } from './lib/load.mjs';
import { median, round, timeMs, formatMs } from './lib/stats.mjs';
import { NO_MATCH_PATTERN, RARE_EVERY, RARE_PATTERN, TREE_FILES, ensureTree } from './lib/tree.mjs';

export const GOAL_RATIO = 1.2;
const ROUNDS = Number(process.env.PLANWISE_BENCH_ROUNDS ?? 9);

const ENTRY = `
  export { NodeWorkspaceReader } from './src/node/fsWorkspace';
  export { findRipgrep, RipgrepSearcher } from './src/node/ripgrepSearcher';
  export { codeSearchTool, runTool } from './src/core/tools/index';
  export { Spool } from './src/core/spool';`;

/** Runs `rg` and reads its whole output, as any consumer must; resolves with the byte count. */
function runRg(rg, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || code === 1 ? resolve(bytes) : reject(new Error(`rg exited ${code}`))));
  });
}

/** Counts match events in `rg --json` output for the sanity check. */
function countMatches(rg, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(text.split('\n').filter((l) => l.startsWith('{"type":"match"')).length));
  });
}

/** Calls `fn` while recording the arguments of every `spawn` made through node:child_process. */
async function captureSpawns(fn) {
  const original = childProcess.spawn;
  const calls = [];
  childProcess.spawn = (cmd, args, options) => {
    calls.push({ cmd, args: [...(args ?? [])], cwd: options?.cwd });
    return original(cmd, args, options);
  };
  syncBuiltinESMExports();
  try {
    await fn();
  } finally {
    childProcess.spawn = original;
    syncBuiltinESMExports();
  }
  return calls;
}

async function measurePattern(mod, ctx, tree, rg, pattern) {
  const runTool = () => mod.runTool(mod.codeSearchTool, JSON.stringify({ pattern }), ctx);
  let toolResult;
  const calls = await captureSpawns(async () => (toolResult = await runTool()));
  const own = calls.find((c) => c.args.includes('--json'));
  if (!own) throw new Error('the code_search tool did not spawn rg --json (is the JavaScript fallback in use?)');
  const rawArgs = ['--json', pattern, '.'];
  const expected = pattern === RARE_PATTERN ? TREE_FILES / RARE_EVERY : 0;
  const rawMatches = await countMatches(rg, rawArgs, tree);
  const toolMatches = Number(/^(\d+)\+? matches/.exec(toolResult.content)?.[1] ?? 0);
  if (rawMatches !== expected || toolMatches !== expected) {
    throw new Error(
      `pattern /${pattern}/: expected ${expected} matches, raw rg found ${rawMatches}, code_search ${toolMatches}`,
    );
  }

  const samples = { raw: [], sameArgs: [], tool: [] };
  for (let round = 0; round <= ROUNDS; round++) {
    const raw = (await timeMs(() => runRg(rg, rawArgs, tree))).ms;
    const same = (await timeMs(() => runRg(own.cmd, own.args, own.cwd))).ms;
    const tool = (await timeMs(runTool)).ms;
    if (round === 0) continue; // warm-up: file cache, JIT
    samples.raw.push(raw);
    samples.sameArgs.push(same);
    samples.tool.push(tool);
  }
  const m = { raw: median(samples.raw), sameArgs: median(samples.sameArgs), tool: median(samples.tool) };
  const ratio = m.tool / m.raw;
  log(
    `codeSearch /${pattern}/: raw rg ${formatMs(m.raw)}, rg with the searcher's arguments ${formatMs(m.sameArgs)}, ` +
      `code_search ${formatMs(m.tool)} -> ${ratio.toFixed(2)}x`,
  );
  return {
    searcherArgs: own.args,
    pattern,
    matches: expected,
    medianMs: { raw: round(m.raw), sameArgs: round(m.sameArgs), tool: round(m.tool) },
    ratio: round(ratio, 3),
    ratioToSameArgs: round(m.tool / m.sameArgs, 3),
    samplesMs: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map((x) => round(x))])),
  };
}

async function codeSearch() {
  const mod = await loadTs('code-search', ENTRY);
  const rg = mod.findRipgrep();
  if (!rg) return notMeasured('ripgrep (rg) is not on PATH');
  const tree = ensureTree(log);
  const reader = new mod.NodeWorkspaceReader([tree]);
  const ctx = {
    reader,
    searcher: new mod.RipgrepSearcher(rg, reader),
    trusted: true,
    previewLimitBytes: 8 * 1024,
    spool: new mod.Spool(),
  };
  const rare = await measurePattern(mod, ctx, tree, rg, RARE_PATTERN);
  const none = await measurePattern(mod, ctx, tree, rg, NO_MATCH_PATTERN);
  const worst = Math.max(rare.ratio, none.ratio);
  const value =
    `${rare.ratio.toFixed(2)}x raw rg with ${rare.matches} matches (${formatMs(rare.medianMs.tool)} vs ${formatMs(rare.medianMs.raw)}); ` +
    `${none.ratio.toFixed(2)}x with no match (${formatMs(none.medianMs.tool)} vs ${formatMs(none.medianMs.raw)})`;
  const { searcherArgs, ...rareTimes } = rare;
  const { searcherArgs: _same, ...noneTimes } = none;
  return measured(value, worst <= GOAL_RATIO, {
    files: TREE_FILES,
    rounds: ROUNDS,
    goalRatio: GOAL_RATIO,
    searcherArgs,
    rare: rareTimes,
    none: noneTimes,
  });
}

await figureMain({ codeSearch });
