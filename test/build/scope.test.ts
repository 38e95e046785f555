import assert from 'node:assert/strict';
import { pathWord, scopeOfPlan } from '../../src/core/build/scope';
import { validatePlan } from '../../src/core/plan/validator';
import { planWith, scopeOf } from './helpers';

describe("build scope: the approved plan's file targets", () => {
  it("is the union of every step's targets: paths, globs and folders", () => {
    const scope = scopeOf(
      planWith([
        'Add the parser -> files: [src/parser.ts, `src/lexer.ts`] -> verify: [npm test]',
        'Panel styles -> files: src/panel/ -> verify: [npm test]',
        'Fixtures -> files: test/fixtures/**/*.json -> verify: [npm test]',
        'Docs -> files: docs/ -> verify: [npm test]',
      ]),
    );
    assert.deepEqual(
      scope.entries.map((e) => [e.pattern, e.kind, e.step]),
      [
        ['src/parser.ts', 'file', 1],
        ['src/lexer.ts', 'file', 1],
        ['src/panel', 'dir', 2],
        ['test/fixtures/**/*.json', 'glob', 3],
        ['docs', 'dir', 4],
      ],
    );
    assert.equal(scope.covers('src/parser.ts')?.pattern, 'src/parser.ts');
    assert.equal(scope.covers('src/parser.tsx'), undefined);
    assert.equal(scope.covers('src/panel/card.tsx')?.pattern, 'src/panel', 'a folder covers what lies under it');
    assert.equal(scope.covers('src/panel/deep/x.css')?.kind, 'dir');
    assert.equal(scope.covers('src/panelist.ts'), undefined, 'a folder is not a name prefix');
    assert.equal(scope.covers('test/fixtures/a/b/c.json')?.kind, 'glob');
    assert.equal(scope.covers('test/fixtures/c.json')?.kind, 'glob', '**/ matches no folder too');
    assert.equal(scope.covers('test/fixtures/c.txt'), undefined);
    assert.equal(scope.covers('docs/guide.md')?.pattern, 'docs');
    assert.equal(scope.covers('src/other.ts'), undefined);
    assert.deepEqual(scope.plannedFiles, ['src/parser.ts', 'src/lexer.ts']);
  });

  it('takes path words out of prose targets and ignores symbols and behaviour phrases', () => {
    const scope = scopeOf(
      planWith([
        'Wire it -> files: parseCase in ./src/cases.ts, mod::fn -> verify: [npm test]',
        'Behaviour -> panel shows the final card -> verify: [npm test]',
      ]),
    );
    assert.deepEqual(
      scope.entries.map((e) => e.pattern),
      ['src/cases.ts'],
    );
    assert.equal(pathWord('`src/a.ts`,'), 'src/a.ts');
    assert.equal(pathWord('https://example.com/x.ts'), undefined);
    assert.equal(pathWord('Makefile'), 'Makefile');
    assert.equal(pathWord('../outside.ts'), undefined);
    assert.equal(pathWord('parseCase'), undefined);
  });

  it('counts files named under Test Cases and Validation as in scope (test files), not prose folders', () => {
    const scope = scopeOf(
      planWith(
        ['Parser -> files: [src/parser.ts] -> verify: [npm test]'],
        ['tests: `npx mocha test/parser.test.ts` passes', 'pass/fail is reported', 'snapshots in test/__snap__/*.snap'],
      ),
    );
    assert.equal(scope.covers('test/parser.test.ts')?.source, 'validation');
    assert.equal(scope.covers('test/__snap__/a.snap')?.source, 'validation');
    assert.equal(scope.covers('pass/fail'), undefined);
    assert.equal(scope.covers('pass/fail/x'), undefined);
  });

  it('a new revision gives a new scope', () => {
    const one = validatePlan(planWith(['A -> files: [src/a.ts] -> verify: [npm test]'])).summary;
    const two = validatePlan(
      planWith(['A -> files: [src/a.ts] -> verify: [npm test]', 'B -> files: [src/b.ts] -> verify: [npm test]']),
    ).summary;
    assert.equal(scopeOfPlan(one).covers('src/b.ts'), undefined);
    assert.equal(scopeOfPlan(two).covers('src/b.ts')?.step, 2);
  });
});
