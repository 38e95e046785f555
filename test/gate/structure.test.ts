/** Rules §1.1 steps 3–6: segments, prefixes, the program allow-list, read-only subcommands and trust. */
import assert from 'node:assert/strict';
import { TRUSTED, UNTRUSTED, expectAllowed, expectBlocked, verdictOf } from './helpers';

describe('gate: segments (step 3)', () => {
  it('splits on &&, ||, ;, newline and | and checks every segment', async () => {
    for (const sep of [' && ', ' || ', '; ', '\n', ' | ']) {
      await expectAllowed(`ls${sep}pwd`);
      await expectBlocked(`ls${sep}rm x`, 'program');
    }
  });
  it('an operator with no command on one side is refused', async () => {
    await expectBlocked('ls && && pwd', 'segment');
    await expectBlocked('| ls', 'segment');
    await expectBlocked('ls |', 'segment');
  });
  it('trailing and blank separators are fine, an empty command is not', async () => {
    await expectAllowed('ls;');
    await expectAllowed('\nls\n\n');
    await expectBlocked('', 'empty');
    await expectBlocked(' \n ', 'empty');
  });
  it('a comment runs to the end of its line only', async () => {
    await expectAllowed('ls # rm everything');
    await expectBlocked('ls # fine\nrm -rf x', 'program');
  });
  it('a line continuation joins words like the shell does', async () => {
    await expectAllowed('rg -n foo \\\n  src');
    await expectBlocked('r\\\nm x', 'program', "'rm'");
  });
});

describe('gate: prefixes (step 4)', () => {
  it('skips NAME=value assignments', async () => {
    await expectAllowed('LC_ALL=C sort a.txt');
    await expectAllowed('CI=1 NO_COLOR=1 LC_ALL=C ls');
    await expectAllowed('TERM=dumb FORCE_COLOR=0 RUST_BACKTRACE=1 RUST_LOG=debug LANG=C ls');
  });
  it('refuses every other assignment (rules §1.1 step 4 lists the safe ones)', async () => {
    await expectBlocked('FOO=1 BAR=two ls', 'prefix', "setting 'FOO' before a command is not allowed");
    await expectBlocked('UPDATE_EXPECT=1 cargo test', 'prefix', 'rewriting snapshots or expected output');
    await expectBlocked('INSTA_UPDATE=always cargo test', 'prefix', 'rewriting snapshots');
    await expectBlocked('TRYBUILD=overwrite cargo test', 'prefix', 'rewriting snapshots');
  });
  it('skips a bare env, with or without assignments', async () => {
    await expectAllowed('env ls');
    await expectAllowed('env LC_ALL=C ls');
  });
  it('rejects env -S / --split-string', async () => {
    await expectBlocked("env -S 'rm x'", 'prefix', "'env -S'");
    await expectBlocked("env --split-string='rm x'", 'prefix');
  });
  it('rejects other env options and env without a command', async () => {
    await expectBlocked('env -u HOME rm x', 'prefix', 'env options are not allowed');
    await expectBlocked('env', 'prefix', 'prints the environment');
    await expectBlocked('CI=1', 'prefix', 'without a command');
  });
  it('rejects assignments that make programs load or run other code', async () => {
    for (const command of [
      'GIT_EXTERNAL_DIFF=./x.sh git diff',
      'LD_PRELOAD=./x.so ls',
      'PAGER=./x git log',
      'RIPGREP_CONFIG_PATH=./rgrc rg foo',
      'env GIT_CONFIG_GLOBAL=./x git log',
      'NPM_CONFIG_SCRIPT_SHELL=./x npm test',
    ]) {
      await expectBlocked(command, 'prefix', 'before a command is not allowed');
    }
  });
  it('a quoted NAME= is a command name, not an assignment', async () => {
    await expectBlocked('"FOO"=1 ls', 'program', "'FOO=1'");
  });
  for (const runner of [
    'sudo',
    'doas',
    'xargs',
    'nohup',
    'time',
    'exec',
    'eval',
    'command',
    'builtin',
    'source',
    '.',
    'nice',
    'timeout',
    'watch',
  ]) {
    it(`rejects the prefix '${runner}'`, async () => {
      await expectBlocked(`${runner} ls`, 'prefix', `'${runner}' runs another command`);
    });
  }
});

describe('gate: program allow-list (step 5)', () => {
  const simple =
    'rg ls cat diff find wc grep egrep fgrep head tail sort uniq bat sed cut tr ast-grep echo pwd printf true false test fd tree which stat file du df realpath basename dirname nl column jq date whoami uname';
  const benign: Record<string, string> = {
    sed: "sed -n '1p' a.txt",
    'ast-grep': "ast-grep -p 'x'",
    pwd: 'pwd -P',
    date: 'date -u +%Y',
    whoami: 'whoami',
    uname: 'uname -a',
    test: 'test -f a.txt',
    true: 'true',
    false: 'false',
  };
  for (const program of simple.split(' ')) {
    it(`allows ${program}`, async () => {
      await expectAllowed(benign[program] ?? `${program} a.txt`);
    });
  }
  it("refuses 'sg', which is also the set-group command that runs a command", async () => {
    await expectBlocked('sg staff -c id', 'program', 'set-group command');
    await expectBlocked("sg -p 'x'", 'program', 'ast-grep');
  });
  it('allows cd into the workspace', async () => {
    await expectAllowed('cd src');
  });
  it('judges the file name, lower-cased, so a system path to rg counts as rg', async () => {
    await expectAllowed('/usr/bin/rg -n foo src');
    await expectAllowed('RG -n foo src');
    await expectBlocked('/bin/rm x', 'program', "'/bin/rm' changes files");
  });
  it('refuses programs run by a path outside the system directories', async () => {
    await expectBlocked('./rg foo', 'program', 'runs a file by path');
    await expectBlocked('node_modules/.bin/rg foo', 'program', 'runs a file by path');
    await expectBlocked('/tmp/x/rg foo', 'program', 'runs a file by path');
  });
  const refused: Array<[string, string]> = [
    ['sh -c x', 'interpreter'],
    ['bash x.sh', 'interpreter'],
    ['zsh', 'interpreter'],
    ['python3 x.py', 'interpreter'],
    ['python x.py', 'interpreter'],
    ['node x.js', 'interpreter'],
    ['perl -e 1', 'interpreter'],
    ['ruby x.rb', 'interpreter'],
    ["awk '{print}' a", 'interpreter'],
    ['vim a', 'editor'],
    ['less a', 'pager'],
    ['more a', 'pager'],
    ['tee a', 'writes files'],
    ['dd if=a of=b', 'writes files'],
    ['cp a b', 'changes files'],
    ['mv a b', 'changes files'],
    ['rm a', 'changes files'],
    ['mkdir a', 'changes files'],
    ['touch a', 'changes files'],
    ['chmod +x a', 'changes files'],
    ['ln -s a b', 'changes files'],
    ['curl http://example.test', 'not on the read-only allow-list'],
    // A program word holding a space is no name of any list, though the two halves are.
    ["'tee dd' a", 'not on the read-only allow-list'],
    ["'vi vim' a", 'not on the read-only allow-list'],
    ['"" a', 'not on the read-only allow-list'],
    ['tee.exe a', 'not on the read-only allow-list'],
  ];
  for (const [command, why] of refused) {
    it(`refuses ${command}`, async () => {
      await expectBlocked(command, 'program', why);
    });
  }
  it('judges the word after quote removal', async () => {
    for (const command of ["r''m x", '\\rm x', '"r"m x', "'rm' x", 'r\\m x']) {
      assert.equal((await verdictOf(command, TRUSTED)).reason, "blocked: 'rm' changes files", command);
    }
  });
});

describe('gate: read-only subcommands (step 6)', () => {
  for (const sub of [
    'status',
    'log',
    'diff',
    'show',
    'blame',
    'ls-files',
    'rev-parse',
    'describe',
    'shortlog',
    'grep',
  ]) {
    it(`allows git ${sub}`, async () => {
      await expectAllowed(`git ${sub}`);
    });
  }
  it('skips options and NAME=value words when finding the git subcommand', async () => {
    await expectAllowed('git --no-pager log -1');
    await expectAllowed('git -C src status');
    await expectBlocked('git --no-pager push', 'subcommand', "'git push'");
  });
  for (const command of ['git push', 'git commit -m x', 'git checkout main', 'git reset --hard', 'git', 'git stash']) {
    it(`rejects ${command}`, async () => {
      await expectBlocked(command, 'subcommand');
    });
  }
  for (const command of [
    'cargo check',
    'cargo test',
    'cargo metadata',
    'cargo tree',
    'cargo clippy',
    'cargo nextest run',
    'cargo nextest list',
    'npm test',
    'npm run test',
    'pnpm test',
    'pnpm run test',
    'yarn test',
    'yarn run test',
  ]) {
    it(`allows ${command} in a trusted workspace`, async () => {
      await expectAllowed(command);
    });
  }
  for (const command of [
    'cargo build',
    'cargo run',
    'cargo nextest archive',
    'npm run build',
    'npm install',
    'npm install --dry-run',
    'pnpm install --dry-run',
    'yarn install --dry-run',
    'npm install --dry-run=false',
    'npm install --dry-run --no-dry-run',
    'npm ci',
    'yarn',
    'pnpm add x',
  ]) {
    it(`rejects ${command}`, async () => {
      await expectBlocked(command, 'subcommand');
    });
  }
});

describe('gate: trust (step 6)', () => {
  for (const command of ['npm test', 'npm run test', 'cargo check', 'cargo nextest run', 'yarn test', 'pnpm test']) {
    it(`rejects ${command} in an untrusted workspace, saying so`, async () => {
      const v = await expectBlocked(command, 'trust', undefined, UNTRUSTED);
      assert.equal(v.reason, `blocked: '${command}' runs project code; not allowed in an untrusted workspace`);
    });
  }
  it('read-only inspection is unaffected by trust', async () => {
    await expectAllowed('git log --oneline | head -20', UNTRUSTED);
    await expectAllowed("rg -n 'x' src && cat README.md", UNTRUSTED);
  });
});

describe('gate: option values (argv grammar)', () => {
  it('an empty attached value is the value: the next word stays an argument', async () => {
    // `--format=` sets an empty format; `/etc/passwd` after it is a path, and outside.
    await expectBlocked('git log --format= /etc/passwd', 'path');
    await expectAllowed('git log --format= -3');
  });
});
