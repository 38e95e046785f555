/** Rules §1.2: every Allowed and Rejected example is its own test case. */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TRUSTED, expectAllowed, expectBlocked, verdictOf } from './helpers';

describe('gate: rules §1.2 examples', () => {
  describe('allowed', () => {
    for (const command of [
      "ls -la && echo '---' && ls -la src/",
      "cat README.md; rg -n '^#' README.md",
      'git log --oneline | head -20',
      'git diff --stat',
      'cargo check 2>&1 | head -c 4000',
      "find . -type f -name '*.ts'",
      'tree -L 2 src/',
      "sed -n '1,80p' a.ts",
      'wc -l src/*.ts',
      'grep -rn foo src 2>/dev/null | head',
      'echo a#b',
      'npm test -- --grep parser',
      'rg -n "parse\\(" src',
      'git branch -a',
      'git remote -v',
    ]) {
      it(command, async () => {
        await expectAllowed(command);
      });
    }

    it('plain inspection says it is read-only; project code says it runs project code', async () => {
      assert.equal((await verdictOf('git diff --stat', TRUSTED)).reason, 'allowed: read-only command');
      assert.equal(
        (await verdictOf('cargo check 2>&1 | head -c 4000', TRUSTED)).reason,
        "allowed: 'cargo check' runs project code (trusted workspace)",
      );
    });
  });

  describe('rejected', () => {
    const cases: Array<[command: string, rule: string, reason: string]> = [
      ['ls && rm foo.txt', 'program', "blocked: 'rm' changes files"],
      ['echo hi > f.txt', 'redirect', "blocked: output redirection '>' is not read-only"],
      ['cat a | tee b', 'program', "blocked: 'tee' writes files"],
      ['git checkout main', 'subcommand', "blocked: 'git checkout' is not a read-only git command"],
      ['git diff --output=o.txt', 'option', "blocked: 'git diff --output=o.txt' writes its output to a file"],
      ['find . -delete', 'option', "blocked: 'find -delete' deletes files"],
      ["sed -i 's/a/b/' f", 'option', "blocked: 'sed -i' edits files in place"],
      ['sort -o o.txt f', 'option', "blocked: 'sort -o' writes its output to a file"],
      ['echo $(date)', 'raw.substitution', "blocked: command substitution '$(' is not allowed"],
      ['python3 x.py', 'program', "blocked: 'python3' is an interpreter"],
      ['npm run build', 'subcommand', "blocked: 'npm run build' is not a read-only npm run command"],
      ['cargo build', 'subcommand', "blocked: 'cargo build' is not a read-only cargo command"],
      ['sleep 5 &', 'raw.background', "blocked: a single '&' (background job) is not allowed"],
      ['npm install --dry-run', 'subcommand', "blocked: 'npm install' is not a read-only npm command"],
      ['git --namespace log reset --hard', 'option', "blocked: 'git --namespace' points git at another"],
      ['grep -R foo .', 'follow', "blocked: 'grep -R' follows symlinks out of the workspace; use grep -r"],
      ['npm test -- -u', 'option', "blocked: 'npm test -- -u' rewrites snapshots"],
      ['sg staff -c id', 'program', "blocked: 'sg' is also the set-group command"],
      ['git branch topic', 'argument', "blocked: 'git branch' takes no argument 'topic' here"],
      [
        'git -C vendor/lib.git show HEAD',
        'git-repository',
        "blocked: 'vendor/lib.git' is a git directory inside the workspace",
      ],
    ];
    // A git directory committed inside the workspace, as plain files.
    const gitDir = join(ROOT, 'vendor', 'lib.git');
    before(() => {
      for (const d of ['objects', 'refs']) mkdirSync(join(gitDir, d), { recursive: true });
      writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
    });
    after(() => rmSync(join(ROOT, 'vendor'), { recursive: true, force: true }));
    for (const [command, rule, reason] of cases) {
      it(command, async () => {
        const v = await expectBlocked(command, rule);
        assert.ok(v.reason.startsWith(reason), `${v.reason} should start with ${reason}`);
      });
    }
  });
});
