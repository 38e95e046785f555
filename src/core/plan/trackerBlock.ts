/**
 * The tracker block embedded in a plan file (rules §4, shared with VT Code): everything between
 * `<!-- vtcode:plan-tracker:start -->` and `<!-- vtcode:plan-tracker:end -->`.
 */

export const TRACKER_BLOCK_START = '<!-- vtcode:plan-tracker:start -->';
export const TRACKER_BLOCK_END = '<!-- vtcode:plan-tracker:end -->';

function blockRange(markdown: string): { start: number; end: number } | undefined {
  const start = markdown.indexOf(TRACKER_BLOCK_START);
  if (start < 0) return undefined;
  const close = markdown.indexOf(TRACKER_BLOCK_END, start + TRACKER_BLOCK_START.length);
  return { start, end: close < 0 ? markdown.length : close + TRACKER_BLOCK_END.length };
}

/** The text inside the block, or undefined when the plan has none. */
export function extractTrackerBlock(markdown: string): string | undefined {
  const r = blockRange(markdown);
  if (!r) return undefined;
  const inner = markdown.slice(r.start + TRACKER_BLOCK_START.length, r.end);
  return inner.endsWith(TRACKER_BLOCK_END) ? inner.slice(0, -TRACKER_BLOCK_END.length) : inner;
}

/** The plan without its tracker block (and without the blank lines that separated it). */
export function stripTrackerBlock(markdown: string): string {
  const r = blockRange(markdown);
  if (!r) return markdown;
  const before = markdown.slice(0, r.start).replace(/\s+$/, '');
  const after = markdown.slice(r.end).replace(/^\s+/, '');
  const joined = after.length > 0 ? `${before}\n\n${after}` : before;
  return joined.length > 0 ? `${joined}\n` : '';
}

/** The plan with the block's lines blanked, so line numbers of everything else stay the same. */
export function blankTrackerBlock(markdown: string): string {
  const r = blockRange(markdown);
  if (!r) return markdown;
  const blanked = markdown.slice(r.start, r.end).replace(/[^\r\n]+/g, '');
  return markdown.slice(0, r.start) + blanked + markdown.slice(r.end);
}

/**
 * The plan with `inner` as the text between the markers of its tracker block, everything outside
 * the block kept byte for byte; a plan without a whole block gets one (`embedTrackerBlock`).
 */
export function replaceTrackerBlockText(markdown: string, inner: string): string {
  const r = blockRange(markdown);
  if (!r || !markdown.slice(0, r.end).endsWith(TRACKER_BLOCK_END)) return embedTrackerBlock(markdown, inner);
  const from = r.start + TRACKER_BLOCK_START.length;
  return markdown.slice(0, from) + inner + markdown.slice(r.end - TRACKER_BLOCK_END.length);
}

/** The plan with `body` as its tracker block, replacing an existing block or appended at the end. */
export function embedTrackerBlock(markdown: string, body: string): string {
  const plan = stripTrackerBlock(markdown).replace(/\s+$/, '');
  const text = body.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
  const block = `${TRACKER_BLOCK_START}\n${text}\n${TRACKER_BLOCK_END}\n`;
  return plan.length > 0 ? `${plan}\n\n${block}` : block;
}
