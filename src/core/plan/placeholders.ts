/**
 * Whole-plan checks of rules §3: placeholder tokens and unresolved open decisions (errors), and
 * file references written as markdown links or editor URIs (warnings).
 */
import type { PlanError, PlanWarning } from './types';
import type { PlanLine } from './sections';

/**
 * Placeholder tokens (case-insensitive substrings): the rules' list plus every bracketed phrase of
 * the plan template in the planning documentation, and the path of the canonical step form.
 */
export const PLACEHOLDERS: readonly string[] = [
  '[step]',
  '[paths]',
  '[check]',
  '[explicit assumption]',
  '[todo]',
  'todo:',
  '[decision needed]',
  'tbd',
  '[file, symbol, or behavior confirmed from the repo]',
  '[file:symbol or behaviour confirmed from the repo]',
  '[observed command output -> the insight it establishes]',
  '[if any]',
  '[task title]',
  '[1-3 lines: goal, user impact, what changes / what does not]',
  '[action]',
  '[path/to/file.rs]',
  '[path/to/file.ts]',
  '[detected toolchain command]',
  '[targeted check]',
  '[observable end state the implementation must produce]',
  '[required tooling, configuration, or prior work]',
  '[assumption or default chosen]',
  '[out-of-scope item intentionally not changed]',
  '[out-of-scope items intentionally not changed]',
  '[default chosen when user did not specify]',
  '[existing pattern or constraint verified before planning]',
  '[project build and lint command',
  '[project test command',
  '[2-4 lines: goal, user impact, what will change, what will not]',
  '[explicit commands/manual checks]',
  '[what must not break]',
];

/** One error per placeholder occurrence (first occurrence per line and token). */
export function placeholderErrors(lines: readonly PlanLine[]): PlanError[] {
  const errors: PlanError[] = [];
  for (const l of lines) {
    const lower = l.text.toLowerCase();
    for (const token of PLACEHOLDERS) {
      if (!lower.includes(token)) continue;
      errors.push({
        message: `line ${l.line}: placeholder "${token}" left in the plan; replace it with the real content`,
        line: l.line,
      });
    }
  }
  return errors;
}

const OPEN_DECISION = /next open decision|open question/i;
const RESOLVED =
  /\bnone\b|\bno open\b|\bno remaining\b|\bno further\b|\bresolved\b|\bclosed\b|\bn\/a\b|\bnot applicable\b/i;

/** A `Next open decision` or `Open question` line blocks approval unless it says it is resolved. */
export function openDecisionErrors(lines: readonly PlanLine[]): PlanError[] {
  const errors: PlanError[] = [];
  for (const l of lines) {
    if (!OPEN_DECISION.test(l.text) || RESOLVED.test(l.text)) continue;
    const shown = l.text.trim().length > 120 ? `${l.text.trim().slice(0, 117)}...` : l.text.trim();
    errors.push({
      message: `line ${l.line}: unresolved open decision "${shown}"; decide it (ask the person if needed) or write "No remaining scope decisions."`,
      line: l.line,
    });
  }
  return errors;
}

const MARKDOWN_LINK = /!?\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?[^)]*\)/g;
const EDITOR_URI = /\b(?:vscode-file|vscode-insiders|vscode|cursor|file):\/\/[^\s)\]>`'"]*/gi;
const WEB_LINK = /^(?:https?:|mailto:|#)/i;

/**
 * File references belong in plain text or inline code (`src/main.rs:42`): a markdown link to a
 * file and any `file://` / `vscode-file://` editor URI are warned about, never refused (VT Code
 * accepts such plans). Links to web pages are fine.
 */
export function linkWarnings(lines: readonly PlanLine[]): PlanWarning[] {
  const errors: PlanWarning[] = [];
  for (const l of lines) {
    if (l.inFence) continue;
    const reported = new Set<string>();
    for (const m of l.text.matchAll(MARKDOWN_LINK)) {
      const target = m[2] as string;
      if (WEB_LINK.test(target)) continue;
      reported.add(target);
      errors.push({
        message: `line ${l.line}: file reference written as a markdown link "${m[0]}"; write it as plain text or inline code, e.g. src/main.rs:42`,
        line: l.line,
      });
    }
    for (const m of l.text.matchAll(EDITOR_URI)) {
      if ([...reported].some((t) => t.includes(m[0]))) continue;
      errors.push({
        message: `line ${l.line}: editor URI "${m[0]}" in the plan; write the file reference as plain text, e.g. src/main.rs:42`,
        line: l.line,
      });
    }
  }
  return errors;
}
