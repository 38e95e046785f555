/**
 * The status-bar budget indicator, as data: compact text, a markdown tooltip, a severity that
 * picks the colour, and what a click does. Pure; `statusBar.ts` only copies it onto the item.
 */
import type { Budget, GrantMorePrompt, Tracker } from '../../protocol';

/** The tracker's progress as the engine counted it (`tracker.updated`). */
export type TrackerProgress = Pick<Tracker, 'counts' | 'percent'>;

/** `2/3 ✓ 66%`: the engine's numbers, never recounted. */
export function trackerText(t: TrackerProgress): string {
  return `${t.counts.done}/${t.counts.total} ✓ ${t.percent}%`;
}

export type Severity = 'normal' | 'warning' | 'error';

export interface StatusView {
  readonly text: string;
  readonly tooltip: string;
  readonly severity: Severity;
  /** `grantMore` when a limit prompt is pending, else open the panel. */
  readonly click: 'grantMore' | 'openPanel';
  /** For screen readers. */
  readonly accessibilityLabel: string;
}

/** At or above this share of a limit the item turns to the warning colour. */
export const WARNING_RATIO = 0.8;

export function compactNumber(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/**
 * 12,345 (as `toLocaleString('en-US')` writes integers). Not that call: its first use in a process
 * loads ICU's number formatting, 7 ms of the first session's start in a CPU profile of the
 * extension host (80 ms in a bare Node).
 */
const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
const limit = (max: number, show: (n: number) => string = grouped) => (max > 0 ? show(max) : 'unlimited');

/** Share of each limited budget used (limits of 0 mean unlimited and are left out). */
export function budgetRatios(b: Budget): Record<string, number> {
  const r: Record<string, number> = {};
  const add = (name: string, used: number, max: number) => {
    if (max > 0) r[name] = used / max;
  };
  add('toolCalls', b.toolCalls.used, b.toolCalls.max);
  add('loops', b.loops.used, b.loops.max);
  add('preview', b.previewBytes.used, b.previewBytes.max);
  add('blocked', b.blockedCalls.total, b.blockedCalls.fuse);
  add('tokens', b.tokens.input + b.tokens.output, b.tokens.cap);
  r.context = b.contextPercent / 100;
  return r;
}

export function severityOf(b: Budget | null, grantPending: boolean): Severity {
  if (grantPending) return 'error';
  if (!b) return 'normal';
  const worst = Math.max(...Object.values(budgetRatios(b)));
  if (worst >= 1) return 'error';
  if (worst >= WARNING_RATIO) return 'warning';
  return 'normal';
}

export function statusText(b: Budget | null): string {
  if (!b) return '$(checklist) Planwise';
  // Every figure says what it counts: "Planwise: 11/120 calls · ctx 4%" (a spend cap adds its tokens).
  const calls = `${b.toolCalls.used}/${b.toolCalls.max > 0 ? b.toolCalls.max : '∞'} calls`;
  const spent = b.tokens.input + b.tokens.output;
  const spend = b.tokens.cap > 0 ? ` · ${compactNumber(spent)}/${compactNumber(b.tokens.cap)} tok` : '';
  return `$(checklist) Planwise: ${calls} · ctx ${Math.round(b.contextPercent)}%${spend}`;
}

export function statusTooltip(b: Budget | null, grant: GrantMorePrompt | null): string {
  const lines: string[] = ['**Planwise budget**', ''];
  if (!b) {
    lines.push('No budget reported yet.');
  } else {
    const spent = b.tokens.input + b.tokens.output;
    lines.push(
      '| | used | limit |',
      '|---|---:|---:|',
      `| Tool calls | ${grouped(b.toolCalls.used)} | ${limit(b.toolCalls.max)} |`,
      `| Loop iterations | ${grouped(b.loops.used)} | ${limit(b.loops.max)} |`,
      `| Preview | ${kib(b.previewBytes.used)} | ${limit(b.previewBytes.max, kib)} |`,
      `| Blocked calls | ${grouped(b.blockedCalls.total)} (${grouped(b.blockedCalls.consecutive)} in a row) | ${limit(b.blockedCalls.fuse)} |`,
      `| Tokens in / out | ${grouped(b.tokens.input)} / ${grouped(b.tokens.output)} | |`,
      `| Context | ${Math.round(b.contextPercent)}% | 100% |`,
      `| Planning spend | ${grouped(spent)} | ${b.tokens.cap > 0 ? grouped(b.tokens.cap) : 'no cap'} |`,
    );
  }
  lines.push('');
  if (grant) {
    const what = grant.kind === 'session_tool_calls' ? 'session tool-call' : 'tool-loop';
    lines.push(`$(warning) The ${what} limit was reached (${grant.used}/${grant.max}). Click to grant more.`);
  } else {
    lines.push('Click to open the Planwise panel.');
  }
  return lines.join('\n');
}

export function statusView(
  b: Budget | null,
  grant: GrantMorePrompt | null,
  tracker: TrackerProgress | null = null,
): StatusView {
  const severity = severityOf(b, grant !== null);
  const text = tracker ? `${statusText(b)} · ${trackerText(tracker)}` : statusText(b);
  const label = b
    ? `Planwise budget: ${b.toolCalls.used} of ${b.toolCalls.max > 0 ? b.toolCalls.max : 'unlimited'} tool calls, ` +
      `context ${Math.round(b.contextPercent)} percent, ${b.tokens.input + b.tokens.output} tokens spent` +
      (b.tokens.cap > 0 ? ` of a ${b.tokens.cap} token cap` : '') +
      (grant ? '. A limit was reached: activate to grant more.' : '')
    : 'Planwise: no budget reported yet';
  const progress = tracker
    ? `. Tracker: ${tracker.counts.done} of ${tracker.counts.total} steps done, ${tracker.percent} percent`
    : '';
  return {
    text,
    tooltip: statusTooltip(b, grant),
    severity,
    click: grant ? 'grantMore' : 'openPanel',
    accessibilityLabel: label + progress,
  };
}
