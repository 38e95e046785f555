// Running a figure's producer as a child process and reading its JSON output.
import { spawn } from 'node:child_process';
import { errorText, notMeasured, oneLine } from './figure.mjs';
import { repoRoot } from './load.mjs';

/**
 * Runs `node <nodeArgs> <script> <args>` in the repository root. Resolves with its exit code,
 * stdout and stderr; a run past `timeoutMs` is killed and says so.
 */
export function runNode(script, { args = [], nodeArgs = [], timeoutMs, env = {}, echo = true }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (echo) process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}\n${errorText(err)}`, timedOut });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stdout, stderr, timedOut });
    });
  });
}

/** The last line of `text` that parses as a JSON object, or the whole text when it does; undefined otherwise. */
export function lastJson(text) {
  const lines = text.split('\n').map((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i].startsWith('{')) continue;
    try {
      return JSON.parse(lines[i]);
    } catch {
      // not this line
    }
  }
  try {
    const whole = JSON.parse(text);
    return whole && typeof whole === 'object' ? whole : undefined;
  } catch {
    return undefined;
  }
}

/** The last non-empty line of `text`, for error reasons. */
export function lastLine(text) {
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !/^\s+at /.test(l));
  return oneLine(lines.at(-1) ?? '');
}

/** Why a producer run gave no usable output, in one line. */
export function failureReason(script, run) {
  if (run.timedOut) return `${script} did not finish in time and was stopped`;
  const detail = lastLine(run.stderr) || lastLine(run.stdout) || 'no output';
  return `${script} exited with ${run.code}: ${detail}`;
}

/**
 * A finite number anywhere in `obj` whose key path (e.g. `frameWorkMs.p95`) matches `pattern`,
 * shallow keys first; `{ key, value }` or undefined.
 */
export function findNumber(obj, pattern, path = '') {
  if (!obj || typeof obj !== 'object') return undefined;
  const entries = Object.entries(obj).map(([key, value]) => [path ? `${path}.${key}` : key, value]);
  for (const [here, value] of entries) {
    if (typeof value === 'number' && Number.isFinite(value) && pattern.test(here)) return { key: here, value };
  }
  for (const [here, value] of entries) {
    const found = findNumber(value, pattern, here);
    if (found) return found;
  }
  return undefined;
}

/** Runs one of our own figure scripts and returns its record. */
export async function runFigureScript(script, id, { nodeArgs = [], timeoutMs }) {
  const run = await runNode(script, { args: ['--figure', id], nodeArgs, timeoutMs });
  const record = lastJson(run.stdout);
  if (record && record.status) return record;
  return notMeasured(failureReason(script, run));
}
