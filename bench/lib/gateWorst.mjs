// The read-only gate's worst case: wall time to judge one command of 2,000 segments (median of 5
// runs each), for several shapes that stress what used to explode (issue 12, class 10): a chain of
// `&& cd .`, nested `cd`s up and down a 16-deep tree, `cd`s mixed with `..` paths, 2,000 distinct
// paths in one pipeline, and 2,000 globs sharing the expansion budget. Each is judged alone, in a
// generated workspace on the real file system, through the gate bundled the way bench/gate.mjs
// bundles it (bench/lib/load.mjs: esbuild, npm packages external) and the Node file-system adapter
// the CLI and the extension use. The work count (real-path lookups, directories, glob steps) is
// reported with each time: both must grow linearly with the segments.
//
// `worstCase(gate?)` returns the slowest shape's figures at the top level (segments, chars, allowed,
// medianMs, maxMs, work) and every shape under `shapes`. Run alone, `node bench/lib/gateWorst.mjs`
// prints that record as one JSON line.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadTs } from './load.mjs';
import { median } from './stats.mjs';

export const SEGMENTS = 2000;
const RUNS = 5;
const DEPTH = 16;

/** A workspace with a 16-deep tree, `sub/`, 2,000 files and a glob folder; removed by `cleanup`. */
function makeWorkspace() {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'planwise-gate-worst-')));
  const root = path.join(base, 'ws');
  const deep = Array.from({ length: DEPTH }, (_, i) => `d${i}`);
  mkdirSync(path.join(root, ...deep), { recursive: true });
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  mkdirSync(path.join(root, 'files'), { recursive: true });
  mkdirSync(path.join(root, 'g'), { recursive: true });
  writeFileSync(path.join(root, 'a.txt'), 'a\n');
  writeFileSync(path.join(root, 'g', 'a1'), '');
  for (let i = 0; i < SEGMENTS; i++) writeFileSync(path.join(root, 'files', `f${i}`), '');
  mkdirSync(path.join(base, 'outside'));
  return { base, root, deep, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** `count` segments from repeating `block` (an array of segments) joined by `joiner`. */
function repeat(block, count, joiner) {
  const out = [];
  for (let k = 0; out.length < count; k++) out.push(block[k % block.length]);
  return out.join(joiner);
}

/** The shapes judged, each exactly SEGMENTS segments long. */
function shapes(ws) {
  const down = ws.deep.map((d) => `cd ${d}`);
  return [
    { name: 'cd . chain (&&)', command: repeat(['cd .'], SEGMENTS, ' && ') },
    {
      name: 'cd d0; … cd d15; ls; cd ROOT, repeated (;)',
      command: repeat([...down, 'ls', `cd ${ws.root}`], SEGMENTS, '; '),
    },
    {
      name: 'cd with .. paths (;)',
      command: repeat(['cd sub', 'cat ../a.txt', 'cd ..', 'cat sub/../a.txt'], SEGMENTS, '; '),
    },
    {
      name: '2,000 distinct paths in one pipeline (|)',
      command: Array.from({ length: SEGMENTS }, (_, i) => `cat files/f${i}`).join(' | '),
    },
    { name: '2,000 globs sharing the budget (&&)', command: repeat(['ls g/a*'], SEGMENTS, ' && ') },
  ];
}

/** Judges `command` RUNS times; the median and maximum wall time, the verdict and the work count. */
async function time(judgeCommand, ctx, command) {
  const times = [];
  let j;
  for (let k = 0; k < RUNS; k++) {
    const t0 = process.hrtime.bigint();
    j = await judgeCommand(command, ctx);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return {
    allowed: j.verdict.allowed,
    rule: j.verdict.rule,
    medianMs: median(times),
    maxMs: Math.max(...times),
    work: { ...j.work },
  };
}

/**
 * Builds a temporary workspace and measures the wall time of judging 2,000-segment commands
 * (median of 5 each). Returns the slowest shape at the top level and all shapes under `shapes`.
 * `gate` may pass the bundle a caller already loaded (`{ judgeCommand, NodeWorkspaceReader }`);
 * without it the gate is bundled and loaded here.
 */
export async function worstCase(gate) {
  const { judgeCommand, NodeWorkspaceReader } =
    gate ??
    (await loadTs(
      'gate-worst',
      "export * from './src/core/gate/index'; export { NodeWorkspaceReader } from './src/node/fsWorkspace';",
    ));
  const ws = makeWorkspace();
  try {
    const ctx = { roots: [ws.root], trusted: true, fs: new NodeWorkspaceReader([ws.root]) };
    await judgeCommand(repeat(['cd .'], 200, ' && '), ctx); // warm-up: let the JIT settle
    const results = [];
    for (const s of shapes(ws)) {
      const r = await time(judgeCommand, ctx, s.command);
      results.push({ name: s.name, segments: SEGMENTS, chars: s.command.length, ...r });
    }
    const worst = results.reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
    return {
      segments: SEGMENTS,
      chars: worst.chars,
      shape: worst.name,
      allowed: worst.allowed,
      medianMs: worst.medianMs,
      maxMs: worst.maxMs,
      work: worst.work,
      runs: RUNS,
      shapes: results,
    };
  } finally {
    ws.cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await worstCase())}\n`);
}
