/** Rules §1.1 steps 3–6: segments, prefixes, the program allow-list, read-only subcommands and trust. */
import assert from 'node:assert/strict';
import { checkShellCommand } from '../../src/core/gate';
import { TRUSTED, UNTRUSTED, expectAllowed, expectBlocked } from './helpers';

describe('gate: segments (step 3)', () => {
  it('splits on &&, ||, ;, newline and | and checks every segment', () => {
    for (const sep of [' && ', ' || ', '; ', '\n', ' | ']) {
      expectAllowed(`ls${sep}pwd`);
      expectBlocked(`ls${sep}rm x`, 'program');
    }
  });
  it('an operator with no command on one side is refused', () => {
    expectBlocked('ls && && pwd', 'segment');
    expectBlocked('| ls', 'segment');
    expectBlocked('ls |', 'segment');
  });
  it('trailing and blank separators are fine, an empty command is not', () => {
    expectAllowed('ls;');
    expectAllowed('\nls\n\n');
    expectBlocked('', 'empty');
    expectBlocked(' \n ', 'empty');
  });
  it('a comment runs to the end of its line only', () => {
    expectAllowed('ls # rm everything');
    expectBlocked('ls # fine\nrm -rf x', 'program');
  });
  it('a line continuation joins words like the shell does', () => {
    expectAllowed('rg -n foo \\\n  src');
    expectBlocked('r\\\nm x', 'program', "'rm'");
  });
});

describe('gate: prefixes (step 4)', () => {
  it('skips NAME=value assignments', () => {
    expectAllowed('LC_ALL=C sort a.txt');
    expectAllowed('FOO=1 BAR=two ls');
  });
  it('skips a bare env, with or without assignments', () => {
    expectAllowed('env ls');
    expectAllowed('env LC_ALL=C ls');
  });
  it('rejects env -S / --split-string', () => {
    expectBlocked("env -S 'rm x'", 'option', "'env -S'");
    expectBlocked("env --split-string='rm x'", 'option');
  });
  it('rejects other env options and env without a command', () => {
    expectBlocked('env -u HOME rm x', 'prefix', 'env options are not allowed');
    expectBlocked('env', 'prefix', 'prints the environment');
    expectBlocked('FOO=1', 'prefix', 'without a command');
  });
  it('rejects assignments that make programs load or run other code', () => {
    for (const command of [
      'GIT_EXTERNAL_DIFF=./x.sh git diff',
      'LD_PRELOAD=./x.so ls',
      'PAGER=./x git log',
      'RIPGREP_CONFIG_PATH=./rgrc rg foo',
      'env GIT_CONFIG_GLOBAL=./x git log',
      'NPM_CONFIG_SCRIPT_SHELL=./x npm test',
    ]) {
      expectBlocked(command, 'prefix', 'can make programs load or run other code');
    }
  });
  it('a quoted NAME= is a command name, not an assignment', () => {
    expectBlocked('"FOO"=1 ls', 'program', "'FOO=1'");
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
    it(`rejects the prefix '${runner}'`, () => {
      expectBlocked(`${runner} ls`, 'prefix', `'${runner}' runs another command`);
    });
  }
});

describe('gate: program allow-list (step 5)', () => {
  const simple =
    'rg ls cat diff find wc grep egrep fgrep head tail sort uniq bat sed cut tr ast-grep sg echo pwd printf true false test fd tree which stat file du df realpath basename dirname nl column jq date whoami uname';
  const benign: Record<string, string> = { sed: "sed -n '1p' a.txt", sg: "sg -p 'x'", 'ast-grep': "ast-grep -p 'x'" };
  for (const program of simple.split(' ')) {
    it(`allows ${program}`, () => {
      expectAllowed(benign[program] ?? `${program} a.txt`);
    });
  }
  it('allows cd into the workspace', () => {
    expectAllowed('cd src');
  });
  it('judges the file name, lower-cased, so a system path to rg counts as rg', () => {
    expectAllowed('/usr/bin/rg -n foo src');
    expectAllowed('RG -n foo src');
    expectBlocked('/bin/rm x', 'program', "'/bin/rm' changes files");
  });
  it('refuses programs run by a path outside the system directories', () => {
    expectBlocked('./rg foo', 'program', 'runs a file by path');
    expectBlocked('node_modules/.bin/rg foo', 'program', 'runs a file by path');
    expectBlocked('/tmp/x/rg foo', 'program', 'runs a file by path');
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
  ];
  for (const [command, why] of refused) {
    it(`refuses ${command}`, () => {
      expectBlocked(command, 'program', why);
    });
  }
  it('judges the word after quote removal', () => {
    for (const command of ["r''m x", '\\rm x', '"r"m x', "'rm' x", 'r\\m x']) {
      assert.equal(checkShellCommand(command, TRUSTED).reason, "blocked: 'rm' changes files", command);
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
    it(`allows git ${sub}`, () => {
      expectAllowed(`git ${sub}`);
    });
  }
  it('skips options and NAME=value words when finding the git subcommand', () => {
    expectAllowed('git --no-pager log -1');
    expectAllowed('git -C src status');
    expectBlocked('git --no-pager push', 'subcommand', "'git push'");
  });
  for (const command of ['git push', 'git commit -m x', 'git checkout main', 'git reset --hard', 'git', 'git stash']) {
    it(`rejects ${command}`, () => {
      expectBlocked(command, 'subcommand');
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
    'npm install --dry-run',
    'pnpm install --dry-run',
    'yarn install --dry-run',
  ]) {
    it(`allows ${command} in a trusted workspace`, () => {
      expectAllowed(command);
    });
  }
  for (const command of [
    'cargo build',
    'cargo run',
    'cargo nextest archive',
    'npm run build',
    'npm install',
    'npm install --dry-run=false',
    'npm install --dry-run --no-dry-run',
    'npm ci',
    'yarn',
    'pnpm add x',
  ]) {
    it(`rejects ${command}`, () => {
      expectBlocked(command, 'subcommand');
    });
  }
});

describe('gate: trust (step 6)', () => {
  for (const command of [
    'npm test',
    'npm run test',
    'cargo check',
    'cargo nextest run',
    'yarn test',
    'pnpm install --dry-run',
  ]) {
    it(`rejects ${command} in an untrusted workspace, saying so`, () => {
      const v = expectBlocked(command, 'trust', undefined, UNTRUSTED);
      assert.equal(v.reason, `blocked: '${command}' runs project code; not allowed in an untrusted workspace`);
    });
  }
  it('read-only inspection is unaffected by trust', () => {
    expectAllowed('git log --oneline | head -20', UNTRUSTED);
    expectAllowed("rg -n 'x' src && cat README.md", UNTRUSTED);
  });
});
