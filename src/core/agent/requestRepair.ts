import type { ChatMessage, ToolCall } from './model';

/** Text the model sees in place of a tool result that was never recorded (e.g. a crash mid-batch). */
export const MISSING_RESULT =
  'No result was recorded for this call (it was interrupted). Run it again if you still need it.';

/**
 * Builds the request-only view of a thread: every assistant tool call gets exactly one tool
 * result, placed directly after its assistant message and before anything else. Orphaned
 * results (no matching call) and duplicates are dropped; missing results are filled in.
 * The stored history is never modified: this returns a new array.
 */
export function repairForRequest(history: readonly ChatMessage[]): ChatMessage[] {
  // The usual case: nothing to repair, so no copy is made (this runs on every request).
  if (isWellFormed(history)) return history as ChatMessage[];
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
  const seenCalls = new Set<string>();
  let expected: readonly ToolCall[] = [];
  let next = 0;
  for (const m of history) {
    if (next < expected.length) {
      if (m.role !== 'tool' || m.toolCallId !== expected[next]!.id) return false;
      next++;
      continue;
    }
    if (m.role === 'tool') return false;
    if (m.role === 'assistant' && m.toolCalls?.length) {
      for (const c of m.toolCalls) {
        if (seenCalls.has(c.id)) return false;
        seenCalls.add(c.id);
      }
      expected = m.toolCalls;
      next = 0;
    }
  }
  return next >= expected.length;
}
