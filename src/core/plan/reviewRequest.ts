/**
 * The revision request a review sends to the planner: every unresolved thread once, each quoted
 * with its element, the element's current text and its id, then the person's optional general
 * note. The planner answers each thread with `reply_to_review_comment` and re-emits the plan.
 */
import { locateAnchor, planElements } from './anchors';
import { openThreads, type ReviewFile } from './review';
import { anchorLabel } from './anchors';

function quote(text: string): string {
  const body = text.trim().length > 0 ? text.trimEnd() : '(empty)';
  return body
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
}

export interface RevisionRequest {
  /** The text of the request (the planner's next user message). */
  readonly body: string;
  /** The threads it carries, in order. */
  readonly threads: readonly string[];
}

/**
 * The request for `review`'s unresolved threads against the plan text now (`markdown`); undefined
 * when there is neither an unresolved thread nor a note.
 */
export function revisionRequest(review: ReviewFile, markdown: string, note?: string): RevisionRequest | undefined {
  const open = openThreads(review);
  const general = note?.trim() ?? '';
  if (open.length === 0 && general.length === 0) return undefined;
  if (open.length === 0) return { body: `Revise the plan: ${general}`, threads: [] };
  const elements = planElements(markdown);
  const out: string[] = [
    `Revise the plan. The person left ${open.length} review comment${open.length === 1 ? '' : 's'} on it.`,
    'For every thread below, call reply_to_review_comment once with its id, your reply, and status "addressed" (the revised plan deals with it) or "declined" (with the reason). Then re-emit the whole revised plan in one <proposed_plan>...</proposed_plan> block.',
  ];
  for (const t of open) {
    const element = locateAnchor(elements, t.anchor);
    out.push('', `<review_thread id="${t.id}" element="${anchorLabel(t.anchor)}">`);
    if (t.outdated) {
      out.push(
        t.outdated.vanished
          ? `The element this thread was written on is no longer in the plan. It read:`
          : `The thread was written on an earlier text of this element:`,
        quote(t.outdated.text),
      );
    }
    if (!t.outdated?.vanished) out.push('Current text of the element:', quote(element?.text ?? t.text));
    for (const c of t.comments) {
      const who = c.author === 'person' ? 'Person' : `Planner${c.verdict ? ` (${c.verdict})` : ''}`;
      out.push(`${who}:`, quote(c.reason ? `${c.body}\nReason: ${c.reason}` : c.body));
    }
    out.push('</review_thread>');
  }
  if (general.length > 0) out.push('', 'General note from the person:', quote(general));
  return { body: out.join('\n'), threads: open.map((t) => t.id) };
}
