/** Value conversions the translator uses: tool arguments, budgets, tracker items. Pure. */
import type { BudgetSnapshot, TrackerItemInfo } from '../../core/api/sessions';
import type { FileChange } from '../../core/api/build';
import type { Budget, FileChangeView, TrackerNode } from '../../protocol';

const ARGS_SUMMARY_MAX = 200;

/** A short, readable form of a tool call's JSON arguments. */
export function summariseArgs(raw: string): string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return clip(raw.replace(/\s+/g, ' ').trim());
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return clip(JSON.stringify(value));
  // The interview (request_user_input) reads as its questions, not as JSON.
  const questions = (value as { questions?: unknown }).questions;
  if (Array.isArray(questions)) {
    const asked = questions
      .map((q) =>
        typeof (q as { question?: unknown })?.question === 'string' ? (q as { question: string }).question : '',
      )
      .filter((q) => q !== '');
    if (asked.length > 0) return clip(asked.join(' · '));
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null);
  if (entries.length === 1 && typeof entries[0]![1] === 'string') return clip(entries[0]![1]);
  const main = entries.find(([k]) => k === 'command' || k === 'path' || k === 'pattern');
  const rest = entries
    .filter((e) => e !== main)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const head = main && typeof main[1] === 'string' ? [main[1]] : main ? [`${main[0]}=${JSON.stringify(main[1])}`] : [];
  return clip([...head, ...rest].join(' · '));
}

function clip(text: string): string {
  return text.length > ARGS_SUMMARY_MAX ? `${text.slice(0, ARGS_SUMMARY_MAX - 1)}…` : text;
}

/** A file tool's change as the protocol carries it (the row's title already names the file). */
export function toFileChange(c: FileChange): FileChangeView {
  return {
    added: whole(c.added),
    removed: whole(c.removed),
    diff: c.diff,
    omitted: whole(c.omitted),
    ...(c.note !== undefined ? { note: c.note } : {}),
  };
}

const whole = (n: number) => Math.max(0, Math.round(Number.isFinite(n) ? n : 0));

export function toBudget(b: BudgetSnapshot): Budget {
  return {
    toolCalls: { used: whole(b.toolCalls.used), max: whole(b.toolCalls.max) },
    loops: { used: whole(b.loops.used), max: whole(b.loops.max) },
    previewBytes: { used: whole(b.previewBytes.used), max: whole(b.previewBytes.max) },
    blockedCalls: {
      consecutive: whole(b.blockedCalls.consecutive),
      total: whole(b.blockedCalls.total),
      fuse: whole(b.blockedCalls.fuse),
    },
    tokens: { input: whole(b.tokens.input), output: whole(b.tokens.output), cap: whole(b.tokens.cap) },
    contextPercent: Math.min(100, Math.max(0, Number.isFinite(b.contextPercent) ? b.contextPercent : 0)),
    ...(b.contextWindow !== undefined && b.contextWindow > 0 ? { contextWindow: whole(b.contextWindow) } : {}),
  };
}

export function toTrackerNode(i: TrackerItemInfo): TrackerNode {
  return {
    path: i.path,
    description: i.description,
    status: i.status,
    files: [...i.files],
    entries: i.entries.map((e) => ({
      kind: e.kind,
      text: e.text,
      ...(e.command !== undefined ? { command: e.command } : {}),
      ...(e.result ? { result: { ...e.result } } : {}),
    })),
    awaitingCheck: i.awaitingCheck,
    children: i.children.map(toTrackerNode),
  };
}
