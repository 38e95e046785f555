// Figure: CLI cold start against its floor, bare Node (`node -e 0`), in the same run.
//
// Method: the CLI is built as shipped (`node esbuild.mjs --production`) in a staging folder, so the
// checkout's dist/ is left alone. Three commands then run as whole processes, interleaved round by
// round (node -e 0, planwise --version, planwise check-command -- ls, in a rotating order): the wall
// time from spawn to exit, read by this process's monotonic clock. Each round gives a ratio per
// command (its time / the bare Node time of the same round); the figure is the median of those
// ratios, with the median times. The warm-up rounds also fill the V8 code cache (a temporary
// XDG_CACHE_HOME), as a second run on a user's machine would find it. CPU time (user + system, as
// each process reports it at exit through the same preload) is shown beside it: load on a shared
// machine stretches wall time more than CPU time. Goal: ≤ 1.1× (wall) for both.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { argValue, figureMain, log, measured, notMeasured } from './lib/figure.mjs';
import { repoRoot } from './lib/load.mjs';
import { stagedProductionBuild } from './lib/stage.mjs';
import { median, round } from './lib/stats.mjs';

const loadAverage = () => os.loadavg().map((n) => round(n));

export const CLI_GOAL_RATIO = 1.1;

const ROUNDS = Number(process.env.PLANWISE_BENCH_CLI_ROUNDS ?? argValue('rounds') ?? 21);
const WARMUP = 3;

/**
 * Wall milliseconds of one whole process, its output read and dropped, and its CPU milliseconds
 * (user + system, from start to exit) as the process itself reports them at exit: a preload,
 * the same for every command, writes `process.cpuUsage()` on stderr.
 */
function timeProcess(args, env, cwd, preload) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--require', preload, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const cpu = /PLANWISE_CPU_US (\d+)/.exec(err);
      resolve({ ms, cpuMs: cpu ? Number(cpu[1]) / 1000 : NaN, code, out });
    });
  });
}

const CPU_PRELOAD = `process.on('exit', () => {
  const u = process.cpuUsage();
  process.stderr.write('\\nPLANWISE_CPU_US ' + (u.user + u.system) + '\\n');
});
`;

async function cli() {
  let stage;
  try {
    stage = stagedProductionBuild('planwise-bench-cli-');
  } catch (err) {
    return notMeasured(err.message);
  }
  const cache = mkdtempSync(path.join(os.tmpdir(), 'planwise-bench-cli-cache-'));
  const preload = path.join(cache, 'cpu.cjs');
  writeFileSync(preload, CPU_PRELOAD);
  try {
    const cliJs = path.join(stage, 'dist', 'cli.js');
    const env = { PATH: process.env.PATH ?? '', HOME: os.homedir(), XDG_CACHE_HOME: cache };
    const commands = {
      node: ['-e', '0'],
      version: [cliJs, '--version'],
      checkCommand: [cliJs, 'check-command', '--', 'ls'],
    };
    const names = Object.keys(commands);
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    const cpuSamples = Object.fromEntries(names.map((n) => [n, []]));
    const load = [loadAverage()];
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const times = {};
      const cpus = {};
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + i) % names.length];
        const r = await timeProcess(commands[name], env, repoRoot, preload);
        if (r.code !== 0) return notMeasured(`${name} exited ${r.code}`);
        times[name] = r.ms;
        cpus[name] = r.cpuMs;
      }
      if (round >= WARMUP) {
        for (const n of names) {
          samples[n].push(times[n]);
          cpuSamples[n].push(cpus[n]);
        }
      }
    }
    load.push(loadAverage());
    const ratios = (n, s = samples) => s[n].map((ms, i) => ms / s.node[i]);
    const fig = (n) => ({
      medianMs: round(median(samples[n]), 1),
      ratio: round(median(ratios(n)), 2),
      ratioRange: [round(Math.min(...ratios(n)), 2), round(Math.max(...ratios(n)), 2)],
      cpuMs: round(median(cpuSamples[n]), 1),
      cpuRatio: round(median(ratios(n, cpuSamples)), 2),
    });
    const version = fig('version');
    const checkCommand = fig('checkCommand');
    const nodeMs = round(median(samples.node), 1);
    log(`cli: node -e 0 ${nodeMs} ms; --version ${version.medianMs} ms; check-command ${checkCommand.medianMs} ms`);
    const value =
      `--version ${version.ratio.toFixed(2)}x bare Node wall, ${version.cpuRatio.toFixed(2)}x CPU (${version.medianMs} vs ${nodeMs} ms); ` +
      `check-command -- ls ${checkCommand.ratio.toFixed(2)}x wall, ${checkCommand.cpuRatio.toFixed(2)}x CPU (${checkCommand.medianMs} ms); ` +
      `medians of ${ROUNDS} interleaved rounds, Node ${process.versions.node} (V8 code cache)`;
    const met = version.ratio <= CLI_GOAL_RATIO && checkCommand.ratio <= CLI_GOAL_RATIO;
    return measured(value, met, {
      goalRatio: CLI_GOAL_RATIO,
      floor: 'node -e 0',
      nodeMs,
      version,
      checkCommand,
      samples,
      cpuSamples,
      loadAverage: load,
    });
  } finally {
    rmSync(cache, { recursive: true, force: true });
    rmSync(stage, { recursive: true, force: true });
  }
}

await figureMain({ cli });
