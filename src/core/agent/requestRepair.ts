import type { ChatMessage, ToolCall } from './model';

/** Text the model sees in place of a tool result that was never recorded (e.g. a crash mid-batch). */
export const MISSING_RESULT =
  'No result was recorded for this call (it was interrupted). Run it again if you still need it.';

/** A thread as it will be sent, and the characters of its message contents (for size estimates). */
export interface RequestView {
  readonly messages: readonly ChatMessage[];
  readonly chars: number;
}

/**
 * Builds the request-only view of a thread: every assistant tool call gets exactly one tool
 * result, placed directly after its assistant message and before anything else. Orphaned
 * results (no matching call) and duplicates are dropped; missing results are filled in.
 * The stored history is never modified: a repaired view is a new array, and a well-formed
 * thread is returned as it is.
 */
export function repairForRequest(history: readonly ChatMessage[]): ChatMessage[] {
  return requestView(history).messages as ChatMessage[];
}

/**
 * `repairForRequest` with the size of the result. This runs before every model request, so a
 * thread that is only appended to (as `runTurn` does) is checked incrementally: the work per
 * request is proportional to the messages added since the previous request, not to the thread.
 */
export function requestView(history: readonly ChatMessage[]): RequestView {
  const scan = scanned(history);
  // The usual case: nothing to repair, so no copy is made.
  if (!scan.broken && scan.next >= scan.expected.length) return { messages: history, chars: scan.chars };
  const messages = repair(history);
  return { messages, chars: contentChars(messages, 0, messages.length) };
}

function contentChars(messages: readonly ChatMessage[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n += messages[i]!.content.length;
  return n;
}

/** How far a thread has been checked, so the next request only checks what was appended. */
interface Scan {
  /** Messages checked so far. */
  length: number;
  /** The last message checked: a thread whose message there differs was rewritten, not appended to. */
  last: ChatMessage | undefined;
  /** Content characters of the checked messages. */
  chars: number;
  /** Tool call ids seen so far. */
  readonly seen: Set<string>;
  /** The calls of the latest assistant message with calls, and how many of them were answered in order. */
  expected: readonly ToolCall[];
  next: number;
  /** The checked part already breaks the rules; appending cannot mend it. */
  broken: boolean;
}

const scans = new WeakMap<readonly ChatMessage[], Scan>();

function freshScan(): Scan {
  return { length: 0, last: undefined, chars: 0, seen: new Set(), expected: [], next: 0, broken: false };
}

function scanned(history: readonly ChatMessage[]): Scan {
  let scan = scans.get(history);
  if (scan === undefined || scan.length > history.length || history[scan.length - 1] !== scan.last) {
    scan = freshScan();
    scans.set(history, scan);
  }
  const from = scan.length;
  if (from === history.length) return scan;
  for (let i = from; i < history.length && !scan.broken; i++) step(scan, history[i]!);
  scan.chars += contentChars(history, from, history.length);
  scan.length = history.length;
  scan.last = history[history.length - 1];
  return scan;
}

/** One message of the well-formedness check (see `isWellFormed`). */
function step(scan: Scan, m: ChatMessage): void {
  if (scan.next < scan.expected.length) {
    if (m.role !== 'tool' || m.toolCallId !== scan.expected[scan.next]!.id) scan.broken = true;
    else scan.next++;
    return;
  }
  if (m.role === 'tool') {
    scan.broken = true;
    return;
  }
  if (m.role === 'assistant' && m.toolCalls?.length) {
    for (const c of m.toolCalls) {
      if (scan.seen.has(c.id)) {
        scan.broken = true;
        return;
      }
      scan.seen.add(c.id);
    }
    scan.expected = m.toolCalls;
    scan.next = 0;
  }
}

function repair(history: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  // Index every tool result by call id, first one wins.
  const results = new Map<string, ChatMessage & { role: 'tool' }>();
  for (const m of history) {
    if (m.role === 'tool' && !results.has(m.toolCallId)) results.set(m.toolCallId, m);
  }
  const answered = new Set<string>();
  for (const m of history) {
    if (m.role === 'tool') continue; // placed right after their assistant message below
    if (m.role !== 'assistant' || !m.toolCalls?.length) {
      out.push(m);
      continue;
    }
    const calls = dedupeCalls(m.toolCalls).filter((c) => !answered.has(c.id));
    out.push(calls.length === m.toolCalls.length ? m : { ...m, toolCalls: calls });
    for (const call of calls) {
      answered.add(call.id);
      out.push(results.get(call.id) ?? { role: 'tool', toolCallId: call.id, content: MISSING_RESULT });
    }
  }
  return out;
}

function dedupeCalls(calls: readonly ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  return calls.filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)));
}

/** True when every call is answered exactly once, right after its assistant message, with no strays. */
export function isWellFormed(history: readonly ChatMessage[]): boolean {
  const scan = freshScan();
  for (const m of history) {
    step(scan, m);
    if (scan.broken) return false;
  }
  return scan.next >= scan.expected.length;
}
