// Main-thread busy time per frame for the panel benchmark, from a Chromium trace.
//
// The page marks each animation frame with `performance.mark(FRAME_MARK)` (category
// blink.user_timing). The trace's top-level tasks on the renderer's main thread (category
// `toplevel`, one event per task, cheap to record) are then cut at those marks:
// - busy wall time of a frame: how long tasks ran on the main thread between two marks;
// - CPU time of a frame: how far the main thread's own CPU clock (`tts`) moved between two marks.
// Wall time includes waiting for a core while other processes run; CPU time does not, so the
// pair tells the panel's own work apart from the machine's load.
//
// With `detail`, the trace also records the DevTools timeline categories, and `breakdown` sums
// the main thread's time by event name (script, style, layout, paint...). That costs overhead,
// so it is for profiling runs, not for the reported figures.

import { readdirSync, readFileSync } from 'node:fs';

export const FRAME_MARK = 'pw-frame';

const TASK = 'ThreadControllerImpl::RunTask';

/** Starts tracing on a CDP session; returns `stop()`, which resolves to the trace events. */
export async function startTrace(cdp, { detail = false } = {}) {
  const events = [];
  const onData = (e) => {
    for (const ev of e.value) events.push(ev);
  };
  cdp.on('Tracing.dataCollected', onData);
  const categories = ['toplevel', 'blink.user_timing', '__metadata'];
  if (detail) categories.push('devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute');
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: categories, excludedCategories: ['*'], recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReportEvents',
  });
  return async () => {
    const complete = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', onData);
    return events;
  };
}

/** The renderer main thread that recorded our frame marks: `{ pid, tid }`, or undefined. */
function mainThread(events) {
  const mark = events.find((e) => e.name === FRAME_MARK && e.cat === 'blink.user_timing');
  return mark ? { pid: mark.pid, tid: mark.tid } : undefined;
}

/** Top-level tasks on `thread`, outermost only, sorted by start: `[{ ts, end, tdur }]` in µs. */
function topLevelTasks(events, thread) {
  const tasks = events
    .filter((e) => e.ph === 'X' && e.name === TASK && e.pid === thread.pid && e.tid === thread.tid)
    .map((e) => ({ ts: e.ts, end: e.ts + (e.dur ?? 0), tdur: e.tdur ?? 0 }))
    .sort((a, b) => a.ts - b.ts);
  const outer = [];
  for (const t of tasks) {
    const last = outer[outer.length - 1];
    if (last && t.ts < last.end) continue; // nested inside the previous task
    outer.push(t);
  }
  return outer;
}

/**
 * Per-frame busy time between consecutive frame marks: `{ wallMs: number[], cpuMs: number[] }`,
 * one entry per frame interval. Undefined when the trace holds no frame marks.
 */
export function busyPerFrame(events) {
  const thread = mainThread(events);
  if (!thread) return undefined;
  const marks = events
    .filter((e) => e.name === FRAME_MARK && e.pid === thread.pid && e.tid === thread.tid)
    .sort((a, b) => a.ts - b.ts);
  const tasks = topLevelTasks(events, thread);
  const wallMs = [];
  const cpuMs = [];
  let t = 0;
  for (let i = 0; i + 1 < marks.length; i++) {
    const from = marks[i].ts;
    const to = marks[i + 1].ts;
    while (t < tasks.length && tasks[t].end <= from) t++;
    let busy = 0;
    for (let j = t; j < tasks.length && tasks[j].ts < to; j++) {
      busy += Math.min(to, tasks[j].end) - Math.max(from, tasks[j].ts);
    }
    wallMs.push(busy / 1000);
    if (typeof marks[i].tts === 'number' && typeof marks[i + 1].tts === 'number') {
      cpuMs.push((marks[i + 1].tts - marks[i].tts) / 1000);
    }
  }
  return { wallMs, cpuMs };
}

/**
 * Self time by event name on the main thread between the first and last frame mark, largest CPU
 * first: where the main thread's time goes, as `[{ name, cpuMs, wallMs }]`. Needs a `detail` trace.
 */
export function breakdown(events, top = 25) {
  const thread = mainThread(events);
  if (!thread) return [];
  const marks = events.filter((e) => e.name === FRAME_MARK).map((e) => e.ts);
  const from = Math.min(...marks);
  const to = Math.max(...marks);
  const spans = events
    .filter((e) => e.ph === 'X' && e.pid === thread.pid && e.tid === thread.tid && e.ts >= from && e.ts < to)
    .map((e) => ({ name: label(e), ts: e.ts, end: e.ts + (e.dur ?? 0), cpu: e.tdur ?? 0 }))
    .sort((a, b) => a.ts - b.ts || b.end - a.end);
  // Self time: each span's duration less its direct children's.
  const self = new Map();
  const stack = [];
  const close = (until) => {
    while (stack.length && stack[stack.length - 1].end <= until) {
      const s = stack.pop();
      const sum = self.get(s.name) ?? { wall: 0, cpu: 0 };
      sum.wall += s.end - s.ts - s.childWall;
      sum.cpu += s.cpu - s.childCpu;
      self.set(s.name, sum);
    }
  };
  for (const s of spans) {
    close(s.ts);
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.childWall += Math.min(s.end, parent.end) - s.ts;
      parent.childCpu += s.cpu;
    }
    // Style and layout inside script were forced by it (a read of geometry after a write).
    const forced =
      parent && /^(Layout|UpdateLayoutTree)$/.test(s.name) && stack.some((p) => p.name.startsWith('FunctionCall'));
    stack.push({ ...s, name: forced ? `${s.name} (forced by script)` : s.name, childWall: 0, childCpu: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return [...self.entries()]
    .sort((a, b) => b[1].cpu - a[1].cpu)
    .slice(0, top)
    .map(([name, t]) => ({ name, cpuMs: Math.round(t.cpu) / 1000, wallMs: Math.round(t.wall) / 1000 }));
}

/** An event's name; a script entry also names its function, e.g. `FunctionCall onScroll`. */
function label(e) {
  const fn = e.name === 'FunctionCall' ? e.args?.data?.functionName : undefined;
  return fn ? `${e.name} ${fn}` : e.name;
}

/**
 * The top functions of a V8 CPU profile (`Profiler.stop`'s `profile`): `{ self, total }`, each
 * `[{ fn, ms }]` largest first. `total` counts a function once per sample however deep it recurs.
 */
export function summariseProfile(profile, top = 30) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
  const self = new Map();
  const total = new Map();
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const leaf = byId.get(id);
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + ms);
    const seen = new Set();
    for (let n = leaf; n; n = byId.get(parent.get(n.id))) {
      const key = name(n);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + ms);
    }
  });
  const list = (m) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, ms]) => ({ fn, ms: Math.round(ms) }));
  return { self: list(self), total: list(total) };
}

/**
 * CPU time (ms, user + system) used so far by the Chromium processes this Node process started,
 * from /proc: `{ renderer, all }`, where `all` also counts the browser and GPU processes (the
 * display compositor, rasterisation). Undefined off Linux. Clock ticks are 10 ms, so compare
 * totals over seconds, not single frames.
 */
export function chromiumCpuMs() {
  if (process.platform !== 'linux') return undefined;
  const procs = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      procs.push({ pid, ppid: fields[1], ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100, cmdline });
    } catch {
      // the process ended meanwhile
    }
  }
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const ours = (p) => {
    for (let q = p, hops = 0; q && hops < 12; q = byPid.get(q.ppid), hops++)
      if (q.ppid === String(process.pid)) return true;
    return false;
  };
  let renderer = 0;
  let all = 0;
  for (const p of procs.filter(ours)) {
    all += p.ms;
    if (p.cmdline.includes('--type=renderer')) renderer += p.ms;
  }
  return { renderer, all };
}
