// The record every figure produces, and the entry point of a figure script.
//
// A figure script (`node bench/<name>.mjs [--figure <id>]`) prints progress on stderr and exactly
// one JSON line on stdout: the figure record. `bench/run.mjs` runs each script as a child process
// so a crash, a leak or a `--expose-gc` flag stays with its own figure.

/**
 * A measured figure. `value`: the one-line result shown in the table; `met`: whether the goal is
 * met (null when the figure has no pass/fail goal); `data`: the raw numbers for results.json.
 */
export function measured(value, met, data = {}) {
  return { status: 'measured', value, met, data };
}

/** A figure that could not be measured; `reason` says why in one line. */
export function notMeasured(reason, data = {}) {
  return { status: 'not measured', reason: oneLine(reason), met: null, data };
}

export function oneLine(text) {
  const line = String(text).replace(/\s+/g, ' ').trim();
  return line.length > 240 ? `${line.slice(0, 237)}...` : line;
}

export function errorText(err) {
  return err instanceof Error ? err.message : String(err);
}

/** The value after `--name` in argv, or undefined. */
export function argValue(name, argv = process.argv) {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

export function log(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * Runs the producer named by `--figure` (default: the first) and prints its record as JSON.
 * A thrown error becomes a "not measured" record naming the error.
 */
export async function figureMain(producers) {
  const ids = Object.keys(producers);
  const id = argValue('figure') ?? ids[0];
  const produce = producers[id];
  if (!produce) {
    log(`unknown figure "${id}"; this script measures: ${ids.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  // Node's own warnings (e.g. a listener leak) are part of what a benchmark learns: kept in the record.
  const warnings = new Set();
  process.on('warning', (w) => warnings.add(oneLine(`${w.name}: ${w.message}`)));
  let record;
  try {
    record = await produce();
  } catch (err) {
    if (process.env.PLANWISE_BENCH_DEBUG) log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    record = notMeasured(`failed: ${errorText(err)}`);
  }
  if (warnings.size > 0) record = { ...record, data: { ...record.data, warnings: [...warnings] } };
  process.stdout.write(`${JSON.stringify({ id, ...record })}\n`);
}
