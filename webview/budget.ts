/**
 * The budget meter's text, level and tooltip: the same figures as the status bar (tool calls
 * used/limit, context %, spend against the planning cap) with the full breakdown on hover.
 */
import type { Budget } from '../src/protocol';

export type MeterLevel = 'ok' | 'warning' | 'error';

export interface MeterPart {
  label: string;
  text: string;
  level: MeterLevel;
}

/** At or above this share of a limit the meter turns to warning colours. */
export const WARNING_RATIO = 0.8;

export function levelOf(used: number, max: number): MeterLevel {
  if (max <= 0) return 'ok';
  const r = used / max;
  return r >= 1 ? 'error' : r >= WARNING_RATIO ? 'warning' : 'ok';
}

export function compactNumber(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function meterParts(b: Budget): MeterPart[] {
  const spent = b.tokens.input + b.tokens.output;
  return [
    {
      label: 'Tool calls',
      text: b.toolCalls.max > 0 ? `${b.toolCalls.used} of ${b.toolCalls.max}` : String(b.toolCalls.used),
      level: levelOf(b.toolCalls.used, b.toolCalls.max),
    },
    { label: 'Context', text: `${Math.round(b.contextPercent)}%`, level: levelOf(b.contextPercent, 100) },
    {
      label: 'Spent',
      text:
        b.tokens.cap > 0
          ? `${compactNumber(spent)} of ${compactNumber(b.tokens.cap)} tokens`
          : `${compactNumber(spent)} tokens`,
      level: levelOf(spent, b.tokens.cap),
    },
  ];
}

export function overallLevel(parts: readonly MeterPart[]): MeterLevel {
  if (parts.some((p) => p.level === 'error')) return 'error';
  return parts.some((p) => p.level === 'warning') ? 'warning' : 'ok';
}

/** Bytes as a person reads them: "6.2 KB", "96 KB" (a KB is 1,024 bytes, as the settings count). */
function bytesText(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** "12,345". */
const grouped = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const ofLimit = (used: number, max: number, show: (n: number) => string = grouped) =>
  max > 0 ? `${show(used)} of ${show(max)}` : `${show(used)} (no limit)`;

/** The meter's tooltip: one line per figure, in words (the status bar's tooltip says the same). */
export function meterTooltip(b: Budget): string {
  const spent = b.tokens.input + b.tokens.output;
  const window = b.contextWindow !== undefined ? ` of ${compactNumber(b.contextWindow)} tokens` : '';
  return [
    `Tool calls: ${ofLimit(b.toolCalls.used, b.toolCalls.max)}`,
    `Requests to the model this turn: ${ofLimit(b.loops.used, b.loops.max)}`,
    `Tool output read: ${ofLimit(b.previewBytes.used, b.previewBytes.max, bytesText)}`,
    `Tool calls refused: ${grouped(b.blockedCalls.total)} (${grouped(b.blockedCalls.consecutive)} in a row)` +
      (b.blockedCalls.fuse > 0 ? `; the turn stops at ${grouped(b.blockedCalls.fuse)}` : ''),
    `Tokens: ${grouped(b.tokens.input)} in, ${grouped(b.tokens.output)} out`,
    `Context used: ${Math.round(b.contextPercent)}%${window}`,
    b.tokens.cap > 0
      ? `Planning spend: ${grouped(spent)} of ${grouped(b.tokens.cap)} tokens`
      : `Planning spend: ${grouped(spent)} tokens (no cap)`,
  ].join('\n');
}
