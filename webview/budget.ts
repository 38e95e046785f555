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
      text: `${b.toolCalls.used}/${b.toolCalls.max}`,
      level: levelOf(b.toolCalls.used, b.toolCalls.max),
    },
    { label: 'Context', text: `${Math.round(b.contextPercent)}%`, level: levelOf(b.contextPercent, 100) },
    {
      label: 'Spend',
      text: b.tokens.cap > 0 ? `${compactNumber(spent)}/${compactNumber(b.tokens.cap)}` : compactNumber(spent),
      level: levelOf(spent, b.tokens.cap),
    },
  ];
}

export function overallLevel(parts: readonly MeterPart[]): MeterLevel {
  if (parts.some((p) => p.level === 'error')) return 'error';
  return parts.some((p) => p.level === 'warning') ? 'warning' : 'ok';
}

export function meterTooltip(b: Budget): string {
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  return [
    `Tool calls: ${b.toolCalls.used} of ${b.toolCalls.max}`,
    `Loop iterations: ${b.loops.used} of ${b.loops.max}`,
    `Preview: ${kib(b.previewBytes.used)} of ${kib(b.previewBytes.max)}`,
    `Blocked calls: ${b.blockedCalls.consecutive} in a row, ${b.blockedCalls.total} in this turn (fuse ${b.blockedCalls.fuse})`,
    `Tokens: ${b.tokens.input} in, ${b.tokens.output} out`,
    `Context: ${Math.round(b.contextPercent)}% used`,
    b.tokens.cap > 0 ? `Planning spend cap: ${b.tokens.cap} tokens` : 'Planning spend cap: none',
  ].join('\n');
}
