import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { validatePlan } from '../../src/core/plan/validator';

const root = join(__dirname, '../fixtures/plans');
const names = (kind: string) =>
  readdirSync(join(root, kind))
    .filter((f) => f.endsWith('.md'))
    .sort();
const read = (kind: string, file: string) => readFileSync(join(root, kind, file), 'utf8');

describe('plan validator: fixture plans', () => {
  it('has at least 20 valid and 20 invalid fixtures', () => {
    assert.ok(names('valid').length >= 20, `only ${names('valid').length} valid fixtures`);
    assert.ok(names('invalid').length >= 20, `only ${names('invalid').length} invalid fixtures`);
  });

  for (const file of names('valid')) {
    it(`valid/${file} validates`, () => {
      const r = validatePlan(read('valid', file));
      assert.deepEqual(r.errors, []);
      assert.equal(r.valid, true);
      assert.ok(r.summary.steps.length >= 1);
      assert.ok(r.summary.validationItems.length >= 1);
      assert.ok(r.summary.assumptions.length >= 1);
      assert.notEqual(r.summary.summary, '');
    });
  }

  for (const file of names('invalid')) {
    it(`invalid/${file} fails with exactly its expected errors`, () => {
      const expected = JSON.parse(read('invalid', file.replace(/\.md$/, '.expected.json'))) as {
        errors: { message: string; step?: number }[];
      };
      assert.ok(expected.errors.length > 0, 'an invalid fixture must expect at least one error');
      const r = validatePlan(read('invalid', file));
      assert.equal(r.valid, false);
      assert.deepEqual(
        r.errors.map((e) => (e.step === undefined ? { message: e.message } : { message: e.message, step: e.step })),
        expected.errors,
      );
    });
  }

  it("the seed's example plan validates with its two steps, targets and checks", () => {
    const r = validatePlan(read('valid', 'seed-fix-off-by-one.md'));
    assert.equal(r.valid, true);
    assert.equal(r.summary.title, 'Fix off-by-one in parser cursor advance');
    assert.deepEqual(
      r.summary.steps.map((s) => [s.index, s.action, s.targets, s.verify]),
      [
        [1, 'Hoist bounds check above cursor advance', ['src/parser.rs'], ['cargo test parser::tests::parse_case']],
        [2, 'Add single-byte regression test', ['src/parser.rs'], ['cargo test parser::tests::single_byte']],
      ],
    );
    assert.deepEqual(r.summary.sections, [
      'Summary',
      'Implementation Steps',
      'Test Cases and Validation',
      'Expected Outcomes',
      'Assumptions and Defaults',
    ]);
  });

  it("the seed's plan template fails on its placeholders", () => {
    const r = validatePlan(read('invalid', 'seed-template.md'));
    assert.equal(r.valid, false);
    const placeholders = r.errors.filter((e) => e.message.includes('placeholder'));
    for (const token of ['[task title]', '[action]', '[path/to/file.rs]', '[check]', '[detected toolchain command]']) {
      assert.ok(
        placeholders.some((e) => e.message.includes(`"${token}"`)),
        `expected a placeholder error for ${token}`,
      );
    }
  });
});
