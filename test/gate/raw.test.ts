/** Rules §1.1 steps 1–2: raw-string rejections and redirections, and the order checks run in. */
import assert from 'node:assert/strict';
import { checkShellCommand } from '../../src/core/gate';
import { TRUSTED, expectAllowed, expectBlocked } from './helpers';

describe('gate: raw-string rejections (step 1)', () => {
  const cases: Array<[string, string, string]> = [
    ['backtick', 'echo `id`', 'raw.backtick'],
    ['backtick inside double quotes', 'echo "`id`"', 'raw.backtick'],
    ['$(', 'echo $(id)', 'raw.substitution'],
    ['$( inside double quotes', 'ls "$(pwd)"', 'raw.substitution'],
    ['arithmetic $((', 'echo $((1+2))', 'raw.substitution'],
    ['${', 'ls ${HOME}', 'raw.expansion'],
    ['$NAME', 'cat $FILE', 'raw.expansion'],
    ['$ followed by a digit', 'echo $1', 'raw.expansion'],
    ['special parameter $?', 'echo $?', 'raw.expansion'],
    ['ANSI-C quoting', "echo $'\\x72m'", 'raw.expansion'],
    ['$ inside double quotes', 'echo "cost: $"', 'raw.double-quote'],
    ['backslash inside double quotes', 'echo "a\\b"', 'raw.double-quote'],
    ['<(', 'diff <(ls) a', 'raw.process-substitution'],
    ['>(', 'ls >(cat)', 'raw.process-substitution'],
    ['heredoc', 'cat <<EOF\nhi\nEOF', 'raw.heredoc'],
    ['here-string', "bash <<< 'rm x'", 'raw.heredoc'],
    ['unquoted *', 'ls *.ts', 'raw.glob'],
    ['unquoted ?', 'cat ?.txt', 'raw.glob'],
    ['unquoted [', 'ls [ab].txt', 'raw.glob'],
    ['unquoted ]', 'cat a]', 'raw.glob'],
    ['unquoted {', 'echo {a,b}', 'raw.glob'],
    ['unquoted }', 'echo a}', 'raw.glob'],
    ['single &', 'sleep 5 &', 'raw.background'],
    ['single & between commands', 'ls & rm x', 'raw.background'],
    ['unbalanced single quote', "ls 'src", 'raw.quote'],
    ['unbalanced double quote', 'ls "src', 'raw.quote'],
    ['trailing backslash', 'ls \\', 'raw.quote'],
    ['NUL', 'ls\u0000rm x', 'raw.control'],
    ['escape (ESC)', 'ls \u001b[2J', 'raw.control'],
    ['carriage return', 'ls\rrm x', 'raw.control'],
    ['DEL', 'ls\u007f', 'raw.control'],
    ['C1 control', "echo 'a\u0085b'", 'raw.control'],
    ['control inside single quotes', "echo '\u0001'", 'raw.control'],
    ['bidi override', 'ls \u202erm x', 'raw.control'],
    ['unquoted ( starts a subshell', '(rm x)', 'raw.subshell'],
  ];
  for (const [name, command, rule] of cases) {
    it(`${name}: ${JSON.stringify(command)}`, () => {
      expectBlocked(command, rule);
    });
  }

  it('inside single quotes everything is literal', () => {
    for (const command of [
      "rg -n '$(' src",
      "rg -n '`x`' src",
      "rg -n '${HOME}' src",
      "find . -name '*.ts'",
      "rg '[a-z]{2}?' src",
      "rg 'a & b' src",
      "rg 'a > b < c' src",
      "rg '<<EOF' src",
      "echo 'a\\b'",
    ]) {
      expectAllowed(command);
    }
  });

  it('newline and tab are not control characters for this rule', () => {
    expectAllowed('ls\tsrc\nwc -l README.md');
  });

  it('a literal $ before a space or at the end is kept', () => {
    expectAllowed('rg -n a$ src');
    expectAllowed("rg -n 'a $ b' src");
  });

  it('the reason names the construct', () => {
    assert.equal(checkShellCommand('cat $FILE', TRUSTED).reason, "blocked: variable expansion '$FILE' is not allowed");
    assert.equal(
      checkShellCommand('ls\u0000', TRUSTED).reason,
      'blocked: control character U+0000 is not allowed in a command',
    );
  });
});

describe('gate: redirections (step 2)', () => {
  for (const command of [
    'ls 2>&1',
    'cargo check 2>&1 | head',
    'ls 2>/dev/null',
    'ls 2>/dev/null || echo none',
    '2>&1 ls',
  ]) {
    it(`allows ${command}`, () => {
      expectAllowed(command);
    });
  }
  const rejected: Array<[string, string]> = [
    ['echo hi > f.txt', "'>'"],
    ['echo hi >> f.txt', "'>>'"],
    ['ls &> f.txt', "'&>'"],
    ['ls >| f.txt', "'>|'"],
    ['ls >&2', "'>&'"],
    ['ls 1> out', "'>'"],
    ['ls 2> err.txt', "'>'"],
    ['ls 2> /dev/null', "'>'"],
    ['ls 2>/dev/nullx', "'>'"],
    ['ls x2>&1', "'>&'"],
    ['echo > /dev/null', "'>'"],
    ['cat < a.txt', "'<'"],
    ['cat <a.txt', "'<'"],
    ['ls <> f', "'<>'"],
    ['ls |& cat', "'|&'"],
  ];
  for (const [command, op] of rejected) {
    it(`rejects ${command}`, () => {
      expectBlocked(command, 'redirect', op);
    });
  }
  it('output and input redirections say why', () => {
    assert.equal(checkShellCommand('ls > a', TRUSTED).reason, "blocked: output redirection '>' is not read-only");
    assert.match(checkShellCommand('cat < a', TRUSTED).reason, /input redirection '<' is not allowed; pass the file/);
  });
});

describe('gate: checks run in order; the first failure is reported', () => {
  it('a raw rejection beats an earlier redirection', () => {
    expectBlocked('echo hi > f.txt; echo `id`', 'raw.backtick');
  });
  it('a redirection beats a refused program', () => {
    expectBlocked('rm x > out', 'redirect');
  });
  it('segments are checked left to right', () => {
    expectBlocked('rm a && git push', 'program');
    expectBlocked('git push && rm a', 'subcommand');
  });
  it('the subcommand comes before its options, options before paths', () => {
    expectBlocked('git -c a=b checkout', 'subcommand');
    expectBlocked('git -c a=b log /etc', 'option');
    expectBlocked('sort -o x /etc/passwd', 'option');
  });
  it('trust comes after the subcommand and before options', () => {
    expectBlocked('npm run build', 'subcommand', undefined, { ...TRUSTED, trusted: false });
    expectBlocked('cargo clippy --fix', 'trust', undefined, { ...TRUSTED, trusted: false });
  });
  it('a command is allowed only when shell-quote reads it the same way', () => {
    expectBlocked('echo a#b', 'parse', 'could not be parsed');
    expectBlocked('ls ;; rm x', 'parse');
  });
});
