/**
 * Differential test against VT Code's own verdicts: its validator test cases (`vtcode-tests/`) and
 * real plans from its repository (`plans/`), read from the shared interop data as CI has it. For a
 * plan VT Code rejects, the reason Planwise gives must name the same defect class.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validatePlan } from '../../src/core/plan/validator';
import { STEP_ERROR_NO_VERIFY, STEP_ERROR_TARGET, STEP_ERROR_VAGUE_VERIFY } from '../../src/core/plan/steps';
import type { PlanError } from '../../src/core/plan/types';

const DATA = resolve(__dirname, '../../../shared/vtcode-interop');

type Row = Record<string, string>;

function table(folder: string): Row[] {
  const [head, ...lines] = readFileSync(join(DATA, folder, 'EXPECTED.tsv'), 'utf8')
    .trimEnd()
    .split('\n');
  const columns = (head ?? '').split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
  });
}

type DefectClass = 'section' | 'placeholder' | 'open-decision' | 'target' | 'marker' | 'verify';

/** VT Code's reason for one step, as a defect class. */
function vtStepClass(reason: string): DefectClass | undefined {
  if (/must name a concrete file, symbol, or behavior target|concrete target before the verification/.test(reason))
    return 'target';
  if (reason.includes('must include a `verify:` or `verification:` marker')) return 'marker';
  if (/must be a concrete command or check|must include a concrete command or check|skipped Markdown lint/.test(reason))
    return 'verify';
  return undefined;
}

/** VT Code's reasons (`a | b | …`, cut at 300 characters): the plan-level classes and each step's class. */
function vtClasses(reasons: string): { plan: Set<DefectClass>; steps: DefectClass[] } {
  const plan = new Set<DefectClass>();
  const steps: DefectClass[] = [];
  for (const part of reasons.split(' | ')) {
    if (/^missing sections:|^summary is empty|^no (implementation steps|validation items|assumptions)/.test(part))
      plan.add('section');
    else if (part.startsWith('placeholder tokens:')) plan.add('placeholder');
    else if (part.startsWith('unresolved decisions:')) plan.add('open-decision');
    else if (part.startsWith('invalid implementation steps')) {
      for (const m of part.matchAll(/step \d+: ([^;]+)/g)) {
        const c = vtStepClass(m[1] as string);
        if (c !== undefined) steps.push(c);
      }
    }
  }
  return { plan, steps };
}

/** Planwise's errors as the same classes: plan-level ones, and the first error of each failing step. */
function planwiseClasses(errors: readonly PlanError[]): { plan: Set<DefectClass>; steps: DefectClass[] } {
  const plan = new Set<DefectClass>();
  const byStep = new Map<number, DefectClass>();
  for (const e of errors) {
    if (e.step !== undefined) {
      const reason = e.message.replace(/^step \d+: /, '');
      const c: DefectClass | undefined =
        reason === STEP_ERROR_TARGET
          ? 'target'
          : reason === STEP_ERROR_NO_VERIFY
            ? 'marker'
            : reason === STEP_ERROR_VAGUE_VERIFY
              ? 'verify'
              : undefined;
      assert.ok(c !== undefined, `unknown step error ${e.message}`);
      if (!byStep.has(e.step)) byStep.set(e.step, c);
    } else if (/placeholder/.test(e.message)) plan.add('placeholder');
    else if (/unresolved open decision/.test(e.message)) plan.add('open-decision');
    else if (/missing required section|has no items|has no numbered steps|is empty/.test(e.message))
      plan.add('section');
    else assert.fail(`unclassified error ${e.message}`);
  }
  return { plan, steps: [...byStep.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c) };
}

/**
 * The two behaviours only the newest VT Code has, and not the seed (the data README names them),
 * where it contradicts rules §3, which Planwise follows:
 * - `skip Markdown lint if unavailable` (and `… validation …`) accepted for Markdown-only targets:
 *   rules §3 says "Deferrals fail: … `skip tests if unavailable`", and skipping a check when a tool
 *   is missing is that deferral. Planwise refuses it; VT Code 0.147.0 refused it too.
 * - `independent-rederive <target> (fresh context, no helper reuse)` accepted as a check: rules §3
 *   accepts a command or an observable manual check (a checking verb with an outcome or evidence);
 *   this phrase has neither. Planwise refuses it; VT Code 0.147.0 refused it too.
 */
// Not a contradiction, and judged as VT Code judges them: rules §3 list `git diff --check` among
// git's focused forms and speak of git "narrowed by a revision, path or option", but they also
// say that where their lines are less precise, these test cases' verdicts win. VT Code refuses
// `git diff --check`, `git diff --check HEAD` and `git show --stat` (verify-bad-02, -04, -05), so
// Planwise does too: a whitespace check or a bare option says nothing about the step.
function contradictsRules(text: string): string | undefined {
  if (/verify:.*skip markdown (lint|validation) if unavailable/i.test(text)) return 'a deferral (rules §3)';
  if (/verify:.*independent-rederive/i.test(text)) return 'neither a command nor an observable check (rules §3)';
  return undefined;
}

describe("VT Code interop: the validator judges VT Code's own test cases as VT Code does", () => {
  const rows = table('vtcode-tests');

  it('reads all 132 cases', () => assert.equal(rows.length, 132));

  const deviations: string[] = [];
  for (const row of rows) {
    const file = row.file as string;
    const text = readFileSync(join(DATA, 'vtcode-tests', file), 'utf8');
    const rulesSay = contradictsRules(text);
    if (rulesSay !== undefined && row.expected === 'valid') deviations.push(file);
    const expected = rulesSay !== undefined ? 'invalid' : row.expected;
    const title = rulesSay !== undefined ? ` (VT Code says valid; rules §3 say ${rulesSay})` : '';

    it(`${file}: ${expected}${title}`, () => {
      const r = validatePlan(text);
      assert.equal(r.valid ? 'valid' : 'invalid', expected, JSON.stringify(r.errors, null, 1));
      if (r.valid) return;
      for (const e of r.errors.filter((x) => x.step !== undefined)) {
        assert.ok(e.hint !== undefined && e.hint.length > 0, `${e.message} has no hint`);
      }
      if (rulesSay !== undefined) {
        assert.deepEqual(planwiseClasses(r.errors).steps, ['verify']);
        return;
      }
      const vt = vtClasses(row.vtcode_reasons as string);
      const pw = planwiseClasses(r.errors);
      assert.deepEqual([...pw.plan].sort(), [...vt.plan].sort(), 'plan-level defect classes');
      const complete = (row.vtcode_reasons as string).length < 300;
      if (complete) assert.deepEqual(pw.steps, vt.steps, 'the defect class of each failing step');
      else assert.deepEqual(pw.steps.slice(0, vt.steps.length), vt.steps, 'the defect classes VT Code lists');
    });
  }

  it('departs from VT Code only where rules §3 say otherwise: the 8 cases of the two newest-only behaviours', () => {
    assert.equal(deviations.length, 8, deviations.join(', '));
  });
});

/**
 * Where Planwise counts steps differently from VT Code, and why (both plans are invalid either way):
 * - `todo-ask-questions-interview.md`: VT Code counts two numbered lines nested deep inside step 5
 *   (a quoted confirmation prompt) as steps; Planwise keeps a numbered line indented under a step
 *   as part of that step's text (rules §3: "following unnumbered lines belong to the step" and a
 *   step line is a numbered line of the steps list, not one nested in another step).
 * - `todo-pasted-text-placeholder.md`: the whole plan is pasted with two spaces of indent, so its
 *   `Summary`, `Implementation Details` and `Test Cases` labels are indented text; rules §3 make a
 *   section of a heading, a standalone label line or an inline label, and an indented line
 *   continues the text above it. VT Code trims every line and counts the numbered lines of two
 *   sections Planwise does not see.
 */
const STEP_COUNT_DIFFERS: Record<string, number> = {
  'todo-ask-questions-interview.md': 6,
  'todo-pasted-text-placeholder.md': 2,
};

describe('VT Code interop: real plans from VT Code’s repository', () => {
  const rows = table('plans');

  it('reads all 16 plans', () => assert.equal(rows.length, 16));

  for (const row of rows) {
    const file = row.file as string;
    it(`${file}: ${row.vtcode}, ${row.vtcode_steps} steps as VT Code counts them`, () => {
      const r = validatePlan(readFileSync(join(DATA, 'plans', file), 'utf8'));
      assert.equal(r.valid ? 'valid' : 'invalid', row.vtcode);
      assert.equal(r.summary.steps.length, STEP_COUNT_DIFFERS[file] ?? Number(row.vtcode_steps));
      const vt = vtClasses(row.vtcode_reasons as string);
      const pw = planwiseClasses(r.errors);
      for (const c of vt.plan) assert.ok(pw.plan.has(c), `Planwise names no ${c} problem: ${JSON.stringify(r.errors)}`);
    });
  }
});

describe('VT Code interop: plans persisted exactly as VT Code writes them', () => {
  const rows = table('vtcode-persisted');

  it('reads all 5 plans', () => assert.equal(rows.length, 5));

  for (const row of rows) {
    const file = row.file as string;
    it(`${file}: ${row.vtcode}, ${row.vtcode_steps} steps, embedded tracker block and all`, () => {
      const r = validatePlan(readFileSync(join(DATA, 'vtcode-persisted', file), 'utf8'));
      assert.deepEqual(r.errors, []);
      assert.equal(r.valid ? 'valid' : 'invalid', row.vtcode);
      assert.equal(r.summary.steps.length, Number(row.vtcode_steps));
    });
  }
});
