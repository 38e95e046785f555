// Figure: CLI cold start against its floor, bare Node (`node -e 0`), in the same run.
//
// Method: the CLI is built as shipped (`node esbuild.mjs --production`) in a staging folder, so the
// checkout's dist/ is left alone. Three commands then run as whole processes, exactly as a person
// types them (no preload: a `--require` would make `node -e 0` start the CommonJS loader and load a
// file, which raised the floor by about a fifth and hid part of the CLI's cost), interleaved round
// by round (node -e 0, planwise --version, planwise check-command -- ls, in a rotating order): the
// wall time from spawn to exit, read by this process's monotonic clock. Each round gives a ratio
// per command (its time / the bare Node time of the same round); the figure is the median of those
// ratios, with the median times. The warm-up rounds also fill Node's compile cache, where the
// running Node has one (a temporary NODE_COMPILE_CACHE folder). CPU time is shown beside it:
// the kernel adds each reaped child's user + system time to this process's cutime/cstime
// (/proc/self/stat, in clock ticks), so the sum over a command's runs divided by their number is
// its mean CPU time, to a tick over all rounds (Linux only; elsewhere the column is left out). Load
// on a shared machine stretches wall time more than CPU time. Goal: ≤ 1.25× (wall) for both.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { argValue, figureMain, log, measured, notMeasured } from './lib/figure.mjs';
import { repoRoot } from './lib/load.mjs';
import { stagedProductionBuild } from './lib/stage.mjs';
import { median, medianInterval, round } from './lib/stats.mjs';

const loadAverage = () => os.loadavg().map((n) => round(n));

export const CLI_GOAL_RATIO = 1.25;

// 101 rounds (about 15 s): with 31, the median ratio of the same code moved between 1.08 and 1.16
// from one run to the next on this 2-core machine, as wide as the goal's margin.
const ROUNDS = Number(process.env.PLANWISE_BENCH_CLI_ROUNDS ?? argValue('rounds') ?? 101);
const WARMUP = 3;
/** Clock ticks per second of /proc's times: USER_HZ, 100 on every Linux that Node runs on. */
const USER_HZ = 100;

/** CPU ticks (user + system) of this process's reaped children so far, or undefined off Linux. */
function childTicks() {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime are fields 16 and 17 of the whole line, so 13 and 14 after the name.
    return Number(f[13]) + Number(f[14]);
  } catch {
    return undefined;
  }
}

/** Wall milliseconds of one whole process, its output read and dropped, and the CPU ticks it used. */
function timeProcess(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const ticksBefore = childTicks();
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const ticksAfter = childTicks();
      const ticks = ticksBefore === undefined || ticksAfter === undefined ? NaN : ticksAfter - ticksBefore;
      resolve({ ms, ticks, code, out });
    });
  });
}

async function cli() {
  let stage;
  try {
    stage = stagedProductionBuild('planwise-bench-cli-');
  } catch (err) {
    return notMeasured(err.message);
  }
  const cache = mkdtempSync(path.join(os.tmpdir(), 'planwise-bench-cli-cache-'));
  try {
    const cliJs = path.join(stage, 'dist', 'cli.cjs');
    const env = { PATH: process.env.PATH ?? '', HOME: os.homedir(), NODE_COMPILE_CACHE: cache };
    const commands = {
      node: ['-e', '0'],
      version: [cliJs, '--version'],
      checkCommand: [cliJs, 'check-command', '--', 'ls'],
    };
    const names = Object.keys(commands);
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    const ticks = Object.fromEntries(names.map((n) => [n, 0]));
    const load = [loadAverage()];
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const times = {};
      const used = {};
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + i) % names.length];
        const r = await timeProcess(commands[name], env, repoRoot);
        if (r.code !== 0) return notMeasured(`${name} exited ${r.code}`);
        times[name] = r.ms;
        used[name] = r.ticks;
      }
      if (round >= WARMUP) {
        for (const n of names) {
          samples[n].push(times[n]);
          ticks[n] += used[n];
        }
      }
    }
    load.push(loadAverage());
    const ratios = (n) => samples[n].map((ms, i) => ms / samples.node[i]);
    const meanCpuMs = (n) => (ticks[n] * 1000) / USER_HZ / ROUNDS;
    const fig = (n) => ({
      medianMs: round(median(samples[n]), 1),
      ratio: round(median(ratios(n)), 2),
      ratioInterval: medianInterval(ratios(n)).map((r) => round(r, 2)),
      ratioRange: [round(Math.min(...ratios(n)), 2), round(Math.max(...ratios(n)), 2)],
      ...(Number.isFinite(ticks[n])
        ? { meanCpuMs: round(meanCpuMs(n), 1), cpuRatio: round(meanCpuMs(n) / meanCpuMs('node'), 2) }
        : {}),
    });
    const version = fig('version');
    const checkCommand = fig('checkCommand');
    const nodeMs = round(median(samples.node), 1);
    log(`cli: node -e 0 ${nodeMs} ms; --version ${version.medianMs} ms; check-command ${checkCommand.medianMs} ms`);
    const cpu = (f) => (f.cpuRatio === undefined ? '' : `, ${f.cpuRatio.toFixed(2)}x mean CPU`);
    // The median's 95% interval, so a verdict decided by the run's noise says so.
    const within = (f) => f.ratioInterval[0] <= CLI_GOAL_RATIO && f.ratioInterval[1] > CLI_GOAL_RATIO;
    const wall = (f) =>
      `${f.ratio.toFixed(2)}x wall (95% ${f.ratioInterval[0].toFixed(2)}-${f.ratioInterval[1].toFixed(2)}` +
      `${within(f) ? ', the goal within it' : ''})`;
    const value =
      `--version ${wall(version)}${cpu(version)} (${version.medianMs} vs ${nodeMs} ms); ` +
      `check-command -- ls ${wall(checkCommand)}${cpu(checkCommand)} (${checkCommand.medianMs} ms); ` +
      `medians of ${ROUNDS} interleaved rounds without a preload, Node ${process.versions.node} `;
    const met = version.ratio <= CLI_GOAL_RATIO && checkCommand.ratio <= CLI_GOAL_RATIO;
    return measured(value, met, {
      goalRatio: CLI_GOAL_RATIO,
      floor: 'node -e 0',
      nodeMs,
      version,
      checkCommand,
      samples,
      ...(Number.isFinite(ticks.node)
        ? { meanCpuMs: Object.fromEntries(names.map((n) => [n, round(meanCpuMs(n), 2)])) }
        : {}),
      loadAverage: load,
    });
  } finally {
    rmSync(cache, { recursive: true, force: true });
    rmSync(stage, { recursive: true, force: true });
  }
}

await figureMain({ cli });
