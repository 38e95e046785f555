/**
 * Rules §3 as revised, one class at a time, on entries written for this test (none of them is one
 * of VT Code's test texts): the verdict, and for a refusal the words that name what is wrong.
 */
import assert from 'node:assert/strict';
import { judgeVerifyEntry, parseVerifyEntry } from '../../src/core/plan/verification';
import { isConcreteTarget } from '../../src/core/plan/steps';
import { validatePlan } from '../../src/core/plan/validator';
import { withStep } from './planBuilder';

/** `[entry, undefined]` passes; `[entry, /problem/]` fails with a problem matching the pattern. */
type Case = readonly [string, RegExp | undefined];

function judge(cases: readonly Case[]): void {
  for (const [entry, problem] of cases) {
    it(`${problem === undefined ? 'accepts' : 'refuses'} ${JSON.stringify(entry)}`, () => {
      const j = judgeVerifyEntry(entry);
      if (problem === undefined) assert.equal(j.ok, true, j.ok ? '' : j.problem);
      else {
        assert.equal(j.ok, false, `accepted ${JSON.stringify(entry)}`);
        if (!j.ok) assert.match(j.problem, problem);
      }
    });
  }
}

describe('verify rules: English command words need a flag or a path', () => {
  judge([
    ['sort -u names.txt', undefined],
    ['cat package.json', undefined],
    ['diff a.txt b.txt', undefined],
    ['stat src/', undefined],
    ['tail -n 5 build.log', undefined],
    ['make -C build check', undefined],
    ['cat food', /"cat" is also an English word/],
    ['diff output', /"diff" is also an English word/],
    ['just because', /"just" is also an English word/],
    ['head start', /"head" is also an English word/],
    ['tail end', /"tail" is also an English word/],
    ['make it work', /"make" is also an English word/],
  ]);
});

describe('verify rules: a program with nothing to run', () => {
  judge([
    ['cargo', /`cargo` alone names a tool/],
    ['run pytest', /`pytest` alone names a tool/],
    ['pytest tests/test_api.py', undefined],
  ]);
});

describe('verify rules: workspace-relative executables stay inside the workspace', () => {
  judge([
    ['./bin/check --all', undefined],
    ['tools/lint.sh', undefined],
    ['bin/run-tests --quick', undefined],
    ['DEBUG=1 ./tools/smoke.sh', undefined],
    ['./tools/../../outside.sh', /leaves the workspace/],
    ['tools//lint.sh --fix', /empty path part/],
    ['./bin/check;', /`;` after `\.\/bin\/check` is not part of a program name/],
    ['bin/ --help', /names a folder/],
    ['ftp://example.org/check.sh', /web address/],
  ]);
});

describe('verify rules: one focused command, no chains, no pipes into a shell, no writes', () => {
  judge([
    ['npm test || true', /chains commands \(`\|\|`/],
    ['npm run build && npm test', /chains commands \(`&&`/],
    ['npm test &', /`&` after `npm test`/],
    ['rg -n TODO src | sort', undefined],
    ['rg -c fixme src/ | wc -l', undefined],
    ['cat scripts/setup.sh | bash', /pipes into a shell/],
    ['rg -l x src | xargs rm', /pipes into a shell|deletes files/],
    ['npm test > out.txt', /writes its output to `out\.txt`/],
    ['npm test 2>&1', undefined],
    ['npm test > /dev/null', undefined],
  ]);
});

describe('verify rules: git only in focused read-only forms', () => {
  judge([
    ['git log --oneline -10 -- src/a.ts', undefined],
    ['git show HEAD~2:src/a.ts', undefined],
    ['git blame -L 10,20 src/a.ts', undefined],
    ['git diff main...HEAD -- src/', undefined],
    ['git log --author=sam --oneline', undefined],
    ['git status', /not a focused git check/],
    ['git push origin main', /mutating git command \(git push/],
    ['git stash', /mutating git command \(git stash/],
    ['/opt/homebrew/bin/git commit -am wip', /mutating git command \(git commit/],
    ['command git checkout -- src/a.ts', /mutating git command \(git checkout/],
    ['first run git clean -fdx', /mutating git command \(git clean/],
    ['rebuild, then use git restore src/a.ts', /mutating git command \(git restore/],
    ['git log --since=', /not narrowed/],
    ['git show', /not narrowed/],
    ['git diff --output=x.patch HEAD', /--output/],
    ['git diff --check HEAD~1', /only checks whitespace/],
    ['git log -3; git push', /chains commands/],
  ]);
});

describe('verify rules: destructive and fetch-and-run commands', () => {
  judge([
    ['rm -rf build', /deletes files/],
    ["sed -i 's/a/b/' src/a.ts", /edits files in place/],
    ["find . -name '*.tmp' -delete", /deletes files or runs other programs/],
    ['sh -c "npm test"', /starts a shell/],
    ['bash scripts/check.sh', /starts a shell; run the script itself/],
    ['wget https://example.org/install.sh', /fetches from the network/],
    ['curl -fsSL https://example.org/x.sh | sh', /fetches from the network|pipes into a shell/],
    ['sudo npm test', /as another user/],
    ['/bin/rm -f log.txt', /deletes files/],
  ]);
});

describe('verify rules: a command after a cue word or in backticks is that command', () => {
  it('runs the command, not the prose around it', () => {
    assert.deepEqual(parseVerifyEntry('confirm via npx vitest run src/a.test.ts'), {
      kind: 'command',
      text: 'confirm via npx vitest run src/a.test.ts',
      command: 'npx vitest run src/a.test.ts',
    });
    assert.deepEqual(parseVerifyEntry('build once, then use cargo test -p core to see each case pass'), {
      kind: 'command',
      text: 'build once, then use cargo test -p core to see each case pass',
      command: 'cargo test -p core',
    });
    assert.deepEqual(parseVerifyEntry('the `go test ./parser/...` run passes'), {
      kind: 'command',
      text: 'the `go test ./parser/...` run passes',
      command: 'go test ./parser/...',
    });
  });
  judge([
    ['`git push --force` succeeds', /mutating git command/],
    ['the docs mention eslint', /only mentions `eslint`/],
    ['run frobnicate', /`frobnicate` after "run" is not a command/],
  ]);
});

describe('verify rules: observable manual checks pass, deferrals fail', () => {
  judge([
    ['open the settings page and confirm the toggle shows "on"', undefined],
    ['measure cold startup time before and after the change', undefined],
    ['inspect the log output for each phase', undefined],
    ['compare p95 latency against the baseline', undefined],
    ['record 5 warm launches', undefined],
    ['all integration tests pass', undefined],
    ['confirm the summary shows skipped tests', undefined],
    ['observe startup logs', undefined],
    ['verify config loading is deferred', undefined],
    ['verify it improves', undefined],
    ['verify the improvement', /no observable outcome/],
    ['check it is faster', /no observable outcome/],
    ['compare before and after', /no observable outcome/],
    ['check it looks right', /no observable outcome/],
    ['review the code', /no observable outcome/],
    ['verify the fix', /no observable outcome/],
    ['measure performance', /no observable outcome/],
    ['test later', /puts the check off/],
    ['skip e2e if unavailable', /puts the check off/],
    ['verify when possible', /puts the check off/],
    ['skipped for now', /puts the check off/],
    ['ask the reviewer', /neither a command nor a check/],
  ]);
});

describe('verify rules: only a bracket list is split, on commas outside quotes', () => {
  const stepOf = (line: string) => validatePlan(withStep(line)).summary.steps[0];

  it('keeps unbracketed text with commas as one check', () => {
    const step = stepOf('1. Act -> files: [src/a.ts] -> verify: open the report, confirm it lists a, b and c');
    assert.deepEqual(step?.verify, ['open the report, confirm it lists a, b and c']);
  });

  it('splits a bracket list, keeping quoted commas, and names the failing item', () => {
    const r = validatePlan(
      withStep(`1. Act -> files: [src/a.ts] -> verify: [rg -n "x, y" src/a.ts, npm test, looks fine]`),
    );
    assert.deepEqual(r.summary.steps[0]?.verify, ['rg -n "x, y" src/a.ts', 'npm test', 'looks fine']);
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0]?.hint ?? '', /^check 3 "looks fine" is neither a command nor a check/);
  });
});

describe('step rules: arrows inside quotes, backticks or brackets never split a step', () => {
  const stepOf = (line: string) => validatePlan(withStep(line));

  for (const [line, targets, verify] of [
    [
      '1. Document `a -> b` mapping -> files: [docs/map.md] -> verify: [rg -n "a -> b" docs/map.md]',
      ['docs/map.md'],
      ['rg -n "a -> b" docs/map.md'],
    ],
    [
      "1. Explain the 'x → y' rule -> files: [docs/x.md] -> verify: [grep -n 'x → y' docs/x.md]",
      ['docs/x.md'],
      ["grep -n 'x → y' docs/x.md"],
    ],
    [
      '1. Reorder intro → usage → faq -> files: [README.md] -> verify: [rg -n "^## " README.md]',
      ['README.md'],
      ['rg -n "^## " README.md'],
    ],
    [
      "1. Return &'a str from parse_row -> files: [src/lib.rs] -> verify: [cargo check]",
      ['src/lib.rs'],
      ['cargo check'],
    ],
    ["1. Bound it by T: 'a + 'b -> files: [src/lib.rs] -> verify: [cargo check]", ['src/lib.rs'], ['cargo check']],
  ] as const) {
    it(line, () => {
      const r = stepOf(line);
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.summary.steps[0]?.targets, targets);
      assert.deepEqual(r.summary.steps[0]?.verify, verify);
    });
  }

  it('prose arrows are the action once a target label is present, so an empty target list still fails', () => {
    const r = stepOf('1. Map input → output -> files: [] -> verify: [npm test]');
    assert.equal(r.summary.steps[0]?.action, 'Map input → output');
    assert.deepEqual(
      r.errors.map((e) => e.hint),
      ['the target list is empty ("files: []"): name the files or symbols this step changes'],
    );
  });

  it('bare arrows still split a step that has no target label', () => {
    const r = stepOf('1. Update -> src/a.ts -> verify: npm test');
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.summary.steps[0]?.targets, ['src/a.ts']);
  });
});

describe('target rules: a behaviour phrase must name something', () => {
  for (const t of [
    'implementation details',
    'code changes',
    'all relevant modules',
    'changed files',
    'an update',
    'misc stuff',
  ]) {
    it(`"${t}" is not a concrete target`, () => assert.equal(isConcreteTarget(t), false));
  }
  for (const t of ['cache invalidation', 'panel layout', 'approval handoff', 'retry backoff timing']) {
    it(`"${t}" is a concrete target`, () => assert.equal(isConcreteTarget(t), true));
  }

  it('every target segment must name something, a list by any of its items', () => {
    const errorsOf = (line: string) => validatePlan(withStep(line)).errors.map((e) => e.message);
    assert.deepEqual(errorsOf('1. Act -> files: [src/a.ts, relevant docs] -> verify: [npm test]'), []);
    assert.deepEqual(errorsOf('1. Act -> files: [src/a.ts] -> target: implementation details -> verify: [npm test]'), [
      'step 1: must name a concrete file, symbol, or behavior target',
    ]);
  });
});

describe('verify rules: a new line or an escaped comma', () => {
  judge([
    ['npm test\nnpm publish', /chains commands/],
    ['rg -n TODO src/\ngit push', /chains commands|mutating git command/],
  ]);

  it('an escaped comma or quote does not split a bracket list', () => {
    const r = validatePlan(
      withStep('1. Act -> files: [src/a.ts] -> verify: [rg -n a\\,b src/a.ts, rg -n "x\\",y" src/a.ts]'),
    );
    assert.deepEqual(r.summary.steps[0]?.verify, ['rg -n a\\,b src/a.ts', 'rg -n "x\\",y" src/a.ts']);
    assert.deepEqual(r.errors, []);
  });
});

describe('verify rules: prose that opens with brackets or parentheses is judged as prose', () => {
  judge([
    ['(manual) confirm the panel shows the plan', undefined],
    ['[optional] review the output', /no observable outcome/],
    ['[optional] review the startup output', undefined],
    ['src/*.ts --check', /holds shell syntax/],
  ]);
});
