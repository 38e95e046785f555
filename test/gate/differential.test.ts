/**
 * Differential tests of the gate's parse against the real programs (issue 12):
 *
 * (a) git's own subcommand choice. Random `git <globals> <sub> <args>` lines, built from allowed
 *     and refused global options and from read-only and writing subcommands, are judged by the gate
 *     and run with `GIT_TRACE=1` in a scratch repository; the trace names the built-in git really
 *     ran. Whenever the gate allows a line, git must have run exactly the gate's subcommand. The
 *     listing forms (`branch`, `tag`, `remote`, `stash`, `worktree`, …) get lines of their own, mixing
 *     listing options with names and the options that create, delete or move: whenever the gate
 *     allows one, running it as the gate's parse says leaves every ref, the stash, the worktrees
 *     and the configuration as they were.
 * (b) shell words. Random `printf '%s\0' WORDS` lines (quotes, escapes, globs, `#`, `~`, `=`,
 *     tabs, newlines inside quotes) are judged by the gate and run by `dash -c` and `bash -c` in a
 *     directory with a few files; for every allowed line the words the gate says printf receives
 *     (`parsed.segments[0].args` after the format) must be the words both shells passed.
 *
 * Both use a seeded generator, so a failure names a reproducible line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeCommand, type GateContext } from '../../src/core/gate';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';
import { runEnv } from '../../src/node/processRunner';

/** mulberry32: a small seeded generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

function have(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

function scratch(prefix: string): { base: string; root: string; home: string; ctx: GateContext; cleanup(): void } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const root = join(base, 'ws');
  const home = join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  const ctx: GateContext = { roots: [root], trusted: true, home, fs: new NodeWorkspaceReader([root]) };
  return { base, root, home, ctx, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

describe('gate differential: git subcommand choice against GIT_TRACE', function () {
  this.timeout(180_000);
  const s = scratch('planwise-gitdiff-');
  const env = {
    PATH: process.env['PATH'],
    HOME: s.home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TRACE: '1',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
  const git = (line: string) =>
    spawnSync('/bin/sh', ['-c', line], {
      cwd: s.root,
      env,
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  before(function () {
    if (!have('git')) this.skip();
    mkdirSync(join(s.root, 'sub'));
    writeFileSync(join(s.root, 'a.txt'), 'alpha\n');
    writeFileSync(join(s.root, 'sub', 'b.txt'), 'beta\n');
    for (const c of ['git init -q', 'git add -A', 'git commit -qm init', 'git tag v1']) {
      const r = git(c);
      assert.equal(r.status, 0, r.stderr);
    }
  });
  after(() => s.cleanup());

  const ALLOWED_GLOBALS = [
    '--no-pager',
    '-P',
    '-C .',
    '-C sub',
    '-C ./sub',
    '--no-optional-locks',
    '--literal-pathspecs',
    '--no-replace-objects',
  ];
  const REFUSED_GLOBALS = [
    '--namespace x',
    '--namespace log',
    '--namespace=status',
    '-c a.b=c',
    '-c core.pager=cat',
    '--git-dir=.git',
    '--git-dir .git',
    '--work-tree=.',
    '--work-tree .',
    '--exec-path',
    '--glob-pathspecs',
    '--noglob-pathspecs',
    '--icase-pathspecs',
    '--bare',
    '-p',
    '--paginate',
    '--config-env=a.b=HOME',
  ];
  const SUBS = [
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
    'reset',
    'checkout',
    'commit',
    'stash',
    'tag',
    'branch',
    'remote',
    'worktree',
    'ls-tree',
    'cat-file',
    'merge-base',
    'rev-list',
  ];
  const ARGS = [
    '--oneline',
    '-1',
    '-n 1',
    '--stat',
    '-s',
    '--short',
    '--hard',
    'HEAD',
    'v1',
    'a.txt',
    '--',
    '-q',
    '--cached',
    'log',
    'status',
    'reset',
    '--name-only',
    '--format=%h',
    '-m x',
    '--allow-empty',
    '--porcelain',
    '--tags',
    'alpha',
    '-e alpha',
  ];

  function line(next: () => number): string {
    const words = ['git'];
    const nGlobals = Math.floor(next() * 4);
    for (let k = 0; k < nGlobals; k++) words.push(pick(next, next() < 0.7 ? ALLOWED_GLOBALS : REFUSED_GLOBALS));
    if (next() < 0.95) words.push(pick(next, SUBS));
    const nArgs = Math.floor(next() * 4);
    for (let k = 0; k < nArgs; k++) words.push(pick(next, ARGS));
    return words.join(' ');
  }

  it('whenever the gate allows, git ran exactly the gate’s subcommand (≥ 400 random lines)', async () => {
    const next = rng(12);
    const lines = new Set<string>();
    while (lines.size < 450) lines.add(line(next));
    let allowedCount = 0;
    const mismatches: string[] = [];
    for (const l of lines) {
      const j = await judgeCommand(l, s.ctx);
      const r = git(l);
      const m = /trace: built-in: git (\S+)/.exec(r.stderr ?? '');
      const ran = m?.[1] ?? /trace: (?:exec|run_command): (\S+)/.exec(r.stderr ?? '')?.[1] ?? '(nothing)';
      if (!j.verdict.allowed) continue;
      allowedCount++;
      // `stash list` and `worktree list` run the built-in `stash` and `worktree`.
      const sub = j.parsed?.segments[0]?.subcommand?.split(' ')[0];
      if (ran !== sub) mismatches.push(`${l}: gate says '${sub}', git ran '${ran}'`);
    }
    assert.deepEqual(mismatches, []);
    assert.ok(allowedCount >= 60, `only ${allowedCount} allowed lines were compared`);
  });

  const LISTING_SUBS = [
    'branch',
    'tag',
    'remote',
    'stash',
    'worktree',
    'ls-tree',
    'cat-file',
    'merge-base',
    'rev-list',
  ];
  const LISTING_ARGS = [
    'list',
    'add',
    'push',
    'drop',
    'prune',
    'remove x',
    'topic',
    'v2',
    "'v*'",
    'HEAD',
    'v1',
    'main',
    '-a',
    '-r',
    '-v',
    '-vv',
    '-l',
    '--list',
    '--show-current',
    '--contains HEAD',
    '--merged',
    '--sort=-refname',
    '--format=%(refname)',
    '-n',
    '-n2',
    '-d',
    '-D',
    '-m',
    '-M',
    '-c',
    '-f',
    '-a -m msg',
    '-u',
    '--set-upstream-to=v1',
    '--edit-description',
    '-p',
    '-t',
    '-s',
    '-e',
    '--count',
    '--all',
    'origin',
    'o file:///nowhere',
  ];

  /** Every ref, the stash, the worktrees and the repository's configuration, as text. */
  const repositoryState = () =>
    ['git for-each-ref', 'git stash list', 'git worktree list --porcelain', 'git config --list --local', 'ls -a ..']
      .map((c) => git(c).stdout)
      .join('\n--\n');

  it('whenever the gate allows a listing form, running it as parsed changes no ref, stash, worktree or setting (1,000 random lines)', async () => {
    const next = rng(31);
    const lines = new Set<string>();
    while (lines.size < 1000) {
      const words = ['git', pick(next, LISTING_SUBS)];
      const n = Math.floor(next() * 4);
      // Half the words from the listing options alone, so enough lines are admitted and run.
      for (let k = 0; k < n; k++) words.push(pick(next, next() < 0.5 ? LISTING_ARGS.slice(10, 22) : LISTING_ARGS));
      lines.add(words.join(' '));
    }
    const before = repositoryState();
    let allowedCount = 0;
    const changed: string[] = [];
    for (const l of lines) {
      const j = await judgeCommand(l, s.ctx);
      if (!j.verdict.allowed || !j.parsed) continue;
      allowedCount++;
      spawnSync('/bin/sh', ['-c', j.parsed.runnable], {
        cwd: s.root,
        env: runEnv(env, j.parsed.env),
        timeout: 10_000,
        stdio: 'ignore',
      });
      if (repositoryState() !== before) {
        changed.push(l);
        break;
      }
    }
    assert.deepEqual(changed, [], 'an admitted listing form changed the repository');
    assert.ok(allowedCount >= 100, `only ${allowedCount} allowed lines were run`);
    // The same generator's refused lines do change it when run by plain git: the check can fail.
    const writes = [
      'git branch topic',
      'git tag v2',
      'git remote add o file:///nowhere',
      'git stash',
      'git worktree add ../w',
    ];
    for (const w of writes) assert.equal((await judgeCommand(w, s.ctx)).verdict.allowed, false, w);
    git('echo change >> a.txt');
    for (const w of writes) git(w);
    assert.notEqual(repositoryState(), before);
  });

  it("git takes -C only as a separate word: an attached '-Csub' makes git refuse the line, and the gate refuses it too", async () => {
    for (const l of ['git -Csub status', 'git -C. log -1', 'git --no-pager -Csub diff']) {
      const r = git(l);
      assert.match(r.stderr, /unknown option: -C/, l);
      const j = await judgeCommand(l, s.ctx);
      assert.equal(j.verdict.allowed, false, `${l}: git refuses it, but the gate allows it (${j.verdict.reason})`);
    }
  });

  it('a refused global is refused whatever follows, and git really runs the word after its value', async () => {
    for (const [l, ran] of [
      ['git --namespace log reset --hard', 'reset'],
      ['git --namespace status commit --allow-empty -m x', 'commit'],
      ['git --git-dir .git checkout .', 'checkout'],
      ['git -c a.b=c stash', 'stash'],
    ] as const) {
      const j = await judgeCommand(l, s.ctx);
      assert.equal(j.verdict.allowed, false, l);
      assert.equal(j.verdict.rule, 'option', l);
      assert.match(git(l).stderr, new RegExp(`trace: built-in: git ${ran}`), l);
    }
  });
});

describe('gate differential: shell words against dash and bash', function () {
  this.timeout(300_000);
  const s = scratch('planwise-worddiff-');
  const shells = ['dash', 'bash'].filter(have);

  before(function () {
    if (!shells.includes('dash') || !shells.includes('bash')) this.skip();
    for (const f of [
      'a.txt',
      'b.txt',
      'c.md',
      'ab',
      'sp ace',
      'x*y',
      'q1',
      'q?',
      'dir/one',
      'dir/two.txt',
      '.hidden',
    ]) {
      mkdirSync(join(s.root, f, '..'), { recursive: true });
      writeFileSync(join(s.root, f), '');
    }
  });
  after(() => s.cleanup());

  const PLAIN = [
    'a',
    'b1',
    'x_y',
    '-n',
    '--x',
    '%s',
    '%d',
    '+',
    ',',
    '.',
    '@',
    '^',
    ':',
    'é',
    'a.b',
    '-',
    '--',
    '!',
    '%%',
  ];
  const QUOTED = [
    "'a b'",
    "'$x'",
    "'\\n'",
    "'\"'",
    '"q r"',
    '"it\'s"',
    '""',
    "''",
    "'a\tb'",
    "'l1\nl2'",
    '"l1\nl2"',
    "'*'",
    '"*.txt"',
    "'#x'",
    '"~"',
    "'~/x'",
    "'{a,b}'",
    '"a;b"',
    "'|'",
    '"&&"',
  ];
  const ESCAPED = [
    '\\ ',
    '\\a',
    '\\*',
    '\\#',
    '\\~',
    "\\'",
    '\\"',
    '\\\\',
    '\\$',
    '\\;',
    '\\|',
    '\\&',
    '\\<',
    '\\(',
    '\\{',
  ];
  const GLOBS = [
    '*',
    '*.txt',
    '?',
    'a*',
    '[ab]*',
    '*y',
    'd*/o*',
    'q?',
    '[!a]*',
    'dir/*',
    '*/t*',
    'no*match',
    'x\\*y',
    '.h*',
    's*e',
    '.hid??n',
  ];
  const SPECIAL = ['#', 'a#b', '#c', 'a=b', 'k=v=w', '=', '==', '--k=v', 'x=#'];
  const TILDE = ['~', '~/x', 'a=~/x', '--k=~/x', 'x:~/y', '~root'];
  /** Globs starting with '.' that also match '.' and '..' in dash (bash 5.2 skips them: globskipdots). */
  const DOT_GLOBS = ['.*', '.[!a]*', '.?', '.[.h]*', '.*/dir'];

  type Mode = 'plain' | 'tilde' | 'dotglob';

  function word(next: () => number, mode: Mode): string {
    const n = 1 + Math.floor(next() * 3);
    let w = '';
    for (let k = 0; k < n; k++) {
      const r = next();
      const special = mode === 'tilde' ? TILDE : mode === 'dotglob' ? DOT_GLOBS : null;
      const pool =
        special && r < 0.3
          ? special
          : r < 0.4
            ? PLAIN
            : r < 0.6
              ? QUOTED
              : r < 0.72
                ? ESCAPED
                : r < 0.88
                  ? GLOBS
                  : SPECIAL;
      // A tilde means a home directory, and a leading '.' matches '..', only at the start of a word.
      w += k > 0 && pool === special ? pick(next, PLAIN) : pick(next, pool);
    }
    return w;
  }

  function line(next: () => number, mode: Mode): string {
    const n = 1 + Math.floor(next() * 4);
    const words: string[] = [];
    for (let k = 0; k < n; k++) words.push(word(next, mode));
    const sep = () => pick(next, [' ', ' ', '\t', '  ', ' \t ']);
    return `printf '%s\\0'${words.map((w) => sep() + w).join('')}`;
  }

  function run(shell: string, command: string): string | null {
    const r = spawnSync(shell, ['-c', command], {
      cwd: s.root,
      env: { PATH: process.env['PATH'], HOME: s.home, LC_ALL: 'C' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    return r.status === 0 ? r.stdout : null;
  }

  /** Judges and runs `count` distinct random lines; returns how many were compared and the mismatches. */
  async function compare(seed: number, count: number, mode: Mode): Promise<{ compared: number; mismatches: string[] }> {
    const next = rng(seed);
    const lines = new Set<string>();
    while (lines.size < count) lines.add(line(next, mode));
    let compared = 0;
    const mismatches: string[] = [];
    for (const l of lines) {
      const j = await judgeCommand(l, s.ctx);
      if (!j.verdict.allowed) continue;
      compared++;
      const seg = j.parsed?.segments;
      if (seg?.length !== 1 || seg[0]?.program !== 'printf') {
        mismatches.push(`${JSON.stringify(l)}: the gate parsed ${seg?.length} segments`);
        continue;
      }
      const args = seg[0].args.slice(1);
      const expected = args.length === 0 ? '\0' : args.map((a) => `${a}\0`).join('');
      for (const shell of shells) {
        const out = run(shell, l);
        if (out !== expected) {
          const got = out === null ? 'an error' : JSON.stringify(out.split('\0').slice(0, -1));
          mismatches.push(`${JSON.stringify(l)}: gate ${JSON.stringify(args)}, ${shell} ${got}`);
        }
      }
    }
    return { compared, mismatches };
  }

  it('the words of every allowed line are the words dash and bash pass (≥ 1,000 lines, no tilde)', async () => {
    const { compared, mismatches } = await compare(1012, 2200, 'plain');
    assert.deepEqual(mismatches, []);
    assert.ok(compared >= 1000, `only ${compared} allowed lines were compared`);
  });

  // Commands run under /bin/sh, which is dash on Debian and Ubuntu: there '.*' also matches '.' and
  // '..', so 'grep -r x .*' reads the parent directory. The gate expands as bash 5.2 does.
  it("a glob starting with '.' gives the words both shells pass ('..' included in dash), or is refused", async () => {
    const { compared, mismatches } = await compare(3012, 400, 'dotglob');
    assert.deepEqual(mismatches, []);
    assert.ok(compared >= 100, `only ${compared} allowed lines were compared`);
  });

  it('gate bug: an unquoted ~ (alone, ~/x, NAME=~/x) becomes what both shells pass, or the line is refused', async () => {
    const { compared, mismatches } = await compare(2012, 600, 'tilde');
    assert.deepEqual(mismatches, []);
    assert.ok(compared >= 100, `only ${compared} allowed lines were compared`);
  });
});
