// `npm run bench`: runs every figure (or those named by --only), prints one table and writes
// bench/results.json. Figures run one after another, each in its own child process, so they do
// not share CPU with each other. `--list` names the figures.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorText, notMeasured } from './lib/figure.mjs';
import { repoRoot } from './lib/load.mjs';
import { FIGURES } from './lib/registry.mjs';

const RESULTS = path.join(repoRoot, 'bench', 'results.json');

function parseArgs(argv) {
  const only = [];
  let list = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--only' && argv[i + 1]) only.push(...argv[++i].split(','));
    else if (argv[i]?.startsWith('--only=')) only.push(...argv[i].slice('--only='.length).split(','));
    else if (argv[i] === '--list') list = true;
    else throw new Error(`unknown argument ${argv[i]}; use --only <figure>[,<figure>] or --list`);
  }
  return { only: only.map((s) => s.trim()).filter(Boolean), list };
}

function metText(record) {
  if (record.status !== 'measured') return 'not measured';
  if (record.met === true) return 'yes';
  if (record.met === false) return '**NO (missed)**';
  return '-';
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The table, in Markdown (readable in a terminal, and pasted as is into BENCHMARKS.md). */
export function table(records) {
  const rows = ['| # | figure | result | goal | met |', '|---|---|---|---|---|'];
  for (const [i, fig] of FIGURES.entries()) {
    const r = records.find((x) => x.id === fig.id);
    if (!r) continue;
    const result = r.status === 'measured' ? r.value : `not measured: ${r.reason}`;
    rows.push(`| ${i + 1} | ${cell(fig.title)} | ${cell(result)} | ${cell(fig.goal)} | ${metText(r)} |`);
  }
  return rows.join('\n');
}

function previous() {
  if (!existsSync(RESULTS)) return [];
  try {
    return JSON.parse(readFileSync(RESULTS, 'utf8')).figures ?? [];
  } catch {
    return [];
  }
}

async function main() {
  const { only, list } = parseArgs(process.argv.slice(2));
  if (list) {
    for (const f of FIGURES) console.log(`${f.id.padEnd(12)} ${f.title} (goal: ${f.goal})`);
    return;
  }
  const unknown = only.filter((id) => !FIGURES.some((f) => f.id === id));
  if (unknown.length) {
    throw new Error(`unknown figure(s) ${unknown.join(', ')}; known: ${FIGURES.map((f) => f.id).join(', ')}`);
  }
  const chosen = only.length ? FIGURES.filter((f) => only.includes(f.id)) : FIGURES;
  const started = Date.now();
  const fresh = [];
  for (const fig of chosen) {
    process.stderr.write(`\n== ${fig.id}: ${fig.title}\n`);
    const t0 = Date.now();
    let record;
    try {
      record = await fig.run();
    } catch (err) {
      record = notMeasured(`the harness failed: ${errorText(err)}`);
    }
    const seconds = Math.round((Date.now() - t0) / 100) / 10;
    const { id: _id, ...rest } = record;
    fresh.push({
      id: fig.id,
      title: fig.title,
      goal: fig.goal,
      method: fig.method,
      ...rest,
      seconds,
      measuredAt: new Date().toISOString(),
    });
    process.stderr.write(
      `   ${record.status === 'measured' ? record.value : `not measured: ${record.reason}`} (${seconds} s)\n`,
    );
  }
  // With --only, the other figures keep their last results (each says when it was measured).
  const kept = only.length ? previous().filter((r) => !only.includes(r.id) && FIGURES.some((f) => f.id === r.id)) : [];
  const figures = FIGURES.map((f) => fresh.find((r) => r.id === f.id) ?? kept.find((r) => r.id === f.id)).filter(
    Boolean,
  );
  const results = {
    generatedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    },
    totalSeconds: Math.round((Date.now() - started) / 1000),
    figures,
  };
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  console.log(table(figures));
  console.log(`\nWrote ${path.relative(process.cwd(), RESULTS)} (${results.totalSeconds} s).`);
}

main().catch((err) => {
  console.error(errorText(err));
  process.exitCode = 1;
});
