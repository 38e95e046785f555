// Small statistics and formatting helpers shared by the benchmarks.

/** The median of `values` (the mean of the two middle values for an even count). */
export function median(values) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * An approximate 95% interval of the median of `values`, free of any assumption about their
 * distribution: the order statistics at ranks n/2 ∓ 0.98·√n (the binomial's normal approximation).
 */
export function medianInterval(values) {
  if (values.length === 0) return [NaN, NaN];
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  const lo = Math.max(1, Math.floor(n / 2 - 0.98 * Math.sqrt(n)));
  const hi = Math.min(n, Math.ceil(n / 2 + 1 + 0.98 * Math.sqrt(n)));
  return [s[lo - 1], s[hi - 1]];
}

/** The p-th percentile (0..100) by the nearest-rank method. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[Math.min(s.length, rank) - 1];
}

/** Milliseconds spent in `fn` (awaited), measured with the monotonic clock. */
export async function timeMs(fn) {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

export function round(n, digits = 2) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** 1234567 -> "1.18 MB"; 2048 -> "2.0 KB" (1 KB = 1024 bytes). */
export function formatBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

export function formatMs(ms) {
  return ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(ms >= 10 ? 1 : 2)} ms`;
}

export function formatCount(n) {
  return Math.round(n).toLocaleString('en-US');
}
