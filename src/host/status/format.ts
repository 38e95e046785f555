/**
 * The status-bar budget indicator, as data: compact text, a markdown tooltip, a severity that
 * picks the colour, and what a click does. Pure; `statusBar.ts` only copies it onto the item.
 */
import type { LimitKind } from '../../core/api/ports';
import type { BudgetSnapshot, TrackerStanding } from '../../core/api/sessions';

type Budget = BudgetSnapshot;
/** The tracker's progress as the engine counted it (`tracker.updated`). */
export type TrackerProgress = Pick<TrackerStanding, 'counts' | 'percent'>;
/** A limit the engine asked the person to raise. */
export interface GrantAsk {
  readonly kind: LimitKind;
  readonly used: number;
  readonly max: number;
}

/**
 * The tracker's progress in words, from the engine's counts (never recounted): "step 2 of 5"
 * while a step is in progress, otherwise "1 of 5 steps done".
 */
export function trackerText(t: TrackerProgress): string {
  const { done, inProgress, total } = t.counts;
  if (inProgress > 0 && done < total) return `step ${done + 1} of ${total}`;
  return `${done} of ${total} step${total === 1 ? '' : 's'} done`;
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
 * loads ICU's number formatting, on the first session's start.
 */
const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
/** Bytes as a person reads them: "6.2 KB", "96 KB", "1.5 MB" (a KB is 1,024 bytes, as the settings count). */
const bytesText = (bytes: number) => {
  if (bytes < 1024) return `${Math.round(bytes)} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
};
/** "10 of 120", or "10" (no limit). */
const ofLimit = (used: number, max: number, show: (n: number) => string = grouped) =>
  max > 0 ? `${show(used)} of ${show(max)}` : `${show(used)} (no limit)`;

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

/** "12% of context", the engine's share. */
const contextText = (b: Budget) => `${percentOf(b)}% of context`;
/** The engine's share of context, as a whole percentage from 0 to 100. */
const percentOf = (b: Budget) =>
  Number.isFinite(b.contextPercent) ? Math.round(Math.min(100, Math.max(0, b.contextPercent))) : 0;

/**
 * The status bar's words: "Planwise: 10 of 120 tool calls · 4% of context" (a planning spend cap
 * adds "· 32k of 200k tokens"); with a tracker, its progress instead of the calls: "Planwise:
 * step 2 of 5 · 12% of context".
 */
export function statusText(b: Budget | null, tracker: TrackerProgress | null = null): string {
  if (!b) return tracker ? `$(checklist) Planwise: ${trackerText(tracker)}` : '$(checklist) Planwise';
  if (tracker) return `$(checklist) Planwise: ${trackerText(tracker)} · ${contextText(b)}`;
  const calls =
    b.toolCalls.max > 0 ? `${b.toolCalls.used} of ${b.toolCalls.max} tool calls` : `${b.toolCalls.used} tool calls`;
  const spent = b.tokens.input + b.tokens.output;
  const spend = b.tokens.cap > 0 ? ` · ${compactNumber(spent)} of ${compactNumber(b.tokens.cap)} tokens` : '';
  return `$(checklist) Planwise: ${calls} · ${contextText(b)}${spend}`;
}

/** The tooltip: one line per figure, in words. */
export function statusTooltip(b: Budget | null, grant: GrantAsk | null): string {
  const lines: string[] = ['**Planwise**', ''];
  if (!b) {
    lines.push('Nothing has been measured yet.');
  } else {
    const spent = b.tokens.input + b.tokens.output;
    const window = b.contextWindow !== undefined ? ` of ${compactNumber(b.contextWindow)} tokens` : '';
    lines.push(
      `- Tool calls: ${ofLimit(b.toolCalls.used, b.toolCalls.max)}`,
      `- Requests to the model this turn: ${ofLimit(b.loops.used, b.loops.max)}`,
      `- Tool output read: ${ofLimit(b.previewBytes.used, b.previewBytes.max, bytesText)}`,
      `- Tool calls refused: ${grouped(b.blockedCalls.total)} (${grouped(b.blockedCalls.consecutive)} in a row)` +
        (b.blockedCalls.fuse > 0 ? `; the turn stops at ${grouped(b.blockedCalls.fuse)}` : ''),
      `- Tokens: ${grouped(b.tokens.input)} in, ${grouped(b.tokens.output)} out`,
      `- Context used: ${percentOf(b)}%${window}`,
      b.tokens.cap > 0
        ? `- Planning spend: ${grouped(spent)} of ${grouped(b.tokens.cap)} tokens`
        : `- Planning spend: ${grouped(spent)} tokens (no cap)`,
    );
  }
  lines.push('');
  if (grant) {
    const what =
      grant.kind === 'session_tool_calls' ? 'tool calls for this session' : 'requests to the model for this turn';
    lines.push(`$(warning) Planwise used all its ${what} (${grant.used} of ${grant.max}). Click to allow more.`);
  } else {
    lines.push('Click to open the Planwise panel.');
  }
  return lines.join('\n');
}

export function statusView(
  b: Budget | null,
  grant: GrantAsk | null,
  tracker: TrackerProgress | null = null,
): StatusView {
  const severity = severityOf(b, grant !== null);
  const text = statusText(b, tracker);
  const label = b
    ? `Planwise budget: ${b.toolCalls.used} of ${b.toolCalls.max > 0 ? b.toolCalls.max : 'unlimited'} tool calls, ` +
      `context ${percentOf(b)} percent, ${b.tokens.input + b.tokens.output} tokens spent` +
      (b.tokens.cap > 0 ? ` of a ${b.tokens.cap} token cap` : '') +
      (grant ? '. A limit was reached: activate to grant more.' : '')
    : 'Planwise: no budget reported yet';
  const progress = tracker
    ? `. Plan: ${tracker.counts.done} of ${tracker.counts.total} steps done, ${tracker.percent} percent`
    : '';
  return {
    text,
    tooltip: statusTooltip(b, grant),
    severity,
    click: grant ? 'grantMore' : 'openPanel',
    accessibilityLabel: label + progress,
  };
}
