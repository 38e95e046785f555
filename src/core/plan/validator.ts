/**
 * The plan validator (rules §3). A plan is valid when it has the four required sections, a
 * non-empty Summary, at least one step, one validation item and one assumption, no placeholder,
 * no unresolved open decision, and every step is valid. A file reference written as a markdown link
 * or an editor URI is a warning (`summary.warnings`), shown to the person and named in a repair.
 */
import type { PlanError, PlanSummary } from './types';
import {
  ASSUMPTIONS,
  DEPENDENCIES,
  EXPECTED_OUTCOMES,
  IMPLEMENTATION_STEPS,
  REQUIRED_SECTIONS,
  SUMMARY,
  TEST_CASES,
  sectionItems,
  sectionLines,
  splitSections,
  type PlanLine,
  type SplitPlan,
} from './sections';
import { parseSteps, publicStep, stepErrors } from './steps';
import { linkWarnings, openDecisionErrors, placeholderErrors } from './placeholders';
import { REJECTED_DRAFT_MAX_BYTES, boundUtf8 } from './text';
import { blankTrackerBlock } from './trackerBlock';

export type { PlanError, PlanSummary, PlanWarning, ParsedStep } from './types';

/** The canonical step form shown in every repair request. */
export const CANONICAL_STEP_FORM = '1. Action -> files: [path/to/file.ts] -> verify: [npm test]';

/** How many plan texts have been validated in this process: the test that a plan is parsed once per revision reads it. */
export const validationCount = { runs: 0 };

/**
 * Validates plan markdown (the text inside `<proposed_plan>`, or a plan file). An embedded tracker
 * block is ignored. Never throws.
 */
export function validatePlan(markdown: string): { valid: boolean; errors: PlanError[]; summary: PlanSummary } {
  validationCount.runs++;
  const split = splitSections(blankTrackerBlock(markdown));
  const errors: PlanError[] = [];
  const present = new Set(split.sections.map((s) => s.name));

  const summaryText = sectionItems(sectionLines(split, SUMMARY)).join('\n').trim();
  if (present.has(SUMMARY) && summaryText.length === 0) {
    errors.push({
      message: `section "Summary" is empty: write 1-3 lines on the goal, the user impact and what changes`,
      line: split.sections.find((s) => s.name === SUMMARY)?.line,
    });
  }

  // A compact plan without a steps heading keeps its numbered steps in the Summary, before the first
  // section or in a section of its own (`## Implementation Plan`): those are its Implementation Steps.
  const drafts = present.has(IMPLEMENTATION_STEPS)
    ? parseSteps(sectionLines(split, IMPLEMENTATION_STEPS))
    : parseSteps(linesOutsideSections(split, [TEST_CASES, ASSUMPTIONS, EXPECTED_OUTCOMES, DEPENDENCIES]));
  if (drafts.length > 0) present.add(IMPLEMENTATION_STEPS);
  if (present.has(IMPLEMENTATION_STEPS) && drafts.length === 0) {
    errors.push({
      message: `section "Implementation Steps" has no numbered steps: write each step as "${CANONICAL_STEP_FORM}"`,
      line: split.sections.find((s) => s.name === IMPLEMENTATION_STEPS)?.line,
    });
  }
  for (const step of drafts) errors.push(...stepErrors(step));
  const missing: PlanError[] = [];
  for (const req of REQUIRED_SECTIONS) {
    if (present.has(req.name)) continue;
    const alias = req.alias ? ` (or its short form "${req.alias}")` : '';
    missing.push({ message: `missing required section "${req.name}"${alias}: add a "## ${req.name}" heading` });
  }
  errors.unshift(...missing);

  const validationItems = sectionItems(sectionLines(split, TEST_CASES));
  if (present.has(TEST_CASES) && validationItems.length === 0) {
    errors.push({
      message: `section "Test Cases and Validation" has no items: list at least one command or check, e.g. "- tests: npm test"`,
      line: split.sections.find((s) => s.name === TEST_CASES)?.line,
    });
  }
  const assumptions = sectionItems(sectionLines(split, ASSUMPTIONS));
  if (present.has(ASSUMPTIONS) && assumptions.length === 0) {
    errors.push({
      message: `section "Assumptions and Defaults" has no items: list at least one assumption or default chosen`,
      line: split.sections.find((s) => s.name === ASSUMPTIONS)?.line,
    });
  }

  errors.push(...placeholderErrors(split.lines), ...openDecisionErrors(split.lines));

  const summary: PlanSummary = {
    title: split.title,
    summary: summaryText,
    steps: drafts.map(publicStep),
    validationItems,
    assumptions,
    sections: split.sections.map((s) => s.name),
    warnings: linkWarnings(split.lines),
  };
  return { valid: errors.length === 0, errors: errors.map(dropUndefined), summary };
}

/** The plan's lines outside the sections named (their heading lines included). */
function linesOutsideSections(split: SplitPlan, names: readonly string[]): PlanLine[] {
  const skip = new Set<number>();
  for (const section of split.sections.filter((x) => names.includes(x.name))) {
    skip.add(section.line);
    for (const l of section.lines) skip.add(l.line);
  }
  return split.lines.filter((l) => !skip.has(l.line));
}

function dropUndefined(e: PlanError): PlanError {
  const out: PlanError = { message: e.message };
  if (e.step !== undefined) out.step = e.step;
  if (e.line !== undefined) out.line = e.line;
  if (e.hint !== undefined) out.hint = e.hint;
  return out;
}

/**
 * The one bounded repair request (rules §3): which steps failed and why ("N of M implementation
 * steps"), every other problem, the canonical step form, and the rejected draft bounded to 8 KiB.
 */
export function buildRepairFeedback(markdown: string, errors: PlanError[], summary: PlanSummary): string {
  const total = summary.steps.length;
  const failedSteps = [...new Set(errors.filter((e) => e.step !== undefined).map((e) => e.step as number))].sort(
    (a, b) => a - b,
  );
  const out: string[] = ['The proposed plan was rejected by the plan validator and was not saved.'];
  out.push(`${failedSteps.length} of ${total} implementation steps failed validation.`);
  const stepProblems = errors.filter((e) => e.step !== undefined);
  if (stepProblems.length > 0) {
    out.push('', 'Failing steps:');
    for (const n of failedSteps) {
      const step = summary.steps.find((s) => s.index === n);
      const reasons = stepProblems
        .filter((e) => e.step === n)
        .map((e) => `${e.message.replace(/^step \d+: /, '')}${e.hint ? ` (${e.hint})` : ''}`);
      const shown = step ? `: ${firstLine(step.text)}` : '';
      out.push(`- step ${n}${shown}`, ...reasons.map((r) => `  - ${r}`));
    }
  }
  const other = errors.filter((e) => e.step === undefined);
  if (other.length > 0) {
    out.push('', 'Other problems:', ...other.map((e) => `- ${e.message}`));
  }
  if (summary.warnings.length > 0) {
    out.push('', 'Also fix (these alone would not reject the plan):', ...summary.warnings.map((w) => `- ${w.message}`));
  }
  out.push(
    '',
    'Write every implementation step in the canonical form:',
    CANONICAL_STEP_FORM,
    'Required sections: Summary, Implementation Steps, Test Cases and Validation, Assumptions and Defaults.',
    'Re-emit the whole corrected plan in one <proposed_plan>...</proposed_plan> block.',
  );
  const bounded = boundUtf8(markdown, REJECTED_DRAFT_MAX_BYTES);
  const note = bounded.truncated ? ` (first ${REJECTED_DRAFT_MAX_BYTES} of ${bounded.bytes} bytes)` : '';
  out.push('', `Rejected draft${note}:`, '<rejected_plan>', bounded.text, '</rejected_plan>');
  return out.join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
