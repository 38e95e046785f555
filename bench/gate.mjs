// Figure: read-only gate throughput (goal ≥ 100,000 commands/s).
//
// Method: src/core/gate/index.ts is bundled with esbuild's JS API (bench/lib/load.mjs; shell-quote
// stays an external package, as in the shipped bundle) and imported. Each command of
// bench/corpus/gate-commands.jsonl (JSON lines {"command": ...}, the `check-command --batch` input
// format: realistic inspection commands and chains, and the adversarial corpus of the gate tests)
// is checked against a trusted one-root workspace. After a warm-up, the whole corpus is checked
// over and over for about a second per round, 7 rounds. Two rates are reported: per wall-clock
// second, and per CPU second of this process (process.cpuUsage), which other load on a shared
// machine does not skew; the goal is judged on the median CPU-second rate. The allowed and the
// rejected commands are also timed on their own. Prints progress on stderr and one JSON record on
// stdout (bench/lib/figure.mjs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { figureMain, log, measured } from './lib/figure.mjs';
import { loadTs, repoRoot } from './lib/load.mjs';
import { formatCount, median } from './lib/stats.mjs';

export const GOAL = 100_000;
const ROUNDS = 7;
const ROUND_MS = 1000;

function loadCorpus() {
  const file = path.join(repoRoot, 'bench', 'corpus', 'gate-commands.jsonl');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l).command);
}

/** Checks `commands` over and over for about `ms`; commands per wall-clock and per CPU second. */
function round(check, commands, ms) {
  let done = 0;
  let allowed = 0;
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  const until = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < until) {
    for (const c of commands) if (check(c).allowed) allowed++;
    done += commands.length;
    now = process.hrtime.bigint();
  }
  const cpu = process.cpuUsage(cpu0);
  const wallSeconds = Number(now - start) / 1e9;
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return { wall: done / wallSeconds, cpu: done / cpuSeconds, allowed };
}

async function gate() {
  const { checkShellCommand } = await loadTs('gate', "export * from './src/core/gate/index';");
  const ctx = { roots: [path.resolve('/ws/project')], trusted: true, home: path.resolve('/home/dev') };
  const check = (c) => checkShellCommand(c, ctx);
  const corpus = loadCorpus();
  const allowedSet = corpus.filter((c) => check(c).allowed);
  const rejectedSet = corpus.filter((c) => !check(c).allowed);
  round(check, corpus, 1500); // warm-up: let the JIT settle
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    rounds.push(round(check, corpus, ROUND_MS));
    log(`round ${r + 1}: ${formatCount(rounds[r].wall)} commands/s (${formatCount(rounds[r].cpu)} per CPU second)`);
  }
  const wall = median(rounds.map((r) => r.wall));
  const cpu = median(rounds.map((r) => r.cpu));
  const onlyAllowed = round(check, allowedSet, ROUND_MS).cpu;
  const onlyRejected = round(check, rejectedSet, ROUND_MS).cpu;
  const summary =
    `${formatCount(cpu)} commands per CPU second (${formatCount(wall)} commands/s wall clock) over ` +
    `${corpus.length} commands; allowed only ${formatCount(onlyAllowed)}/s, rejected only ${formatCount(onlyRejected)}/s`;
  log(summary);
  return measured(summary, cpu >= GOAL, {
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
