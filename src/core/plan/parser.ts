/**
 * Streaming extraction of the `<proposed_plan>` block (rules §2).
 *
 * The model's text arrives in deltas. Everything outside the tags is visible prose; everything
 * inside is the plan. A tag may be split across any chunk boundary, so the parser holds back the
 * shortest tail that could still become a tag, and it never lets half of a surrogate pair out.
 * The plan text is trimmed: leading whitespace after the opening tag is dropped and trailing
 * whitespace is held back until more plan text follows, so the concatenation of every `plan`
 * delta equals `planText`.
 *
 * When a response holds several blocks, the last one is the plan ("the final block"): starting a
 * new block resets `planText`, and the push that does so reports `planRestarted: true`.
 */

export const PLAN_OPEN_TAG = '<proposed_plan>';
export const PLAN_CLOSE_TAG = '</proposed_plan>';

/** What one `push` or `end` released. */
export interface PlanChunk {
  /** Text that became visible prose in this call. */
  visible: string;
  /** Plan text released in this call (a delta of `planText`). */
  plan: string;
  /** True when a second block started in this call and replaced the earlier plan text. */
  planRestarted?: boolean;
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagSuffix(text: string, tag: string): number {
  const max = Math.min(text.length, tag.length - 1);
  for (let n = max; n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Incremental `<proposed_plan>` splitter: feed deltas with `push`, finish with `end`. */
export class PlanStreamParser {
  private buffer = '';
  private inside = false;
  private ended = false;
  private blocks = 0;
  private plan = '';
  /** Whitespace inside the plan held back until non-whitespace follows (dropped at the block's end). */
  private heldWhitespace = '';
  /** True until the first non-whitespace character of the current block. */
  private atBlockStart = false;
  private visibleSoFar = '';

  /** Feed one text delta; returns what became visible and what plan text was released. */
  push(delta: string): PlanChunk {
    if (this.ended) throw new Error('PlanStreamParser.push called after end(); create a new parser per response');
    this.buffer += delta;
    return this.drain(false);
  }

  /** Flush everything held back. An unclosed block counts as the plan (rules §2). */
  end(): PlanChunk {
    if (this.ended) return { visible: '', plan: '' };
    const out = this.drain(true);
    this.ended = true;
    return out;
  }

  /** The plan text (trimmed), or undefined when no `<proposed_plan>` tag was seen. */
  get planText(): string | undefined {
    return this.blocks > 0 ? this.plan : undefined;
  }

  /** True once an opening tag has been seen. */
  get sawPlan(): boolean {
    return this.blocks > 0;
  }

  /** All visible prose released so far. */
  get visibleText(): string {
    return this.visibleSoFar;
  }

  /** True while the stream is inside an unclosed block. */
  get insidePlan(): boolean {
    return this.inside;
  }

  private drain(final: boolean): PlanChunk {
    let visible = '';
    let plan = '';
    let restarted = false;
    for (;;) {
      const tag = this.inside ? PLAN_CLOSE_TAG : PLAN_OPEN_TAG;
      const at = this.buffer.indexOf(tag);
      if (at >= 0) {
        const before = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + tag.length);
        if (this.inside) {
          plan += this.takePlan(before);
          this.heldWhitespace = '';
          this.inside = false;
        } else {
          visible += before;
          if (this.blocks > 0) {
            restarted = true;
            plan = '';
          }
          this.blocks++;
          this.plan = '';
          this.heldWhitespace = '';
          this.atBlockStart = true;
          this.inside = true;
        }
        continue;
      }
      let keep = final ? 0 : partialTagSuffix(this.buffer, tag);
      if (
        !final &&
        keep === 0 &&
        this.buffer.length > 0 &&
        isHighSurrogate(this.buffer.charCodeAt(this.buffer.length - 1))
      ) {
        keep = 1;
      }
      const released = this.buffer.slice(0, this.buffer.length - keep);
      this.buffer = this.buffer.slice(this.buffer.length - keep);
      if (this.inside) plan += this.takePlan(released);
      else visible += released;
      break;
    }
    this.visibleSoFar += visible;
    const out: PlanChunk = { visible, plan };
    if (restarted) out.planRestarted = true;
    return out;
  }

  /** Appends block text to the plan, trimming at the block's start and holding trailing whitespace. */
  private takePlan(text: string): string {
    if (text.length === 0) return '';
    let t = text;
    if (this.atBlockStart) {
      t = t.replace(/^\s+/, '');
      if (t.length === 0) return '';
      this.atBlockStart = false;
    }
    let cut = t.length;
    while (cut > 0 && /\s/.test(t[cut - 1] ?? '')) cut--;
    const body = t.slice(0, cut);
    const trailing = t.slice(cut);
    let released = '';
    if (body.length > 0) {
      released = this.heldWhitespace + body;
      this.heldWhitespace = trailing;
    } else {
      this.heldWhitespace += trailing;
    }
    this.plan += released;
    return released;
  }
}

/** Splits a completed response into visible prose and the plan (the last block; unclosed counts). */
export function extractPlan(completed: string): { visible: string; plan?: string } {
  const parser = new PlanStreamParser();
  const a = parser.push(completed);
  const b = parser.end();
  const visible = a.visible + b.visible;
  const plan = parser.planText;
  return plan === undefined ? { visible } : { visible, plan };
}

/** Wraps a plan in one canonical block. */
export function canonicalPlanBlock(plan: string): string {
  return `${PLAN_OPEN_TAG}\n${plan}\n${PLAN_CLOSE_TAG}`;
}

/**
 * Reconciles the streamed text with the provider's completed content (rules §2): the completed
 * content wins when it is present; the plan comes from it when it holds a block, otherwise from
 * the stream. `response` is the visible text with exactly one canonical plan block appended, so
 * the plan is attached once and never duplicated.
 */
export function finalizeResponse(
  streamed: PlanStreamParser,
  completed?: string,
): { visible: string; plan?: string; response: string } {
  streamed.end();
  let visible = streamed.visibleText;
  let plan = streamed.planText;
  if (completed !== undefined && completed.trim().length > 0) {
    const fromCompleted = extractPlan(completed);
    visible = fromCompleted.visible;
    if (fromCompleted.plan !== undefined) plan = fromCompleted.plan;
  }
  if (plan === undefined) return { visible, response: visible };
  const sep = visible.length === 0 || visible.endsWith('\n') ? '' : '\n';
  return { visible, plan, response: `${visible}${sep}${canonicalPlanBlock(plan)}` };
}
