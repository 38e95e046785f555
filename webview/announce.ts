/**
 * What the polite live region says when the panel's state changes: planning started, a question
 * was asked, the plan is ready, a call was blocked, a build step is done, an error. Pure: it reads
 * the facts the host sent (the engine's counts and outcomes), two states at a time.
 */
import type { TranscriptItem, ViewState } from '../src/protocol';
import { GATE_KEY_LABEL } from './consent';

/** Items at the end of the transcript that are compared (new rows and patched rows are there). */
const TAIL = 30;

export function announcement(prev: ViewState, next: ViewState): string | undefined {
  const said: string[] = [];
  const a = prev.lifecycle;
  const b = next.lifecycle;
  if (b.state !== a.state || (b.busy && !a.busy)) {
    if (b.state === 'planning' && b.busy) said.push('Planning.');
    else if (b.state === 'revising' && b.busy) said.push('Revising the plan.');
    else if (b.state === 'executing' && a.state !== 'executing') said.push('Building the plan.');
  }
  if (next.interview && next.interview.requestId !== prev.interview?.requestId) {
    const q = next.interview.questions;
    said.push(`Planwise has ${q.length === 1 ? 'a question' : `${q.length} questions`}: ${q[0]!.question}`);
  }
  if (next.gate && next.gate.requestId !== prev.gate?.requestId) {
    // The focus stays where the person has it: the announcement says how to reach the choices.
    said.push(`Plan ready: ${next.gate.title}. Ready to code? ${GATE_KEY_LABEL} goes to the choices.`);
  }
  if (next.transcript !== prev.transcript) said.push(...rowNews(prev.transcript, next.transcript));
  const da = prev.tracker?.counts.done ?? 0;
  const t = next.tracker;
  if (t && prev.tracker && t.counts.done > da) {
    said.push(`Step done: ${t.counts.done} of ${t.counts.total}, ${t.percent}%.`);
  }
  return said.length > 0 ? said.join(' ') : undefined;
}

function rowNews(before: readonly TranscriptItem[], after: readonly TranscriptItem[]): string[] {
  const old = new Map<string, TranscriptItem>();
  for (const i of before.slice(-TAIL)) old.set(i.id, i);
  const out: string[] = [];
  for (const i of after.slice(-TAIL)) {
    const was = old.get(i.id);
    if (was === i) continue;
    if (i.kind === 'tool_call' && i.outcome === 'blocked' && (was?.kind !== 'tool_call' || was.outcome !== 'blocked')) {
      // The call as the panel's row says it (its subject, markup removed), never the tool's name.
      const what = i.subject.replace(/`/g, '');
      out.push(`Not run: ${what}. ${i.verdict?.reason.replace(/^blocked:\s*/i, '') ?? ''}`.trim());
    }
    if (i.kind === 'notice' && i.level === 'error' && !was) out.push(`Error: ${i.text}`);
    if (i.kind === 'build_report' && !was) {
      out.push(`Build ${i.outcome}: ${i.counts.stepsDone} of ${i.counts.stepsTotal} steps done.`);
    }
  }
  return out;
}
