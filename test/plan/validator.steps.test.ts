import assert from 'node:assert/strict';
import { validatePlan } from '../../src/core/plan/validator';
import { isConcreteTarget } from '../../src/core/plan/steps';
import { isConcreteCheck } from '../../src/core/plan/verification';
import { withStep, buildPlan } from './planBuilder';

const TARGET = 'must name a concrete file, symbol, or behavior target';
const NO_VERIFY = 'must include a `verify:` or `verification:` marker';
const VAGUE = 'verification marker must include a concrete command or check';

const errorsOf = (step: string) => validatePlan(withStep(step)).errors.map((e) => e.message);
const stepsOf = (steps: string) => validatePlan(buildPlan({ steps })).summary.steps;

describe('plan validator: step lines (rules §3)', () => {
  it('accepts N., N), N: and the Step prefix, bold or not', () => {
    for (const prefix of ['1.', '1)', '1:', 'Step 1:', 'step 1.', '**Step 1:**', '**1.**']) {
      const steps = stepsOf(`${prefix} Add retry -> files: [src/upload.ts] -> verify: [npm test]`);
      assert.equal(steps.length, 1, prefix);
      assert.equal(steps[0]?.action, 'Add retry', prefix);
    }
  });

  it('numbers steps by position and keeps their line numbers', () => {
    const steps = stepsOf('1. A -> files: [a.ts] -> verify: [npm test]\n1. B -> files: [b.ts] -> verify: [npm test]');
    assert.deepEqual(
      steps.map((s) => [s.index, s.line]),
      [
        [1, 9],
        [2, 10],
      ],
    );
  });

  it('splits the first line on -> and on →, stripping the target prefixes and skipping outcome:', () => {
    for (const prefix of ['files:', 'files/symbols:', 'symbols:', 'target:', 'behavior:', 'Files:', '**files:**', '']) {
      const [step] = stepsOf(`1. Act → ${prefix} src/a.ts → outcome: it works → verify: npm test`);
      assert.deepEqual(step?.targets, ['src/a.ts'], prefix);
      assert.deepEqual(step?.verify, ['npm test'], prefix);
    }
  });

  it('accepts verification: as the check marker', () => {
    assert.deepEqual(errorsOf('1. Act -> files: [src/a.ts] -> verification: [npm test]'), []);
  });

  it('adds targets and checks from continuation lines, bulleted and bold or not', () => {
    const [step] = stepsOf(
      [
        '1. Persist revisions',
        '   - **Files/symbols:** src/a.ts',
        '   files: src/b.ts, src/c.ts',
        '   * target: PlanStore',
        '   - **Verify:** npm test',
        '   verification: npx tsc --noEmit',
        '   a plain note line',
      ].join('\n'),
    );
    assert.deepEqual(step?.targets, ['src/a.ts', 'src/b.ts', 'src/c.ts', 'PlanStore']);
    assert.deepEqual(step?.verify, ['npm test', 'npx tsc --noEmit']);
    assert.ok(step?.text.endsWith('a plain note line'));
    assert.deepEqual(errorsOf(step?.text ?? ''), []);
  });

  it('keeps indented numbered sub-lists inside the step', () => {
    const steps = stepsOf('1. Act -> files: [a.ts] -> verify: [npm test]\n   1. detail one\n   2. detail two');
    assert.equal(steps.length, 1);
  });

  it('reports the three step errors with their exact reasons, in order, as "step N: reason"', () => {
    assert.deepEqual(errorsOf('1. Do it'), [`step 1: ${TARGET}`, `step 1: ${NO_VERIFY}`]);
    assert.deepEqual(errorsOf('1. Do it -> files: [code] -> verify: looks fine'), [
      `step 1: ${TARGET}`,
      `step 1: ${VAGUE}`,
    ]);
    assert.deepEqual(errorsOf('1. Do it -> files: [src/a.ts] -> verify:'), [`step 1: ${VAGUE}`]);
    const r = validatePlan(withStep('1. Do it -> files: [src/a.ts]'));
    assert.deepEqual(r.errors[0], {
      message: `step 1: ${NO_VERIFY}`,
      step: 1,
      line: 9,
      hint: 'end the step line with "-> verify: [npm test]" or add a "verify:" line under the step',
    });
  });

  it('hints name the offending targets and checks', () => {
    const r = validatePlan(withStep('1. Do it -> files: [relevant code] -> verify: [npm test, run banana]'));
    assert.match(r.errors[0]?.hint ?? '', /too generic: "relevant code"/);
    assert.equal(r.errors[1]?.hint, 'check 2 "run banana": `banana` after "run" is not a command');
  });

  it('does not count the action text as a target', () => {
    assert.deepEqual(errorsOf('1. Fix src/a.ts -> verify: npm test'), [`step 1: ${TARGET}`]);
  });
});

describe('plan validator: concrete targets (rules §3)', () => {
  const concrete = [
    'src/a.ts',
    'src\\a.ts',
    'parser::tests',
    'parse_case',
    'README.md',
    'parseCase',
    'PlanStore',
    'cursor advance',
    'plan panel collapses long steps',
    'Makefile',
    'the src/a.ts module',
  ];
  for (const t of concrete) {
    it(`"${t}" is concrete`, () => assert.equal(isConcreteTarget(t), true));
  }

  const generic = [
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
    'relevant modules here',
    'appropriate places in tree',
    'affected callers',
    'existing helpers',
    'the parser',
    'a helper',
    'some modules',
    'any callers',
    'parser',
    '',
  ];
  for (const t of generic) {
    it(`"${t}" is generic`, () => assert.equal(isConcreteTarget(t), false));
  }

  it('a bracket list passes when any item is concrete', () => {
    assert.deepEqual(errorsOf('1. Act -> files: [code, src/a.ts] -> verify: [npm test]'), []);
    assert.deepEqual(errorsOf('1. Act -> files: [code, files] -> verify: [npm test]'), [`step 1: ${TARGET}`]);
  });
});

describe('plan validator: concrete verification (rules §3)', () => {
  const good = [
    'npm test',
    'pnpm test',
    'yarn test',
    'npx mocha',
    'node scripts/x.js',
    'tsc --noEmit',
    'mocha test/a.test.ts',
    'cargo test parser::tests::parse_case',
    'go test ./...',
    'make -C build test',
    'pytest -k parse',
    'python -m unittest',
    "rg -n 'a,b' README.md",
    'git diff --stat HEAD~1',
    'eslint src',
    './x.sh',
    './tools/check.sh --fast',
    'CI=1 npm test',
    'FOO=1 BAR=2 cargo check',
    'run npm test',
    'confirm via cargo test',
    'rebuild then npm test',
    'the `npm test` suite stays green',
    'confirm the panel shows the plan',
    'open the sidebar and observe the tree renders',
    'verify the CLI returns exit 1',
    'all tests pass',
  ];
  for (const c of good) {
    it(`"${c}" is a concrete check`, () => assert.equal(isConcreteCheck(c), true));
  }

  const bad = [
    'run banana',
    'documentation mentions pytest',
    'FOO=1 build output',
    'looks fine',
    'check it',
    'it works',
    'manual testing',
    '',
    // VT Code's verdicts, which Planwise follows: an English command word needs a flag or a path,
    // git needs a revision, path or count, and a script path must stay inside the workspace.
    'make test',
    'git diff --stat',
    '../tools/check.sh --fast',
  ];
  for (const c of bad) {
    it(`"${c}" is not a concrete check`, () => assert.equal(isConcreteCheck(c), false));
  }

  it('splits a bracket list on commas outside quotes and requires every item to pass', () => {
    const [quoted] = stepsOf(`1. Act -> files: [src/a.ts] -> verify: [rg -n 'a,b' README.md, grep -c "x,y" f.txt]`);
    assert.deepEqual(quoted?.verify, ["rg -n 'a,b' README.md", 'grep -c "x,y" f.txt']);
    assert.deepEqual(errorsOf(`1. Act -> files: [src/a.ts] -> verify: [rg -n 'a,b' README.md]`), []);
    assert.deepEqual(errorsOf('1. Act -> files: [src/a.ts] -> verify: [rg -n a,b README.md]'), [`step 1: ${VAGUE}`]);
    assert.deepEqual(errorsOf('1. Act -> files: [src/a.ts] -> verify: [npm test, looks fine]'), [`step 1: ${VAGUE}`]);
  });

  it('an apostrophe inside a word does not open a quote', () => {
    const [step] = stepsOf("1. Act -> files: [src/a.ts] -> verify: [confirm the panel's title shows X, npm test]");
    assert.deepEqual(step?.verify, ["confirm the panel's title shows X", 'npm test']);
  });
});
