/** Rules §1.1 step 7: every row of the unsafe-option table, plus the rows we add. */
import { expectAllowed, expectBlocked } from './helpers';

function rejects(rows: ReadonlyArray<string>, rule = 'option'): void {
  for (const command of rows) {
    it(`rejects ${command}`, async () => {
      await expectBlocked(command, rule);
    });
  }
}

function allows(rows: ReadonlyArray<string>): void {
  for (const command of rows) {
    it(`allows ${command}`, async () => {
      await expectAllowed(command);
    });
  }
}

describe('gate: unsafe options (step 7)', () => {
  describe('git', () => {
    rejects([
      'git -c core.pager=less log',
      'git -c core.fsmonitor=./x status',
      'git --exec-path=/tmp log',
      'git --git-dir=.git log',
      'git --work-tree=. status',
      'git --config-env=core.pager=X log',
      'git diff --ext-diff',
      'git log -p --textconv',
      'git log -o x',
      'git log -ox',
      'git log --output=x',
      'git log --output x',
      'git log --out=x',
      'git grep -O foo',
      'git grep -Ovim foo',
      'git grep -nO foo',
      'git grep --open-files-in-pager foo',
      'git grep --open-files-in-pager=vim foo',
    ]);
    allows([
      'git -C src status',
      'git diff --text a',
      'git log --no-ext-diff --no-textconv',
      'git log -Sfoo',
      'git grep -e o',
    ]);
  });

  describe('sed', () => {
    rejects([
      "sed -i 's/a/b/' f",
      "sed -i.bak 's/a/b/' f",
      "sed -I 's/a/b/' f",
      "sed --in-place 's/a/b/' f",
      "sed --in-place=.bak 's/a/b/' f",
      "sed -ni 'p' f",
      'sed -f s.sed f',
      'sed --file=s.sed f',
      'sed',
      'sed -n',
    ]);
    rejects(
      [
        "sed 'e date' f",
        "sed 'r other' f",
        "sed 'R other' f",
        "sed 'w out' f",
        "sed 'W out' f",
        "sed 's/a/b/e' f",
        "sed 's/a/b/w out' f",
        "sed -n ':x# a\\\nw out.txt' f",
      ],
      'sed',
    );
    allows(["sed -n '1,80p' f", "sed 's/a/b/g' f", "sed -e 's/a/b/' -e '/x/d' f", "sed -E 's/(a|b)/c/2' f"]);
  });

  describe('find', () => {
    rejects([
      'find . -delete',
      "find . -exec rm '{}' ';'",
      "find . -execdir rm '{}' +",
      "find . -ok rm '{}' ';'",
      "find . -okdir rm '{}' ';'",
      'find . -fls out',
      'find . -fprint out',
      'find . -fprint0 out',
      "find . -fprintf out '%p'",
    ]);
    allows(["find . -type f -name '*.ts' -print", "find src -maxdepth 2 -printf '%p\\n'"]);
  });

  describe('sort', () => {
    rejects([
      'sort -o out f',
      'sort -oout f',
      'sort -uo out f',
      'sort --output=out f',
      'sort --output out f',
      'sort --compress-program=gzip f',
    ]);
    allows(['sort -u f', 'sort -t o -k 2 f', 'sort -to f']);
  });

  describe('date', () => {
    rejects(["date -s '2020-01-01'", "date --set='2020-01-01'", "date -us '2020-01-01'"]);
    allows(['date -u', 'date -Iseconds', "date -d '1 day ago'"]);
  });

  describe('rg', () => {
    rejects([
      'rg --pre ./x foo',
      'rg --pre=./x foo',
      'rg --hostname-bin ./x foo',
      'rg --hostname-bin=./x foo',
      'rg -z foo',
      'rg -nz foo',
      'rg --search-zip foo',
    ]);
    rejects(["rg --pre-glob '*.gz' foo"]);
    allows(['rg -n -i foo', "rg -g '*.z' foo"]);
  });

  describe('ast-grep', () => {
    for (const p of ['ast-grep']) {
      rejects([
        `${p} -p 'a' -r 'b'`,
        `${p} -p 'a' --rewrite 'b'`,
        `${p} -p 'a' --rewrite='b'`,
        `${p} -p 'a' -U`,
        `${p} scan --update-all`,
      ]);
      rejects([`${p} new rule`], 'subcommand');
      allows([`${p} run -p 'foo($A)' -l ts src`, `${p} scan`]);
    }
    rejects(["sg users 'rm x'", "sg -p 'a'"], 'program');
  });

  describe('fd', () => {
    rejects(['fd -x rm', 'fd -X rm', 'fd -Hx rm', 'fd --exec rm', 'fd --exec=rm', 'fd --exec-batch rm']);
    allows(['fd -e ts', 'fd -E xlsx x', 'fd -t f test src']);
  });

  describe('tree', () => {
    rejects(['tree -o out', 'tree -aofile', 'tree --output=out', 'tree --output out', 'tree -R']);
    allows(['tree -L 2 src/', 'tree -d']);
  });

  describe('env', () => {
    rejects(["env -S 'ls -la'", "env --split-string='ls -la'"], 'prefix');
  });

  describe('beyond the table', () => {
    rejects([
      'uniq in.txt out.txt',
      'file -C -m magic',
      'file --compile',
      "bat --pager='less' f",
      'bat --paging=always f',
      'bat cache --build',
      'bat --generate-config-file',
      "cargo --config 'build.rustc-wrapper=x' check",
      'cargo clippy --fix',
      'npm test --script-shell=./x.sh',
      'file -z a.txt',
      'file --uncompress a.txt',
    ]);
    allows(['uniq -c in.txt', 'file -m magic a.txt', 'bat --paging=never f', 'bat -P f']);
  });
});
