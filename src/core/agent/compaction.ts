/**
 * Compaction: a request view of a thread that fits the context window. The durable thread is
 * never rewritten (like request repair, this builds a new array); what is compacted is chosen by
 * two boundaries, which only move forward, so the request prefix stays the same between
 * compactions and providers can keep caching it.
 *
 * - Before `stubBefore`, tool results become stubs: the first line and the size, and a `read_spool`
 *   reference to the full body (a result that was already spooled keeps its spool id; others are
 *   spooled when stubbed). Large tool-call arguments there are left out the same way.
 * - Before `omitBefore`, whole tool rounds (an assistant message with calls and their results) are
 *   left out, replaced by one note; pairing stays intact because a round goes as a whole.
 * - Always kept whole: user messages (the task, revision feedback, directives), assistant prose
 *   (plans, answers), the rounds of `request_user_input` (interview answers) and `task_tracker`
 *   (the tracker), and everything from the latest turns on.
 */
import type { Spool } from '../spool';
import type { ChatMessage } from './model';

/** Tools whose results carry what the thread must not lose: the interview answers and the tracker. */
export const PROTECTED_TOOLS: ReadonlySet<string> = new Set(['request_user_input', 'task_tracker']);

/** Arguments longer than this, before the stub boundary, are left out of the request. */
const LONG_ARGUMENTS = 1024;

export interface CompactionState {
  /** Tool results before this view index are stubs. */
  readonly stubBefore: number;
  /** Unprotected tool rounds ending before this view index are left out. */
  readonly omitBefore: number;
}

export const NO_COMPACTION: CompactionState = { stubBefore: 0, omitBefore: 0 };

export interface CompactedView {
  readonly messages: readonly ChatMessage[];
  readonly stubbed: number;
  readonly omitted: number;
}

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

const stubs = new WeakMap<ChatMessage, ToolMessage>();
const slimCalls = new WeakMap<ChatMessage, AssistantMessage>();

function stubOf(m: ToolMessage, tool: string, spool: Spool | undefined): ToolMessage {
  const known = stubs.get(m);
  if (known) return known;
  const spooled = /read_spool id=(\S+)/.exec(m.content)?.[1];
  const id = spooled ?? (spool && m.content.length > 200 ? spool.put(m.content) : undefined);
  const first = m.content.split('\n', 1)[0]!.slice(0, 160);
  const text =
    m.content.length <= 200
      ? m.content
      : `[compacted: this ${tool} result (${m.content.length} chars) was shortened to fit the context window. ` +
        `It began: ${JSON.stringify(first)}.${id ? ` The full result: read_spool id=${id} offset=0` : ''}]`;
  const stub: ToolMessage = { role: 'tool', toolCallId: m.toolCallId, content: text };
  stubs.set(m, stub);
  return stub;
}

function slimmed(m: AssistantMessage): AssistantMessage {
  if (!m.toolCalls?.some((c) => c.arguments.length > LONG_ARGUMENTS)) return m;
  const known = slimCalls.get(m);
  if (known) return known;
  const out: AssistantMessage = {
    ...m,
    toolCalls: m.toolCalls.map((c) =>
      c.arguments.length > LONG_ARGUMENTS
        ? { ...c, arguments: JSON.stringify({ compacted: `${c.arguments.length} chars of arguments left out` }) }
        : c,
    ),
  };
  slimCalls.set(m, out);
  return out;
}

/** Indexes of the assistant messages with tool calls, and where each round ends (exclusive). */
function rounds(view: readonly ChatMessage[]): { start: number; end: number; protectedRound: boolean }[] {
  const out: { start: number; end: number; protectedRound: boolean }[] = [];
  for (let i = 0; i < view.length; i++) {
    const m = view[i]!;
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    let end = i + 1;
    while (end < view.length && view[end]!.role === 'tool') end++;
    out.push({ start: i, end, protectedRound: m.toolCalls.some((c) => PROTECTED_TOOLS.has(c.name)) });
  }
  return out;
}

/** The view with a compaction state applied. */
export function applyCompaction(
  view: readonly ChatMessage[],
  state: CompactionState,
  spool: Spool | undefined,
): CompactedView {
  if (state.stubBefore <= 0 && state.omitBefore <= 0) return { messages: view, stubbed: 0, omitted: 0 };
  const toolOf = new Map<string, string>();
  const omit = new Set<number>();
  for (const r of rounds(view)) {
    const a = view[r.start] as AssistantMessage;
    for (const c of a.toolCalls ?? []) toolOf.set(c.id, c.name);
    if (r.end <= state.omitBefore && !r.protectedRound) for (let i = r.start; i < r.end; i++) omit.add(i);
  }
  const out: ChatMessage[] = [];
  let stubbed = 0;
  let noteAt = -1;
  for (let i = 0; i < view.length; i++) {
    const m = view[i]!;
    if (omit.has(i)) {
      if (noteAt < 0) {
        noteAt = out.length;
        out.push(m); // replaced by the note below, once the count is known
      }
      continue;
    }
    if (i < state.stubBefore && m.role === 'tool') {
      const tool = toolOf.get(m.toolCallId) ?? 'tool';
      if (PROTECTED_TOOLS.has(tool)) out.push(m);
      else {
        const s = stubOf(m, tool, spool);
        if (s.content !== m.content) stubbed++;
        out.push(s);
      }
    } else if (i < state.stubBefore && m.role === 'assistant') {
      out.push(slimmed(m));
    } else {
      out.push(m);
    }
  }
  if (noteAt >= 0) {
    out[noteAt] = {
      role: 'user',
      content:
        `[compacted: ${omit.size} earlier messages (tool calls and their results) were left out of this request ` +
        'to fit the context window. What they found is reflected in the messages that follow.]',
    };
  }
  return { messages: out, stubbed, omitted: omit.size };
}

/** Where the latest `turns` assistant messages begin (everything from there stays whole). */
export function startOfLatestTurns(view: readonly ChatMessage[], turns: number): number {
  let seen = 0;
  for (let i = view.length - 1; i >= 0; i--) {
    if (view[i]!.role === 'assistant' && ++seen === turns) return i;
  }
  return 0;
}

/**
 * The least compaction (from `current` on: boundaries never move back) whose view measures at or
 * under `targetTokens`; the most aggressive one when none does.
 */
export function planCompaction(
  view: readonly ChatMessage[],
  current: CompactionState,
  targetTokens: number,
  measure: (messages: readonly ChatMessage[]) => number,
  spool: Spool | undefined,
): { state: CompactionState; view: CompactedView } {
  let best: { state: CompactionState; view: CompactedView } | undefined;
  const fits = (state: CompactionState) => {
    const v = applyCompaction(view, state, spool);
    best = { state, view: v };
    return measure(v.messages) <= targetTokens;
  };
  const ends = rounds(view).map((r) => r.end);
  for (const keep of [3, 2, 1]) {
    const stubBefore = Math.max(current.stubBefore, startOfLatestTurns(view, keep));
    if (fits({ stubBefore, omitBefore: current.omitBefore })) return best!;
    for (const end of ends) {
      if (end <= current.omitBefore) continue;
      if (end > stubBefore) break;
      if (fits({ stubBefore, omitBefore: end })) return best!;
    }
  }
  return best ?? { state: current, view: applyCompaction(view, current, spool) };
}
