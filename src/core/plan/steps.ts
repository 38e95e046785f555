/**
 * Implementation steps (rules §3): numbered lines (`N.`, `N)`, `N:`, optionally `Step N:`, bold
 * or not), each followed by its unnumbered continuation lines. The first line is split on `->`
 * (`→` counts); a `verify:`/`verification:` segment is the check, the segments between action and
 * check are targets. Continuation lines labelled `files:`, `files/symbols:`, `target:`, `verify:`…
 * add targets and checks, bulleted and bold or not.
 */
import type { PlanError, ParsedStep } from './types';
import { HEADING, type PlanLine } from './sections';
import { splitArrows, stripEmphasis, valueItems, verifyItems } from './text';
import { judgeVerifyEntry, verifyEntryOf } from './verification';

export const STEP_ERROR_TARGET = 'must name a concrete file, symbol, or behavior target';
export const STEP_ERROR_NO_VERIFY = 'must include a `verify:` or `verification:` marker';
export const STEP_ERROR_VAGUE_VERIFY = 'verification marker must include a concrete command or check';

/** A parsed step plus what the validator needs to judge it. */
export interface StepDraft extends Omit<ParsedStep, 'entries'> {
  hasVerifyMarker: boolean;
  /** Each target segment or line as its items: every group must name something concrete. */
  targetGroups: string[][];
}

const STEP_LINE = /^(\s*)(?:\*\*|__)?(?:step\s+)?(\d+)\s*[.):](?:\*\*|__)?(?:\s+(.*))?$/i;
const LABEL =
  /^(?:\*\*|__)?\s*(files\/symbols|files|file|symbols|symbol|targets|target|behaviou?r|verification|verify|outcomes?)\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*)$/i;

export type LabelKind = 'target' | 'verify' | 'outcome';

/** Recognises a labelled segment or continuation line (`files:`, `verify:`, `outcome:`…); undefined for plain text. */
export function labelled(text: string): { kind: LabelKind; value: string } | undefined {
  const m = LABEL.exec(text.trim());
  if (!m) return undefined;
  const label = (m[1] as string).toLowerCase();
  // A closing `**` may trail the value when the whole segment was bold: `**verify: npm test**`.
  const value = (m[2] as string).replace(/(?:\*\*|__)\s*$/, '').trim();
  if (label === 'verify' || label === 'verification') return { kind: 'verify', value };
  if (label.startsWith('outcome')) return { kind: 'outcome', value };
  return { kind: 'target', value };
}

function cleanItem(item: string): string {
  return item
    .trim()
    .replace(/^`(.*)`$/s, '$1')
    .trim();
}

function cleanItems(items: readonly string[]): string[] {
  return items.map(cleanItem).filter((c) => c.length > 0);
}

/** Adds one target segment: its items to the targets, and the segment as one group. */
function addTargets(step: StepDraft, value: string): void {
  const items = cleanItems(valueItems(value));
  step.targets.push(...items);
  step.targetGroups.push(items);
}

/** Adds a `verify:` value's checks: a bracket list's items, else the whole text as one check. */
function addChecks(step: StepDraft, value: string): void {
  step.hasVerifyMarker = true;
  step.verify.push(...cleanItems(verifyItems(value)));
}

/** Parses the numbered steps out of the Implementation Steps section's lines. */
export function parseSteps(lines: readonly PlanLine[]): StepDraft[] {
  const steps: StepDraft[] = [];
  let baseIndent: number | undefined;
  let current: StepDraft | undefined;
  for (const l of lines) {
    const m = l.inFence ? null : STEP_LINE.exec(l.text);
    const indent = m ? (m[1] as string).length : 0;
    if (m && (baseIndent === undefined || indent <= baseIndent + 1)) {
      baseIndent ??= indent;
      current = startStep(steps.length + 1, l, (m[3] ?? '').trim());
      steps.push(current);
      continue;
    }
    if (!l.inFence && HEADING.test(l.text)) {
      current = undefined; // a subsection heading (`### Phase 2`) ends the step
      continue;
    }
    if (!current) continue;
    current.text += `\n${l.text}`;
    if (l.inFence) continue;
    const body = l.text.trim().replace(/^[-*+]\s+/, '');
    const label = labelled(body);
    if (!label) continue;
    if (label.kind === 'verify') addChecks(current, label.value);
    else if (label.kind === 'target') addTargets(current, label.value);
  }
  return steps;
}

function startStep(index: number, l: PlanLine, rest: string): StepDraft {
  const segments = splitArrows(rest);
  const step: StepDraft = {
    index,
    line: l.line,
    action: (segments[0] ?? '').trim(),
    targets: [],
    verify: [],
    text: l.text,
    hasVerifyMarker: false,
    targetGroups: [],
  };
  for (const segment of segments.slice(1)) {
    const label = labelled(segment);
    if (!label) addTargets(step, segment);
    else if (label.kind === 'verify') addChecks(step, label.value);
    else if (label.kind === 'target') addTargets(step, label.value);
  }
  return step;
}

const GENERIC_EXACT = new Set([
  'file',
  'files',
  'code',
  'implementation',
  'relevant code',
  'appropriate files',
  'the implementation',
  'existing code',
  '[file]',
  'foo bar',
]);
const GENERIC_PREFIXES = [
  'relevant ',
  'appropriate ',
  'affected ',
  'existing ',
  'changed ',
  'all ',
  'the ',
  'a ',
  'an ',
  'some ',
  'any ',
];
/**
 * Words that name no particular thing: a behaviour phrase needs two words besides these
 * (`implementation details`, `foo bar` and `code changes` name nothing; `startup timing report` does).
 */
const FILLER_WORDS = new Set([
  'implementation',
  'implementations',
  'detail',
  'details',
  'code',
  'codebase',
  'file',
  'files',
  'path',
  'paths',
  'symbol',
  'symbols',
  'module',
  'modules',
  'component',
  'components',
  'feature',
  'features',
  'behavior',
  'behaviour',
  'target',
  'targets',
  'change',
  'changes',
  'update',
  'updates',
  'stuff',
  'thing',
  'things',
  'part',
  'parts',
  'misc',
  'various',
  'etc',
  'foo',
  'bar',
  'baz',
  'qux',
  'the',
  'a',
  'an',
  'of',
  'and',
  'or',
  'to',
  'in',
  'on',
  'for',
  'with',
  'all',
  'some',
  'any',
  'other',
  'relevant',
  'appropriate',
  'affected',
  'existing',
  'changed',
]);
/** Well-known files without an extension (`Makefile`, `LICENSE`), lower-cased: a target or a scope may name one. */
export const EXTENSIONLESS_FILES: ReadonlySet<string> = new Set([
  'makefile',
  'dockerfile',
  'gemfile',
  'rakefile',
  'procfile',
  'justfile',
  'vagrantfile',
  'brewfile',
  'license',
  'readme',
  'changelog',
]);

/** True when one word of a target is concrete: a path, a symbol, or a file name. */
function isConcreteWord(word: string): boolean {
  const w = word.replace(/^[("'[]+|[)"',.;:\]!?]+$/g, '');
  if (w.length === 0) return false;
  if (/[/\\_]|::/.test(w)) return true;
  if (/^[^.\s]+(?:\.[^.\s]+)*\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(w) && /[A-Za-z0-9]\./.test(w)) return true;
  if (/^.+[A-Z]/u.test(w)) return true;
  return EXTENSIONLESS_FILES.has(w.toLowerCase());
}

/**
 * Rules §3 "concrete target": some word is a path (`/`, `\`), a symbol (`::`, `_`, an uppercase
 * letter after the first character) or a file name with an extension; or the target is a
 * behaviour phrase of at least two words. Generic targets (`relevant code`, `the implementation`…)
 * fail; a generic prefix only fails when no word is concrete.
 */
export function isConcreteTarget(target: string): boolean {
  const text = stripEmphasis(target).trim();
  const norm = text.toLowerCase().replace(/\s+/g, ' ');
  if (norm.length === 0) return false;
  if (GENERIC_EXACT.has(norm) || GENERIC_EXACT.has(norm.replace(/^\[|\]$/g, ''))) return false;
  const words = norm.split(' ');
  if (text.split(/\s+/).some(isConcreteWord)) return true;
  if (GENERIC_PREFIXES.some((p) => norm.startsWith(p))) return false;
  const named = words.map((w) => w.replace(/[^\p{L}\p{N}-]/gu, '')).filter((w) => w.length > 0);
  return named.length >= 2 && named.filter((w) => !FILLER_WORDS.has(w)).length >= 2;
}

function quoteList(items: readonly string[]): string {
  return items.map((i) => `"${i.length > 80 ? `${i.slice(0, 77)}...` : i}"`).join(', ');
}

/** The problem of each entry that is not a concrete command or check, naming what is wrong with it. */
function verifyProblems(items: readonly string[]): string[] {
  const out: string[] = [];
  items.forEach((item, i) => {
    const j = judgeVerifyEntry(item);
    if (j.ok) return;
    const which = items.length > 1 ? `check ${i + 1} ` : '';
    out.push(j.problem.includes(item) ? `${which}${j.problem}` : `${which}${quoteList([item])}: ${j.problem}`);
  });
  return out;
}

/** The step errors of rules §3, in order, reported as `step N: reason`, each with a hint naming what is wrong. */
export function stepErrors(step: StepDraft): PlanError[] {
  const errors: PlanError[] = [];
  const fail = (reason: string, hint: string) =>
    errors.push({ message: `step ${step.index}: ${reason}`, step: step.index, line: step.line, hint });
  const vagueGroups = step.targetGroups.filter((g) => !g.some(isConcreteTarget));
  if (step.targetGroups.length === 0 || vagueGroups.length > 0) {
    const empty = vagueGroups.some((g) => g.length === 0);
    fail(
      STEP_ERROR_TARGET,
      step.targetGroups.length === 0
        ? 'no target given (the action text does not count): add "-> files: [path/to/file.ts]" after the action, or a "files:" line under the step'
        : empty
          ? 'the target list is empty ("files: []"): name the files or symbols this step changes'
          : `too generic: ${quoteList(vagueGroups.flat())}; name a path (src/a.ts), a symbol (parseCase, mod::fn) or a behaviour of two or more words`,
    );
  }
  if (!step.hasVerifyMarker) {
    fail(STEP_ERROR_NO_VERIFY, 'end the step line with "-> verify: [npm test]" or add a "verify:" line under the step');
  } else {
    const problems = step.verify.length === 0 ? ['the verify: marker is empty'] : verifyProblems(step.verify);
    if (problems.length > 0) fail(STEP_ERROR_VAGUE_VERIFY, problems.join('; '));
  }
  return errors;
}

/** The public view of a step draft. */
export function publicStep(step: StepDraft): ParsedStep {
  return {
    index: step.index,
    line: step.line,
    action: step.action,
    targets: [...step.targets],
    verify: [...step.verify],
    entries: step.verify.map(verifyEntryOf),
    text: step.text.trimEnd(),
  };
}
