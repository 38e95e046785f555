/** The argv grammars of the text, listing and search programs (rules §1.1 step 7), read by parseArgv. */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { allowedPrograms, grammarOf } from '../../src/core/gate/grammar';
import { parseArgv } from '../../src/core/gate/argv';
import { grammars as astGrepFile } from '../../src/core/gate/grammar/programs/astGrep';
import { grammars as batFile } from '../../src/core/gate/grammar/programs/bat';
import { grammars as diffFile } from '../../src/core/gate/grammar/programs/diff';
import { grammars as echoFile } from '../../src/core/gate/grammar/programs/echo';
import { grammars as fdFile } from '../../src/core/gate/grammar/programs/fd';
import { grammars as gitFile } from '../../src/core/gate/grammar/programs/git';
import { grammars as grepFile } from '../../src/core/gate/grammar/programs/grep';
import { grammars as infoFile } from '../../src/core/gate/grammar/programs/info';
import { grammars as jqFile } from '../../src/core/gate/grammar/programs/jq';
import { deniedInFilter } from '../../src/core/gate/grammar/jqFilter';
import { grammars as lsFile } from '../../src/core/gate/grammar/programs/ls';
import { grammars as treeFile } from '../../src/core/gate/grammar/programs/tree';
import { grammars as rgFile } from '../../src/core/gate/grammar/programs/rg';
import { grammars as testFile } from '../../src/core/gate/grammar/programs/test';
import { grammars as textFile } from '../../src/core/gate/grammar/programs/text';
import type { Grammar, Grammars } from '../../src/core/gate/grammar/types';

/** Splits a command's arguments the way the shell would for these cases: spaces, '…' and "…". */
function split(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let open = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      cur += line.slice(i + 1, close);
      i = close;
      open = true;
    } else if (c === ' ') {
      if (open) out.push(cur);
      cur = '';
      open = false;
    } else {
      cur += c;
      open = true;
    }
  }
  if (open) out.push(cur);
  return out;
}

/** The grammars under test, by program name, as their files build them. */
const FILES: readonly Grammars[] = [
  gitFile,
  textFile,
  infoFile,
  diffFile,
  echoFile,
  lsFile,
  treeFile,
  grepFile,
  rgFile,
  fdFile,
  batFile,
  jqFile,
  astGrepFile,
  testFile,
];
const BY_NAME: Record<string, Grammar> = Object.fromEntries(
  FILES.flatMap((file) => Object.entries(file).map(([program, build]) => [program, build()])),
);

function parse(command: string): ReturnType<typeof parseArgv> {
  const [program, ...args] = split(command);
  const g = BY_NAME[program as string];
  assert.ok(g, `no grammar for ${program}`);
  return parseArgv(program as string, g, args);
}

/** `command` parses; with `expected`, its words have these kinds (an attached value counts as its option). */
function allows(command: string, expected?: string): void {
  it(`allows ${command}`, () => {
    const r = parse(command);
    assert.ok(r.ok, `expected ${command} to parse, got: ${r.ok ? '' : r.reason}`);
    if (expected !== undefined) assert.equal(r.words.map((w) => w.kind).join(' '), expected, command);
  });
}

/** `command` is refused by `rule` (`option` unless said) with a reason naming `part`. */
function refuses(command: string, part: string, rule = 'option'): void {
  it(`refuses ${command}`, () => {
    const r = parse(command);
    assert.equal(r.ok, false, `expected ${command} to be refused`);
    if (r.ok) return;
    assert.equal(r.rule, rule, `rule for ${command} (reason: ${r.reason})`);
    assert.ok(r.reason.includes(part), `reason '${r.reason}' lacks '${part}'`);
  });
}

describe('grammars: text filters', () => {
  allows('cat -n a.ts', 'option path');
  allows('cat -A a b', 'option path path');
  allows('head -n 50 a', 'option number path');
  allows('head -c 4000', 'option number');
  allows('head -20 a', 'option path');
  allows('head -n -5 a', 'option number path');
  allows('tail -n +20 a', 'option number path');
  allows('tail -5 a');
  allows('tail -c 1K a');
  allows('wc -l src/a.ts src/b.ts', 'option path path');
  allows('wc --total=never -w a');
  allows('sort -u', 'option');
  allows('sort -k2,2 -t: -n', 'option option option');
  allows('sort -k 2 -t : a', 'option text option text path');
  allows('sort -rn --random-source=a b');
  allows('sort --check=quiet a');
  allows('uniq -c', 'option');
  allows('uniq -c a', 'option path');
  allows('uniq -f 2 -s 1 a');
  allows('cut -d: -f1', 'option option');
  allows("cut -d ' ' -f 2- a", 'option text option text path');
  allows("tr -d '\\r'", 'option text');
  allows('tr a-z A-Z', 'text text');
  allows('nl -ba a', 'option path');
  allows('nl -n rz -w 3 a', 'option text option number path');
  allows('column -t', 'option');
  allows("column -t -s ',' a.csv", 'option option text path');
  allows('diff -u a b', 'option path path');
  allows('diff -U 5 a b', 'option number path path');
  allows('diff --unified=5 a b');
  allows('diff -r --no-dereference a b', 'option option path path');
  allows('diff --from-file=a b c');
  allows('diff -q -X ignore.txt a b', 'option option path path path');

  refuses('sort -o out.txt a', "'sort -o' writes");
  refuses('sort -uo out.txt a', "'sort -o'");
  refuses('sort --output=o.txt a', "'sort --output=o.txt' writes");
  refuses('sort --compress-program=gzip a', 'runs a compression program');
  refuses('sort -T /tmp a', "'sort -T' writes temporary files");
  refuses('sort --temporary-directory=x a', '--temporary-directory');
  refuses('sort --files0-from=list', "'sort --files0-from=list' reads the names");
  refuses('uniq a b', 'OUTPUT file');
  refuses('wc --files0-from=list', '--files0-from');
  refuses('tail -f log', "'tail -f' follows the file");
  refuses('tail -F log', "'tail -F'");
  refuses('tail --follow=name log', '--follow');
  refuses('tail -20f log', "'tail -2'");
  refuses('tail +5f log', "'tail +5f' is the old spelling of tail -f");
  allows('tail +20 a', 'path path');
  refuses('diff -r a b', "'diff -r' follows symlinks", 'follow');
  refuses('diff --recursive a b', "'diff --recursive'", 'follow');
  refuses('diff -l a b', "'diff -l' runs the pr program");
  refuses('cat --bogus a', "'cat --bogus' is not an option");
  refuses('head -x a', "'head -x'");
  refuses('tr a b c', 'takes no argument', 'argument');
});

describe('grammars: echo, printf, pwd, true, false', () => {
  allows('echo -n x', 'option text');
  allows('echo --foo', 'text');
  allows('echo -- -x', 'text text');
  allows("echo '---'", 'text');
  allows('echo a -n', 'text text');
  allows('echo -ne a\\tb', 'option text');
  allows("printf '%s\\n' a b", 'text text text');
  allows("printf -- '-%s' x", 'option text text');
  allows("printf '%s' -x", 'text text');
  allows('pwd', '');
  allows('pwd -P', 'option');
  allows('true --anything -x', 'text text');
  allows('false', '');

  refuses('printf -v x %s a', "'printf -v' assigns");
  refuses('printf -x', "'printf -x' is not an option");
  refuses('pwd a', 'takes no argument', 'argument');
});

describe('grammars: which, stat, file, du, df, realpath, basename, dirname, date, whoami, uname', () => {
  allows('which -a rg', 'option text');
  allows("stat -c '%s %n' a", 'option text path');
  allows('stat --printf=%s a', 'option path');
  allows('stat -L a');
  allows('file -b --mime-type a', 'option option path');
  allows('file -m magic.mgc a', 'option path path');
  allows('file -e elf a', 'option text path');
  allows('du -sh a b', 'option path path');
  allows('du -h -d 1 .', 'option option number path');
  allows('du --exclude=node_modules -s .');
  allows('df -h .', 'option path');
  allows('df --output=source,size');
  allows('realpath --relative-to=src a', 'option path');
  allows('realpath -m a/b', 'option path');
  allows('basename /etc/passwd .conf', 'text text');
  allows('basename -s .ts a.ts b.ts', 'option text text text');
  allows('dirname /etc/passwd', 'text');
  allows('date -u +%Y-%m-%d', 'option text');
  allows("date -d '2 days ago' +%s", 'option text text');
  allows('date -Iseconds', 'option');
  allows('date -r a', 'option path');
  allows('date --rfc-3339=date');
  allows('whoami', '');
  allows('uname -a', 'option');
  allows('uname -sr', 'option');

  refuses('date -s 2020-01-01', "'date -s' sets the system clock");
  refuses('date --set=2020-01-01', '--set');
  refuses('date 01011200', "'date 01011200' sets the system clock");
  refuses('file -z a.gz', "'file -z' looks inside compressed files");
  refuses('file --uncompress a.gz', '--uncompress');
  refuses('file -Z a.gz', "'file -Z'");
  refuses('file -f list', "'file -f' reads the names");
  refuses('file --files-from list', '--files-from');
  refuses('file -C -m x', "'file -C' writes a compiled magic file");
  refuses('file --compile', '--compile');
  refuses('file -p a', "'file -p'");
  refuses('file -m a.mgc:/etc/magic x', "'file -m a.mgc:/etc/magic' names several magic files");
  refuses('du -L .', "'du -L' follows symlinks", 'follow');
  refuses('du --dereference .', "'du --dereference'", 'follow');
  refuses('du -sL .', "'du -L'", 'follow');
  refuses('du --files0-from=list', '--files0-from');
  refuses('df --sync', "'df --sync'");
  refuses('which -s rg', "'which -s'");
  refuses('whoami root', 'takes no argument', 'argument');
  refuses('uname -X', "'uname -X' is not an option");
  refuses('date -u 0101', 'sets the system clock');
});

describe('grammars: ls and tree', () => {
  allows('ls -la src', 'option path');
  allows('ls -1 --color=never', 'option option');
  allows('ls -lhS --group-directories-first', 'option option');
  allows('ls -R src', 'option path');
  allows('ls --sort=time -r', 'option option');
  allows("ls -I '*.js' src", 'option pattern path');
  allows('ls -w 80 -C', 'option number option');
  allows('ls --color', 'option');
  allows('tree -L 2 -I node_modules', 'option number option pattern');
  allows('tree -L 2 src/', 'option number path');
  allows('tree -aL 1 .', 'option number path');
  allows('tree -LI 2 node_modules .', 'option number pattern path');
  allows('tree --gitignore -d src', 'option option path');
  allows('tree --charset=ascii --noreport', 'option option');
  allows('tree --sort name --dirsfirst', 'option text option');
  allows('tree -- -L', 'option path');
  allows('tree -J -P "*.ts" src', 'option option pattern path');

  refuses('ls -L src', "'ls -L' follows symlinks", 'follow');
  refuses('ls --dereference', "'ls --dereference'", 'follow');
  refuses('ls -laL', "'ls -L' (in '-laL')", 'follow');
  refuses('ls --color=sometimes', 'takes one of', 'value');
  refuses('ls --frobnicate', "'ls --frobnicate' is not an option");
  refuses('tree -o out.txt', "'tree -o' writes its output");
  refuses('tree -Io node_modules out.txt', "'tree -o' (in '-Io') writes");
  refuses('tree --output=x', "'tree --output=x' writes");
  refuses('tree -R -L 2 -H .', "'tree -R' writes");
  refuses('tree -l', "'tree -l' follows symlinks", 'follow');
  refuses('tree -al', "'tree -l' (in '-al') follows", 'follow');
  refuses('tree --fromfile list', "'tree --fromfile' reads");
  refuses('tree -L', "'tree -L' needs a value");
  refuses('tree -L x', 'takes a number', 'value');
  refuses('tree --gitfile=.gitignore', 'as its own word');
  refuses('tree -y', "'tree -y' is not an option");
});

describe('grammars: grep, egrep, fgrep', () => {
  allows('grep -rn foo src', 'option pattern path');
  allows("grep -rnE 'a|b' --include='*.ts' .", 'option pattern option path');
  allows('grep -e foo -e bar a', 'option pattern option pattern path');
  allows('grep -f pats.txt a', 'option path path');
  allows('grep --file=pats.txt a', 'option path');
  allows('grep -A3 -B 2 foo a', 'option option number pattern path');
  allows('grep -3 foo a', 'option pattern path');
  allows('grep --color=never -c foo a');
  allows('grep --exclude-dir=node_modules -rl foo .', 'option option pattern path');
  allows('grep -- -x a', 'option pattern path');
  // grep reads every option first: with -e or -f anywhere, the first operand is a file.
  allows('grep foo -e bar a', 'path option pattern path');
  allows('grep /etc/passwd -f pats', 'path option path');
  allows('grep -d skip foo a', 'option text pattern path');
  allows('egrep -n "a|b" a', 'option pattern path');
  allows('fgrep -F x a', 'option pattern path');

  refuses('grep -R foo .', "'grep -R' follows symlinks out of the workspace; use grep -r", 'follow');
  refuses('grep --dereference-recursive foo .', '--dereference-recursive', 'follow');
  refuses('grep -nR foo .', "'grep -R' (in '-nR')", 'follow');
  refuses('grep --frob foo a', "'grep --frob' is not an option");
  refuses('grep -d maybe foo a', 'takes one of', 'value');
  refuses('egrep -R x .', "'egrep -R'", 'follow');
});

describe('grammars: rg', () => {
  allows("rg -n --hidden -g '*.ts' foo", 'option option option pattern pattern');
  allows("rg --files -g '*.md'", 'option option pattern');
  allows('rg --files src', 'option path');
  allows('rg -l foo', 'option pattern');
  allows('rg -C3 -t ts foo', 'option option text pattern');
  allows('rg -e foo -e bar src', 'option pattern option pattern path');
  allows('rg -f pats.txt src', 'option path path');
  allows('rg --json -uu foo .', 'option option pattern path');
  allows('rg --sort=path -i foo', 'option option pattern');
  allows('rg --no-follow --no-ignore-vcs foo');
  allows('rg --type-list', 'option');
  allows('rg -. foo');
  allows('rg -F -- -x src', 'option option pattern path');
  allows('rg --ignore-file .myignore foo', 'option path pattern');
  allows('rg /etc --files', 'path option');
  allows('rg foo -e bar', 'path option pattern');

  refuses('rg --pre cat foo', "'rg --pre' runs a preprocessor");
  refuses('rg --pre=cat foo', "'rg --pre=cat'");
  refuses("rg --pre-glob '*.gz' foo", "'rg --pre-glob'");
  refuses('rg --hostname-bin=hostname foo', "'rg --hostname-bin=hostname' runs a program");
  refuses('rg -z foo', "'rg -z' runs decompression programs");
  refuses('rg --search-zip foo', '--search-zip');
  refuses('rg -L foo', "'rg -L' follows symlinks", 'follow');
  refuses('rg --follow foo', "'rg --follow'", 'follow');
  refuses('rg -nL foo', "'rg -L' (in '-nL')", 'follow');
  refuses('rg --color=purple foo', 'takes one of', 'value');
  refuses('rg --frobnicate foo', "'rg --frobnicate' is not an option");
});

describe('grammars: fd', () => {
  allows('fd -e ts -t f . src', 'option text option text pattern path');
  allows('fd -H -I foo', 'option option pattern');
  allows("fd -g '*.md'", 'option pattern');
  allows('fd -tf -d 3 foo src', 'option option number pattern path');
  allows('fd --exclude node_modules x', 'option pattern pattern');
  allows('fd --search-path src foo', 'option path pattern');
  allows('fd --base-directory src -e ts', 'option dir option text');
  allows('fd --ignore-file .fdignore foo', 'option path pattern');
  allows('fd -0 --color=never foo');

  refuses('fd -x rm', "'fd -x' runs a command");
  refuses('fd --exec rm', "'fd --exec'");
  refuses('fd -X rm', "'fd -X' runs a command with all the results");
  refuses('fd --exec-batch=rm', "'fd --exec-batch=rm'");
  refuses('fd -Hx rm', "'fd -x' (in '-Hx')");
  refuses('fd -l foo', "'fd -l' runs ls");
  refuses('fd --list-details foo', '--list-details');
  refuses('fd -L foo', "'fd -L' follows symlinks", 'follow');
  refuses('fd --follow foo', "'fd --follow'", 'follow');
  refuses('fd --base-directory src foo lib', "'fd --base-directory' with a search path");
  refuses('fd --base-directory src --search-path lib foo', 'with --search-path');
  refuses('fd -t q foo', 'takes one of', 'value');
  refuses('fd --frob foo', "'fd --frob' is not an option");
});

describe('grammars: bat', () => {
  allows('bat -n --paging=never a', 'option option path');
  allows('bat -P a', 'option path');
  allows('bat -pp --color=never a b', 'option option path path');
  allows('bat -r 10:20 -l ts a', 'option text option text path');
  allows('bat --style=plain --wrap=never a');
  allows('bat --paging never a', 'option text path');
  allows('bat --list-languages', 'option');

  refuses('bat --pager less a', "'bat --pager' runs a pager");
  refuses('bat --pager=less a', "'bat --pager=less'");
  refuses('bat --paging=always a', "'bat --paging=always' may start a pager");
  refuses('bat --paging auto a', "'bat --paging=auto'");
  refuses('bat -p cache', "'bat cache' writes");
  refuses('bat cache', "'bat cache'");
  refuses('bat --generate-config-file', "'bat --generate-config-file' writes");
  refuses('bat --lessopen a', "'bat --lessopen' runs");
  refuses('bat --frob a', "'bat --frob' is not an option");
});

describe('grammars: jq', () => {
  allows("jq -r '.scripts | keys[]' package.json", 'option script path');
  allows("jq --arg n x '.[$n]' f", 'option text text script path');
  allows("jq --argjson n 1 '.a + $n' f", 'option text text script path');
  allows('jq -c . a.json b.json', 'option script path path');
  allows("jq -n --args '$ARGS.positional' a b", 'option option script path path');
  allows('jq . /etc/passwd --args', 'script path option');
  allows("jq -rS '.env' a.json", 'option script path');
  allows("jq '.a.env' a.json", 'script path');
  allows('jq --indent 4 . a', 'option number script path');
  allows('jq -e \'select(.name == "env")\' a', 'option script path');
  allows('jq \'.[] | "\\(.name)"\' a', 'script path');
  allows("jq -s 'map(.x) | add' a b", 'option script path path');
  allows("jq '.x # env in a comment' a", 'script path');
  allows('jq --version', 'option');

  refuses("jq -n 'env'", "'jq' filter using 'env' reads the environment");
  refuses("jq -n '$ENV.HOME'", "using '$ENV'");
  refuses("jq -n '{$ENV}'", "'$ENV'");
  refuses('jq -n \'"\\(env.HOME)"\'', "'env'");
  refuses('jq -n \'"\\("x" + (env | tostring))"\'', "'env'");
  refuses('jq \'import "a" as a; .\' f', "using 'import'");
  refuses('jq \'include "a"; .\' f', "using 'include'");
  refuses("jq 'input_filename' f", "using 'input_filename'");
  refuses('jq -n \'"m" | modulemeta\'', "'modulemeta'");
  refuses('jq -f prog.jq a', "'jq -f' reads the filter from a file");
  refuses('jq --from-file prog.jq a', '--from-file');
  refuses('jq --slurpfile x f.json .', "'jq --slurpfile' takes a variable name and then a file");
  refuses('jq --rawfile x f.txt .', "'jq --rawfile'");
  refuses('jq -L lib . a', "'jq -L' adds a module search path");
  refuses('jq --frob . a', "'jq --frob' is not an option");
  refuses('jq --arg n', "'jq --arg' needs 2 values");

  it('finds denied builtins only where jq reads code', () => {
    assert.equal(deniedInFilter('.env | .import'), null);
    assert.equal(deniedInFilter('"env" | ascii_downcase'), null);
    assert.equal(deniedInFilter('"\\\\(env)"'), null);
    assert.equal(deniedInFilter('$env'), null);
    assert.equal(deniedInFilter('$ ENV'), '$ENV');
    assert.equal(deniedInFilter('.a | env.PATH'), 'env');
    assert.equal(deniedInFilter('{env: 1}'), 'env');
    assert.equal(deniedInFilter('"a\\(1 + ("b" | length))c" | get_search_list'), 'get_search_list');
  });
});

describe('grammars: ast-grep', () => {
  allows("ast-grep run -p 'foo($A)' -l ts src", 'text option pattern option text path');
  allows("ast-grep -p 'foo($A)' src", 'option pattern path');
  allows("ast-grep -p 'x' --json=stream", 'option pattern option');
  allows('ast-grep run -p x -C 2 --globs "*.ts" src', 'text option pattern option number option pattern path');
  allows('ast-grep scan --rule rules/a.yml src', 'text option path path');
  allows('ast-grep scan -c sgconfig.yml --json', 'text option path option');
  allows('ast-grep test --skip-snapshot-tests', 'text option');
  allows('ast-grep --version', 'option');
  allows('ast-grep completions bash', 'text text');
  allows('ast-grep run -p x --custom-languages ignore', 'text option pattern option text');
  it('counts as project code (sgconfig.yml may load native parsers)', () => {
    const r = parse("ast-grep -p 'x' src");
    assert.ok(r.ok && r.projectCode);
  });

  refuses("ast-grep run -p 'a' -r 'b'", "'ast-grep run -r' rewrites code");
  refuses("ast-grep -p 'a' --rewrite='b'", "'ast-grep --rewrite=b' rewrites code");
  refuses("ast-grep -p 'a' -rb", "'ast-grep -r' (in '-rb')");
  refuses("ast-grep -p 'a' -U", "'ast-grep -U' applies rewrites");
  refuses('ast-grep run -p a --update-all', '--update-all');
  refuses('ast-grep run -p a -i', "'ast-grep run -i' applies rewrites");
  refuses('ast-grep scan --interactive', "'ast-grep scan --interactive'");
  refuses('ast-grep scan -r rule.yml', "'ast-grep scan -r'");
  refuses('ast-grep test -U', "'ast-grep test -U' updates the snapshot files");
  refuses('ast-grep new project', "'ast-grep new' creates files", 'subcommand');
  refuses('ast-grep lsp', "'ast-grep lsp' starts a language server", 'subcommand');
  refuses('ast-grep run -p a --follow', "'ast-grep run --follow' follows symlinks", 'follow');
  refuses('ast-grep run -p a --custom-languages allow', "'ast-grep --custom-languages allow' loads native parsers");
  refuses('ast-grep scan --config=sgconfig.yml', 'needs its file as a separate word');
  refuses('ast-grep run --frob', "'ast-grep run --frob' is not an option");
});

describe('grammars: git listing forms (rules §1.1 step 6)', () => {
  allows('git branch', 'subcommand');
  allows('git branch -a', 'subcommand option');
  allows('git branch -r -vv', 'subcommand option option');
  allows('git branch --show-current', 'subcommand option');
  allows("git branch --list 'feat*' 'fix*'", 'subcommand option pattern pattern');
  allows("git branch -l 'feat*'", 'subcommand option pattern');
  allows('git branch -a --contains HEAD', 'subcommand option option path');
  allows('git branch --merged main --no-merged v1', 'subcommand option path option path');
  allows(
    'git branch --points-at HEAD --sort=-committerdate --format=%(refname:short)',
    'subcommand option path option option',
  );
  allows('git branch --column=never --no-color', 'subcommand option option');
  allows('git remote', 'subcommand');
  allows('git remote -v', 'subcommand option');
  allows('git worktree list', 'subcommand subcommand');
  allows('git worktree list --porcelain', 'subcommand subcommand option');
  allows('git tag', 'subcommand');
  allows("git tag -l 'v1.*'", 'subcommand option pattern');
  allows("git tag --list --sort=-v:refname 'v*'", 'subcommand option option pattern');
  allows('git tag --contains HEAD -n3', 'subcommand option path option');
  allows('git tag -n', 'subcommand option');
  allows('git stash list', 'subcommand subcommand');
  allows('git stash list --oneline -5', 'subcommand subcommand option option');
  allows('git ls-tree -r --name-only HEAD src', 'subcommand option option path path');
  allows('git cat-file -p HEAD:src/a.ts', 'subcommand option path');
  allows('git cat-file -t HEAD', 'subcommand option path');
  allows('git cat-file -s HEAD', 'subcommand option path');
  allows('git cat-file -e HEAD', 'subcommand option path');
  allows('git merge-base HEAD main', 'subcommand path path');
  allows('git merge-base --is-ancestor HEAD main', 'subcommand option path path');
  allows('git rev-list --count HEAD', 'subcommand option path');
  allows('git rev-list --count main..HEAD', 'subcommand option path');
  allows('git rev-list --left-right --count main...HEAD -- src', 'subcommand option option path option path');

  refuses('git branch topic', "'git branch' takes no argument 'topic'", 'argument');
  refuses('git branch -a topic', "'git branch' takes no argument 'topic'", 'argument');
  refuses('git branch -d topic', "'git branch -d' creates, deletes");
  refuses('git branch -D topic', "'git branch -D'");
  refuses('git branch -m a b', "'git branch -m'");
  refuses('git branch -M b', "'git branch -M'");
  refuses('git branch -c a b', "'git branch -c'");
  refuses('git branch -C b', "'git branch -C'");
  refuses('git branch -u origin/main', "'git branch -u'");
  refuses('git branch --set-upstream-to=origin/main', "'git branch --set-upstream-to=origin/main'");
  refuses('git branch --edit-description', "'git branch --edit-description'");
  refuses('git branch -vd topic', "'git branch -d' (in '-vd')");
  refuses('git branch --show-current --list x', "'git branch --show-current' takes no pattern", 'argument');
  refuses('git remote add o https://example.com/r.git', "'git remote' takes no argument 'add'", 'argument');
  refuses('git remote -v show origin', "'git remote' takes no argument 'show'", 'argument');
  refuses('git remote rename a b', "'git remote' takes no argument", 'argument');
  refuses('git worktree add ../x', "'git worktree add' is not a read-only", 'subcommand');
  refuses('git worktree', "'git worktree' needs a read-only subcommand", 'subcommand');
  refuses('git worktree list extra', "'git worktree list' takes no argument", 'argument');
  refuses('git tag v1', "'git tag' takes no argument 'v1'", 'argument');
  refuses('git tag -a v1 -m x', "'git tag -a' creates, deletes or verifies tags");
  refuses('git tag -d v1', "'git tag -d'");
  refuses('git tag -v v1', "'git tag -v'");
  refuses('git tag -s v1', "'git tag -s'");
  refuses('git tag -f v1', "'git tag -f'");
  refuses('git stash', "'git stash' needs a read-only subcommand", 'subcommand');
  refuses('git stash push', "'git stash push' is not a read-only", 'subcommand');
  refuses('git stash pop', "'git stash pop' is not a read-only", 'subcommand');
  refuses('git stash -p', "'git stash -p' is not an option");
  refuses('git stash list --output=x', "'git stash list --output'");
  refuses('git cat-file --textconv HEAD:a', "'git cat-file --textconv'");
  refuses('git cat-file --filters HEAD:a', "'git cat-file --filters'");
  refuses('git cat-file --batch', "'git cat-file --batch'");
  refuses('git cat-file -p', 'takes one object', 'argument');
  refuses('git cat-file HEAD', 'exactly one of -p, -t, -s, -e', 'argument');
  refuses('git cat-file -p -s HEAD', 'exactly one of -p, -t, -s, -e', 'argument');
  refuses('git cat-file blob HEAD:a', "'git cat-file' takes no argument", 'argument');
  refuses('git rev-list --alternate-refs HEAD', "'git rev-list --alternate-refs'");
  refuses('git rev-list --stdin', "'git rev-list --stdin'");
  refuses('git merge-base --frob HEAD', "'git merge-base --frob'");
  refuses('git ls-tree -o x HEAD', "'git ls-tree -o'");
});

describe('grammars: what git is given so the repository cannot run a program', () => {
  for (const [command, insert] of [
    ['git log -p', '--no-textconv --no-ext-diff'],
    ['git show HEAD', '--no-textconv --no-ext-diff'],
    ['git diff', '--no-textconv --no-ext-diff'],
    ['git blame a.txt', '--no-textconv --no-ext-diff'],
    ['git shortlog -sn', '--no-textconv --no-ext-diff'],
    ['git rev-list --count HEAD', '--no-textconv --no-ext-diff'],
    ['git stash list -p', '--no-textconv --no-ext-diff'],
    ['git grep -n foo', '--no-textconv'],
  ] as const) {
    it(`${command}: '${insert}' after the subcommand`, () => {
      const r = parse(command);
      assert.ok(r.ok, command);
      const last = (r.inserts ?? [])[0];
      assert.equal(last?.text, insert);
      assert.equal(r.words[last?.after ?? -1]?.kind, 'subcommand');
    });
  }
  for (const command of [
    'git status',
    'git ls-files',
    'git rev-parse HEAD',
    'git describe',
    'git branch -a',
    'git cat-file -p HEAD',
  ]) {
    it(`${command}: nothing inserted (it takes neither option and runs no diff)`, () => {
      const r = parse(command);
      assert.ok(r.ok, command);
      assert.equal(r.inserts, undefined);
    });
  }
  refuses('git grep --recurse-submodules x', 'enters submodules');
  refuses('git ls-files --recurse-submodules', 'enters submodules');
  refuses('git status --ignore-submodules=none', "takes one of all, not 'none'", 'value');
  refuses('git diff --ignore-submodules=dirty', "takes one of all, not 'dirty'", 'value');
  refuses('git log -p --submodule=diff', "takes one of short, not 'diff'", 'value');
  allows('git status --ignore-submodules');
  allows('git diff --ignore-submodules=all --submodule=short');
});

describe('grammars: test', () => {
  allows('test -f a.txt', 'option path');
  allows('test -d src -a -r src/a', 'option path option path path');
  allows('test a.ts -nt b.ts', 'path option path');
  allows('test -z "" -o x = y', 'option text option text option text');
  allows('test 1 -lt 2', 'text option text');
  allows('test -L link', 'option path');
  allows("test ! -e 'x y'", 'option option path');
  allows('test -n abc', 'option text');
});

describe('the grammar registry', () => {
  /** Every file of src/core/gate/grammar/programs/, with its `grammars`. */
  const files = async (): Promise<[string, Grammars][]> => {
    const dir = join(__dirname, '../../src/core/gate/grammar/programs');
    const names = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    return Promise.all(
      names.map(async (f): Promise<[string, Grammars]> => {
        const grammars = ((await import(join(dir, f))) as { grammars?: Grammars }).grammars;
        assert.ok(grammars, `${f} exports no grammars`);
        return [f, grammars];
      }),
    );
  };

  /** A grammar as text, each function by its source, to compare two builds of one grammar. */
  const shape = (g: Grammar): string =>
    JSON.stringify(g, (_key, value: unknown) => (typeof value === 'function' ? String(value) : value));

  it('finds each program of every grammar file, as that file builds it, and no other', async () => {
    const all = await files();
    assert.ok(all.length >= 18, `only ${all.length} grammar files`);
    for (const [file, grammars] of all) {
      for (const [program, build] of Object.entries(grammars)) {
        const found = grammarOf(program);
        assert.ok(found, `${program} of ${file}`);
        assert.equal(found.name, program, `${program} of ${file}`);
        assert.equal(shape(found), shape(build()), `${program} of ${file}`);
      }
    }
    const programs = all.flatMap(([, g]) => Object.keys(g)).sort();
    const twice = programs.filter((p, i) => programs[i + 1] === p);
    assert.deepEqual(twice, [], 'programs named by two files');
    assert.deepEqual(allowedPrograms(), programs, 'the registry names exactly the programs of the files');
  });

  it('builds a grammar once and gives that same grammar every time', () => {
    for (const program of allowedPrograms()) assert.equal(grammarOf(program), grammarOf(program), program);
  });

  it("finds nothing for names that are no program, Object's own included", () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'python', 'LS', '']) {
      assert.equal(grammarOf(name), undefined, name);
    }
  });
});

describe('the option tables', () => {
  it('name every option without white space (the builders split names at single spaces)', () => {
    const seen = new Set<Grammar>();
    const walk = (g: Grammar, where: string): number => {
      if (seen.has(g)) return 0;
      seen.add(g);
      let n = 0;
      for (const name of Object.keys(g.options)) {
        assert.match(name, /^\S+$/, `${where}: option ${JSON.stringify(name)}`);
        n++;
      }
      for (const [sub, sg] of Object.entries(g.subcommands ?? {})) n += walk(sg, `${where} ${sub}`);
      return n;
    };
    let total = 0;
    for (const program of allowedPrograms()) total += walk(grammarOf(program) as Grammar, program);
    assert.ok(total > 1000, `only ${total} options`);
  });
});
