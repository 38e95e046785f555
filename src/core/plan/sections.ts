/**
 * Splits plan markdown into sections (rules §3). A section starts at a `#` heading, at a
 * standalone label line (`Summary`, `**Steps:**`) or at an inline `Label: text` line. Labels are
 * matched case-insensitively, ignoring `**`/backtick emphasis and a trailing `:`. Lines inside
 * fenced code blocks never start a section, and an unknown heading deeper than the current known
 * section's heading (`### Phase 1` under `## Implementation Steps`) is a subsection of it.
 */
import { stripEmphasis } from './text';

export const SUMMARY = 'Summary';
export const IMPLEMENTATION_STEPS = 'Implementation Steps';
export const TEST_CASES = 'Test Cases and Validation';
export const ASSUMPTIONS = 'Assumptions and Defaults';
export const EXPECTED_OUTCOMES = 'Expected Outcomes';
export const DEPENDENCIES = 'Dependencies and Prerequisites';

/** The four sections every plan needs, with their accepted short aliases. */
export const REQUIRED_SECTIONS: readonly { name: string; alias?: string }[] = [
  { name: SUMMARY },
  { name: IMPLEMENTATION_STEPS, alias: 'Steps' },
  { name: TEST_CASES, alias: 'Validation' },
  { name: ASSUMPTIONS, alias: 'Assumptions' },
];

const KNOWN: ReadonlyMap<string, string> = new Map([
  ['summary', SUMMARY],
  ['implementation steps', IMPLEMENTATION_STEPS],
  ['steps', IMPLEMENTATION_STEPS],
  ['test cases and validation', TEST_CASES],
  ['validation', TEST_CASES],
  ['assumptions and defaults', ASSUMPTIONS],
  ['assumptions', ASSUMPTIONS],
  ['expected outcomes', EXPECTED_OUTCOMES],
  ['dependencies and prerequisites', DEPENDENCIES],
]);

/** One line of the plan: its text and 1-based line number. */
export interface PlanLine {
  text: string;
  line: number;
  /** True inside a fenced code block (including the fence lines). */
  inFence: boolean;
}

export interface Section {
  /** Canonical name for a known section; the label as written for any other heading. */
  name: string;
  known: boolean;
  /** 1-based line of the heading or label. */
  line: number;
  /** Content lines, starting with the inline text of a `Label: text` line. */
  lines: PlanLine[];
}

export interface SplitPlan {
  title: string;
  titleLine?: number;
  sections: Section[];
  lines: PlanLine[];
}

/** Canonical section name for a label, or undefined. */
export function canonicalSection(label: string): string | undefined {
  const norm = stripEmphasis(label)
    .replace(/^#+\s*/, '')
    .trim()
    .replace(/:\s*$/, '')
    .replace(/\s*&\s*/g, ' and ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return KNOWN.get(norm);
}

/** A markdown ATX heading: level and text. */
export const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]\s|\d+[.):]\s)/;
const INLINE_LABEL = /^\s?(?:\*\*|__)?([^:*_`#]+?)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*)$/;

/** Lines with their numbers and fence state. */
export function planLines(markdown: string): PlanLine[] {
  const out: PlanLine[] = [];
  let fence: string | undefined;
  markdown.split(/\r?\n/).forEach((text, i) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
    if (fence === undefined && m) {
      fence = (m[1] as string)[0];
      out.push({ text, line: i + 1, inFence: true });
      return;
    }
    if (fence !== undefined) {
      out.push({ text, line: i + 1, inFence: true });
      if (m && (m[1] as string)[0] === fence) fence = undefined;
      return;
    }
    out.push({ text, line: i + 1, inFence: false });
  });
  return out;
}

/** Classifies a line that may start a section: the section name and any inline content. */
function sectionStart(
  text: string,
): { name: string; known: boolean; inline?: string; heading: boolean; level?: number } | undefined {
  const h = HEADING.exec(text);
  if (h) {
    const label = (h[2] as string).trim();
    const known = canonicalSection(label);
    const level = (h[1] as string).length;
    return known
      ? { name: known, known: true, heading: true, level }
      : { name: stripEmphasis(label).replace(/:\s*$/, '').trim(), known: false, heading: true, level };
  }
  if (LIST_ITEM.test(text) || /^\s{2,}/.test(text)) return undefined;
  const standalone = canonicalSection(text);
  if (standalone) return { name: standalone, known: true, heading: false };
  const inline = INLINE_LABEL.exec(text);
  if (inline) {
    const known = canonicalSection(inline[1] as string);
    if (known) return { name: known, known: true, inline: (inline[2] as string).trim(), heading: false };
  }
  return undefined;
}

/** Splits the plan into its title and sections. Lines before the first section belong to none. */
export function splitSections(markdown: string): SplitPlan {
  const lines = planLines(markdown);
  const sections: Section[] = [];
  let title = '';
  let titleLine: number | undefined;
  let current: Section | undefined;
  /** Heading level of the current known section; a deeper unknown heading is a subsection of it. */
  let currentLevel: number | undefined;
  for (const l of lines) {
    const start = l.inFence ? undefined : sectionStart(l.text);
    const subsection =
      start?.heading === true && !start.known && currentLevel !== undefined && (start.level ?? 0) > currentLevel;
    if (!start || subsection) {
      current?.lines.push(l);
      continue;
    }
    if (start.heading && !start.known && title === '' && (start.level === 1 || sections.length === 0)) {
      title = start.name;
      titleLine = l.line;
      current = undefined;
      continue;
    }
    current = { name: start.name, known: start.known, line: l.line, lines: [] };
    currentLevel = start.known && start.heading ? start.level : undefined;
    if (start.inline) current.lines.push({ text: start.inline, line: l.line, inFence: false });
    sections.push(current);
  }
  return titleLine === undefined ? { title, sections, lines } : { title, titleLine, sections, lines };
}

/** Content lines of every section with this canonical name, in order. */
export function sectionLines(split: SplitPlan, name: string): PlanLine[] {
  return split.sections.filter((s) => s.name === name).flatMap((s) => s.lines);
}

/** Non-empty items of a section (subsection headings and fence lines left out): bullets, numbers and checkboxes stripped. */
export function sectionItems(lines: readonly PlanLine[]): string[] {
  return lines
    .filter((l) => !(l.inFence ? /^\s{0,3}(`{3,}|~{3,})/ : HEADING).test(l.text))
    .map((l) =>
      l.text
        .trim()
        .replace(/^(?:[-*+]|\d+[.):])\s+/, '')
        .replace(/^\[[ xX~!-]\]\s+/, '')
        .trim(),
    )
    .filter((t) => t.length > 0);
}
