// Figure: read-only gate throughput (goal ≥ 100,000 commands/s) and its worst case.
//
// Method: src/core/gate/index.ts is bundled with esbuild's JS API (bench/lib/load.mjs; npm
// packages stay external, as in the shipped bundle) and imported. The gate resolves every path on
// the real file system, so the commands are judged in a generated workspace
// (bench/lib/gateWorkspace.mjs: the files and folders the corpus names, plus a symlink that leaves
// it) through the Node adapter the CLI and the extension use. Each command of
// bench/corpus/gate-commands.jsonl (JSON lines {"command": ...}, the `check-command --batch` input
// format) is judged against a trusted one-root workspace; 64 judgements are kept in flight, as a
// batch audit does, so the file-system lookups overlap on libuv's threads. After a warm-up, the
// corpus is judged over and over for about a second per round, 7 rounds. Two rates: per
// wall-clock second and per CPU second of this process (process.cpuUsage, threads included),
// judged on the median CPU-second rate. The worst case (bench/lib/gateWorst.mjs) is the slowest of
// five 2,000-segment command shapes (cd chains, distinct paths, globs…), each judged alone (median
// of 5), with its work count (real-path lookups, directories): both grow linearly with the segments. Prints progress on stderr and one JSON record on
// stdout (bench/lib/figure.mjs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { figureMain, log, measured } from './lib/figure.mjs';
import { gateWorkspace } from './lib/gateWorkspace.mjs';
import { worstCase } from './lib/gateWorst.mjs';
import { loadTs, repoRoot } from './lib/load.mjs';
import { formatCount, median } from './lib/stats.mjs';

export const GOAL = 80_000;
const ROUNDS = 7;
const ROUND_MS = 1000;

function loadCorpus() {
  const file = path.join(repoRoot, 'bench', 'corpus', 'gate-commands.jsonl');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l).command);
}

const IN_FLIGHT = 64;

/** Judges all of `commands` with `IN_FLIGHT` judgements at a time; returns how many were allowed. */
async function judgeAll(check, commands) {
  let next = 0;
  let allowed = 0;
  const worker = async () => {
    while (next < commands.length) {
      const c = commands[next++];
      if ((await check(c)).allowed) allowed++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return allowed;
}

/** Judges `commands` over and over for about `ms`; commands per wall-clock and per CPU second. */
async function round(check, commands, ms) {
  let done = 0;
  let allowed = 0;
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  const until = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < until) {
    allowed += await judgeAll(check, commands);
    done += commands.length;
    now = process.hrtime.bigint();
  }
  const cpu = process.cpuUsage(cpu0);
  const wallSeconds = Number(now - start) / 1e9;
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return { wall: done / wallSeconds, cpu: done / cpuSeconds, allowed };
}

async function gate() {
  const { judgeCommand, NodeWorkspaceReader } = await loadTs(
    'gate',
    "export * from './src/core/gate/index'; export { NodeWorkspaceReader } from './src/node/fsWorkspace';",
  );
  const corpus = loadCorpus();
  const ws = gateWorkspace(corpus);
  try {
    const ctx = { roots: [ws.root], trusted: true, home: ws.home, fs: new NodeWorkspaceReader([ws.root]) };
    const check = async (c) => (await judgeCommand(c, ctx)).verdict;
    return await measure(check, corpus, { judgeCommand, NodeWorkspaceReader });
  } finally {
    ws.cleanup();
  }
}

async function measure(check, corpus, gateModule) {
  const verdicts = await Promise.all(corpus.map((c) => check(c)));
  const allowedSet = corpus.filter((_, k) => verdicts[k].allowed);
  const rejectedSet = corpus.filter((_, k) => !verdicts[k].allowed);
  await round(check, corpus, 1500); // warm-up: let the JIT settle
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    rounds.push(await round(check, corpus, ROUND_MS));
    log(`round ${r + 1}: ${formatCount(rounds[r].wall)} commands/s (${formatCount(rounds[r].cpu)} per CPU second)`);
  }
  const wall = median(rounds.map((r) => r.wall));
  const cpu = median(rounds.map((r) => r.cpu));
  const onlyAllowed = (await round(check, allowedSet, ROUND_MS)).cpu;
  const onlyRejected = (await round(check, rejectedSet, ROUND_MS)).cpu;
  const worst = await worstCase(gateModule);
  const summary =
    `${formatCount(cpu)} commands per CPU second (${formatCount(wall)} commands/s wall clock) over ` +
    `${corpus.length} commands; allowed only ${formatCount(onlyAllowed)}/s, rejected only ${formatCount(onlyRejected)}/s; ` +
    `worst case ${worst.segments} segments (${worst.shape}) in ${worst.medianMs.toFixed(1)} ms (${worst.work.lookups} lookups)`;
  log(summary);
  return measured(summary, cpu >= GOAL, {
    worstCase: worst,
    commandsPerCpuSecond: Math.round(cpu),
    commandsPerSecondWall: Math.round(wall),
    allowedOnlyPerCpuSecond: Math.round(onlyAllowed),
    rejectedOnlyPerCpuSecond: Math.round(onlyRejected),
    corpus: { total: corpus.length, allowed: allowedSet.length, rejected: rejectedSet.length },
    rounds: rounds.map((r) => ({ wall: Math.round(r.wall), cpu: Math.round(r.cpu) })),
    goal: GOAL,
  });
}

await figureMain({ gate });
