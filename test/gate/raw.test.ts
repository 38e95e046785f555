/** Rules §1.1 steps 1–2: raw-string rejections and redirections, and the order checks run in. */
import assert from 'node:assert/strict';
import { TRUSTED, expectAllowed, expectBlocked, judge, verdictOf } from './helpers';

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
    ['backslash before a line break inside double quotes', 'echo "a\\\nb"', 'raw.double-quote'],
    ['$ after an escaped backslash inside double quotes', 'echo "a\\\\$HOME"', 'raw.expansion'],
    ['backtick after an escaped backslash inside double quotes', 'echo "\\\\`id`"', 'raw.backtick'],
    ['an escaped quote leaves the double quote open', 'rg -n "a\\" src', 'raw.quote'],
    ['<(', 'diff <(ls) a', 'raw.process-substitution'],
    ['>(', 'ls >(cat)', 'raw.process-substitution'],
    ['heredoc', 'cat <<EOF\nhi\nEOF', 'raw.heredoc'],
    ['here-string', "bash <<< 'rm x'", 'raw.heredoc'],
    ['unquoted {', 'echo {a,b}', 'raw.brace'],
    ['unquoted }', 'echo a}', 'raw.brace'],
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
    it(`${name}: ${JSON.stringify(command)}`, async () => {
      await expectBlocked(command, rule);
    });
  }

  it('inside single quotes everything is literal', async () => {
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
      await expectAllowed(command);
    }
  });

  it('newline and tab are not control characters for this rule', async () => {
    await expectAllowed('ls\tsrc\nwc -l README.md');
  });

  it('inside double quotes a backslash follows POSIX: it escapes $ ` " \\ and is literal before anything else', async () => {
    const cases: Array<[string, string]> = [
      ['rg -n "foo\\(" src', 'foo\\('],
      ['grep -rn "a\\|b" src', 'a\\|b'],
      ['rg "\\$HOME" src', '$HOME'],
      ['rg "\\$(id)" src', '$(id)'],
      ['rg "a\\`id\\`" src', 'a`id`'],
      ['rg "say \\"hi\\"" src', 'say "hi"'],
      ['rg "C:\\\\Users" src', 'C:\\Users'],
      ['rg "\\\\\\(" src', '\\\\('],
      ['rg "\\n\\t\\d+" src', '\\n\\t\\d+'],
      // A quoted `*` stays literal next to an unquoted one; nothing matches, so the word is kept.
      ['rg "\\*"* src', '\\**'],
    ];
    for (const [command, pattern] of cases) {
      const j = await judge(command);
      assert.equal(j.verdict.allowed, true, `${command}: ${j.verdict.reason}`);
      assert.equal(j.parsed?.segments[0]?.args.at(-2), pattern, command);
    }
  });

  it('outside quotes a backslash escapes the next character; inside single quotes it is literal', async () => {
    const j = await judge("rg a\\(b\\|c 'd\\(e' \\\\ src");
    assert.equal(j.verdict.allowed, true, j.verdict.reason);
    assert.deepEqual(j.parsed?.segments[0]?.args, ['a(b|c', 'd\\(e', '\\', 'src']);
  });

  it("sed's script and the paths are read from the unescaped value", async () => {
    await expectBlocked('sed -n "/a\\/b/w out" a.txt', 'sed', "'w'");
    const last = await judge('sed -n "1,5p;\\$p" a.txt');
    assert.equal(last.verdict.allowed, true, last.verdict.reason);
    assert.deepEqual(last.parsed?.segments[0]?.args, ['-n', '1,5p;$p', 'a.txt']);
    await expectBlocked('cat "/etc/pass\\wd"', 'path', "'/etc/pass\\wd'");
    await expectBlocked('cd "s\\ub" && ls', 'cd', "'cd s\\ub'");
  });

  it('an escaped * or ? outside quotes is a literal character, not a glob', async () => {
    const j = await judge('find . -name \\*.ts -o -name a\\?');
    assert.equal(j.verdict.allowed, true, j.verdict.reason);
    assert.deepEqual(j.parsed?.segments[0]?.args, ['.', '-name', '*.ts', '-o', '-name', 'a?']);
  });

  it('a literal $ before a space or at the end is kept', async () => {
    await expectAllowed('rg -n a$ src');
    await expectAllowed("rg -n 'a $ b' src");
  });

  it('the reason names the construct', async () => {
    assert.equal((await verdictOf('cat $FILE', TRUSTED)).reason, "blocked: variable expansion '$FILE' is not allowed");
    assert.equal(
      (await verdictOf('ls\u0000', TRUSTED)).reason,
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
    it(`allows ${command}`, async () => {
      await expectAllowed(command);
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
    it(`rejects ${command}`, async () => {
      await expectBlocked(command, 'redirect', op);
    });
  }
  it('output and input redirections say why', async () => {
    assert.equal((await verdictOf('ls > a', TRUSTED)).reason, "blocked: output redirection '>' is not read-only");
    assert.match((await verdictOf('cat < a', TRUSTED)).reason, /input redirection '<' is not allowed; pass the file/);
  });
});

describe('gate: checks run in order; the first failure is reported', () => {
  it('a raw rejection beats an earlier redirection', async () => {
    await expectBlocked('echo hi > f.txt; echo `id`', 'raw.backtick');
  });
  it('a redirection beats a refused program', async () => {
    await expectBlocked('rm x > out', 'redirect');
  });
  it('segments are checked left to right', async () => {
    await expectBlocked('rm a && git push', 'program');
    await expectBlocked('git push && rm a', 'subcommand');
  });
  it('the subcommand comes before its options, options before paths', async () => {
    // The grammar reads words in order: the first word it refuses is reported.
    await expectBlocked('git -c a=b checkout', 'option', "'git -c'");
    await expectBlocked('git checkout -c a=b', 'subcommand');
    await expectBlocked('git log --ext-diff /etc', 'option');
    await expectBlocked('git log /etc', 'path');
    await expectBlocked('sort -o x /etc/passwd', 'option');
  });
  it('trust comes after the subcommand and before options', async () => {
    await expectBlocked('npm run build', 'subcommand', undefined, { ...TRUSTED, trusted: false });
    await expectBlocked('cargo clippy --fix', 'trust', undefined, { ...TRUSTED, trusted: false });
  });
  it('a # inside a word is an ordinary character, as POSIX says; a command shell-quote misreads is refused', async () => {
    await expectAllowed('echo a#b');
    await expectAllowed('echo https://x.y/#top');
    await expectBlocked('ls ;; rm x', 'parse');
  });
});
