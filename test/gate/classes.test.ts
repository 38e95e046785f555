/**
 * Issue 12's classes, one `describe` each, shown with real files, a real escaping symlink and the
 * real programs (git, npm, sed, grep, rg, find, fd, ls, du, tree, diff, date, file, sg, mocha,
 * cargo). In a scratch workspace of its own each test shows that the refused form really writes,
 * runs something or reads outside the workspace (it is run there, for real, through /bin/sh), that
 * the gate refuses it with the right rule, and that the allowed near-miss is allowed and read-only:
 * it is run exactly as exec_command runs it (the tool, the real runner, `parsed.runnable`) and no
 * file of the workspace or of the outside directory changes.
 *
 * A scene: `ROOT` holds a.txt, b.txt, f, src/a.ts, sub/, a/b/, a git repository, and the symlinks
 * `link -> OUTSIDE`, `secret-link -> OUTSIDE/secret`, `sub/deep/up -> OUTSIDE`, `inlink -> src`.
 * OUTSIDE holds `secret` (the text TOP-SECRET) and `passwd`; it is a sibling of ROOT.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { judgeCommand, type GateContext, type Judgement } from '../../src/core/gate';
import { Spool } from '../../src/core/spool';
import { decideBuildCommand } from '../../src/core/tools/build/buildPolicy';
import { execCommandTool } from '../../src/core/tools/execCommand';
import type { ToolContext } from '../../src/core/tools/types';
import { scrubbedEnv } from '../../src/node/env';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';
import { gnuSed, NodeCommandRunner } from '../../src/node/processRunner';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { runCli } from '../cli/cliHarness';
import { RecordingRunner } from '../tools/helpers';

const SECRET = 'TOP-SECRET';
const REPO = resolve(__dirname, '..', '..');
const MOCHA_BIN = join(REPO, 'node_modules', '.bin');

function have(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** npm never reaches the network in these tests. */
const NPM_OFFLINE = {
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

class Scene {
  readonly base = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-classes-')));
  readonly root = join(this.base, 'ws');
  readonly outside = join(this.base, 'outside');
  readonly home = join(this.base, 'home');
  /** Outside the workspace: `fd` and `bat` under their upstream names (Debian calls them fdfind, batcat). */
  readonly bin = join(this.base, 'bin');
  private readonly env: Record<string, string | undefined>;

  constructor(files: Record<string, string> = {}) {
    for (const d of [this.root, this.outside, this.home, this.bin]) mkdirSync(d, { recursive: true });
    for (const [alias, real] of [
      ['fd', 'fdfind'],
      ['bat', 'batcat'],
    ] as const) {
      const found = spawnSync('sh', ['-c', `command -v ${real}`], { encoding: 'utf8' }).stdout.trim();
      if (found !== '') symlinkSync(found, join(this.bin, alias));
    }
    this.env = {
      ...scrubbedEnv(process.env),
      PATH: `${this.bin}:${MOCHA_BIN}:${process.env['PATH'] ?? ''}`,
      HOME: this.home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
      // cargo is a rustup proxy: it finds its toolchain under the real home.
      CARGO_HOME: process.env['CARGO_HOME'] ?? join(homedir(), '.cargo'),
      RUSTUP_HOME: process.env['RUSTUP_HOME'] ?? join(homedir(), '.rustup'),
      ...NPM_OFFLINE,
    };
    const base: Record<string, string> = {
      'a.txt': 'alpha\n',
      'b.txt': 'beta\n',
      f: 'x\n',
      'src/a.ts': 'export const a = 1;\n',
      'sub/keep': '',
      'a/b/keep': '',
      ...files,
    };
    for (const [rel, text] of Object.entries(base)) this.write(rel, text);
    writeFileSync(join(this.outside, 'secret'), `${SECRET}\n`);
    writeFileSync(join(this.outside, 'passwd'), 'root:x:0:0\n');
    mkdirSync(join(this.root, 'sub', 'deep'), { recursive: true });
    symlinkSync(this.outside, join(this.root, 'link'));
    symlinkSync(join(this.outside, 'secret'), join(this.root, 'secret-link'));
    symlinkSync(this.outside, join(this.root, 'sub', 'deep', 'up'));
    symlinkSync(join(this.root, 'src'), join(this.root, 'inlink'));
  }

  write(rel: string, text: string): void {
    const p = join(this.root, rel);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
  }

  read(rel: string): string {
    return readFileSync(join(this.root, rel), 'utf8');
  }

  exists(rel: string): boolean {
    return existsSync(join(this.root, rel));
  }

  /** A git repository with everything committed. */
  gitInit(): void {
    for (const c of ['git init -q', 'git add -A', 'git commit -qm init']) {
      const r = this.sh(c);
      assert.equal(r.status, 0, `${c}: ${r.stderr}`);
    }
  }

  /** Runs a command for real through /bin/sh in the workspace root (the refused forms). */
  sh(command: string, extraEnv: Record<string, string> = {}): Ran {
    const r = spawnSync('/bin/sh', ['-c', command], {
      cwd: this.root,
      env: { ...this.env, ...extraEnv },
      encoding: 'utf8',
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  }

  gate(trusted = true): GateContext {
    return {
      roots: [this.root],
      trusted,
      home: this.home,
      fs: new NodeWorkspaceReader([this.root]),
      safeModes: { sedSandbox: gnuSed() },
    };
  }

  judge(command: string, trusted = true): Promise<Judgement> {
    return judgeCommand(command, this.gate(trusted));
  }

  /** Every entry under the workspace and the outside directory (symlinks not followed), with its content. */
  snapshot(): Map<string, string> {
    const out = new Map<string, string>();
    const walk = (dir: string, label: string) => {
      for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        const rel = `${label}/${name}`;
        const st = lstatSync(p);
        if (st.isSymbolicLink()) out.set(rel, `link ${readlinkSync(p)}`);
        else if (st.isDirectory()) {
          out.set(rel, 'dir');
          walk(p, rel);
        } else out.set(rel, `file ${st.mode} ${createHash('sha1').update(readFileSync(p)).digest('hex')}`);
      }
    };
    walk(this.root, 'ws');
    walk(this.outside, 'outside');
    return out;
  }

  /** The tool context exec_command gets, with the real runner over this scene's environment. */
  tool(): ToolContext {
    const reader = new NodeWorkspaceReader([this.root]);
    return {
      reader,
      searcher: createSearcher(reader),
      runner: new NodeCommandRunner('/bin/sh', this.env),
      trusted: true,
      home: this.home,
      previewLimitBytes: 64 * 1024,
      spool: new Spool(),
    };
  }

  cleanup(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}

/** The gate refuses `command` by `rule` (and, when given, with a reason containing `part`). */
async function refused(scene: Scene, command: string, rule: string, part?: string, trusted = true): Promise<void> {
  const v = (await scene.judge(command, trusted)).verdict;
  assert.equal(v.allowed, false, `${JSON.stringify(command)} must be refused, got: ${v.reason}`);
  assert.equal(v.rule, rule, `${JSON.stringify(command)}: ${v.reason}`);
  if (part !== undefined) assert.ok(v.reason.includes(part), `reason '${v.reason}' lacks '${part}'`);
}

/**
 * The near-miss is allowed and read-only: exec_command runs it (the real runner, `parsed.runnable`)
 * and nothing in the workspace or outside it changes. Returns what the tool returned.
 */
async function readOnly(scene: Scene, command: string): Promise<string> {
  const j = await scene.judge(command);
  assert.equal(j.verdict.allowed, true, `${JSON.stringify(command)} must be allowed, got: ${j.verdict.reason}`);
  const before = scene.snapshot();
  const r = await execCommandTool.run({ command }, scene.tool());
  assert.notEqual(r.blocked, true, r.content);
  assert.deepEqual(scene.snapshot(), before, `${JSON.stringify(command)} changed a file`);
  return r.content;
}

describe('gate classes, shown with the real programs', function () {
  this.timeout(180_000);

  describe('1: an option value read as the subcommand', () => {
    let scene: Scene;
    beforeEach(() => {
      scene = new Scene({
        'sub/package.json': JSON.stringify({
          name: 's',
          version: '1.0.0',
          scripts: { postinstall: 'touch installed', test: 'node -e ""' },
        }),
      });
      scene.gitInit();
    });
    afterEach(() => scene.cleanup());

    it("git --namespace log reset --hard: git runs 'reset' and discards an edit; refused, git log is read-only", async () => {
      scene.write('a.txt', 'edited\n');
      await refused(scene, 'git --namespace log reset --hard', 'option', '--namespace');
      const r = scene.sh('git --namespace log reset --hard');
      assert.equal(r.status, 0, r.stderr);
      assert.equal(scene.read('a.txt'), 'alpha\n', 'the edit was discarded: git ran reset');
      scene.write('a.txt', 'edited\n');
      const log = await readOnly(scene, 'git --no-pager log --oneline');
      assert.match(log, /init/);
      assert.equal(scene.read('a.txt'), 'edited\n');
    });

    it('git branch NAME, tag NAME, remote add, stash and worktree add write; refused; the listing forms are read-only', async () => {
      for (const [c, rule] of [
        ['git branch topic', 'argument'],
        ['git tag v2', 'argument'],
        ['git remote add o file:///nowhere', 'argument'],
        ['git stash', 'subcommand'],
        ['git worktree add ../w', 'subcommand'],
      ] as const)
        await refused(scene, c, rule);
      scene.write('a.txt', 'edited\n');
      for (const c of [
        'git branch topic',
        'git tag v2',
        'git remote add o file:///nowhere',
        'git stash',
        'git worktree add w',
      ])
        assert.equal(scene.sh(c).status, 0, c);
      assert.equal(scene.read('a.txt'), 'alpha\n', 'git stash put the edit away');
      for (const [c, out] of [
        ['git branch -a', 'topic'],
        ['git branch --show-current', 'ma'],
        ['git branch --list "t*" -vv', 'topic'],
        ['git tag -l', 'v2'],
        ['git remote -v', 'nowhere'],
        ['git worktree list', '/w '],
        ['git stash list', 'stash@{0}'],
        ['git rev-list --count HEAD', '1'],
        ['git cat-file -t HEAD', 'commit'],
        ['git ls-tree --name-only HEAD', 'a.txt'],
        ['git merge-base HEAD topic', ''],
      ] as const)
        assert.ok((await readOnly(scene, c)).includes(out), c);
    });

    it("git -c alias.lg='!touch x' lg runs a shell command; refused", async () => {
      await refused(scene, "git -c alias.lg='!touch aliased' lg", 'option', "'git -c'");
      scene.sh("git -c alias.lg='!touch aliased' lg");
      assert.ok(scene.exists('aliased'));
    });

    it('npm --prefix sub install installs and runs postinstall; refused, npm --prefix sub test is allowed', async () => {
      await refused(scene, 'npm --prefix sub install', 'subcommand', "'npm install'");
      scene.sh('npm --prefix sub install');
      assert.ok(scene.exists('sub/installed'), 'postinstall ran');
      rmSync(join(scene.root, 'sub', 'installed'));
      rmSync(join(scene.root, 'sub', 'package-lock.json'), { force: true });
      const j = await scene.judge('npm --prefix sub test');
      assert.equal(j.verdict.allowed, true, j.verdict.reason);
      assert.equal(j.parsed?.segments[0]?.subcommand, 'test');
      assert.equal(j.parsed?.segments[0]?.cwd, join(scene.root, 'sub'));
      await readOnly(scene, 'npm --prefix sub test');
    });

    it("npm --tag test exec -c 'touch x': the value 'test' is not the subcommand; refused", async () => {
      await refused(scene, "npm --tag test exec -c 'touch viaexec'", 'option', "'npm --tag'");
      scene.sh("npm --tag test exec -c 'touch viaexec'");
      assert.ok(scene.exists('viaexec'), 'npm exec ran the shell command');
    });
  });

  describe('2: --dry-run is not trusted', () => {
    let scene: Scene;
    beforeEach(() => {
      scene = new Scene({
        'package.json': JSON.stringify({
          name: 'r',
          version: '1.0.0',
          scripts: { postinstall: 'touch installed', test: 'node -e ""' },
        }),
      });
    });
    afterEach(() => scene.cleanup());

    it('npm install --dry-run false really installs and runs postinstall; every install --dry-run is refused', async () => {
      for (const c of ['npm install --dry-run false', 'npm install --dry-run', 'npm i --dry-run', 'npm ci --dry-run']) {
        await refused(scene, c, 'subcommand');
      }
      await refused(scene, 'npm --dry-run install', 'option');
      scene.sh('npm install --dry-run false');
      assert.ok(scene.exists('installed'), 'postinstall ran despite --dry-run');
      rmSync(join(scene.root, 'installed'));
      rmSync(join(scene.root, 'package-lock.json'), { force: true });
      await readOnly(scene, 'npm test');
    });
  });

  describe('3: sed is parsed the way GNU sed parses it', () => {
    let scene: Scene;
    beforeEach(() => (scene = new Scene()));
    afterEach(() => scene.cleanup());

    const writers = [
      "sed -n ':x# a\\\nw out.txt' f",
      "sed -n ':x;w out.txt' f",
      "sed 'a\\\ntext\nw out.txt' f",
      "sed -n 's/x/y/w out.txt' f",
      "sed -n -e p -e 'w out.txt' f",
      "sed -n --expression='w out.txt' f",
      "sed -n '/x/{:a\nw out.txt\n}' f",
    ];
    for (const command of writers) {
      it(`${JSON.stringify(command)} writes out.txt; refused by the sed rule, and sed --sandbox refuses it too`, async () => {
        await refused(scene, command, 'sed');
        const r = scene.sh(command);
        assert.equal(r.status, 0, r.stderr);
        assert.ok(scene.exists('out.txt'), 'GNU sed wrote out.txt');
        rmSync(join(scene.root, 'out.txt'));
        if (gnuSed()) {
          const s = scene.sh(command.replace(/^sed /, 'sed --sandbox '));
          assert.notEqual(s.status, 0);
          assert.match(s.stderr, /disabled in sandbox mode/);
          assert.ok(!scene.exists('out.txt'));
        }
      });
    }

    it('sed -s -i and -ni edit in place; refused; sed -n p runs with --sandbox and is read-only', async () => {
      await refused(scene, "sed -s -i 's/x/y/' f", 'option', 'in place');
      await refused(scene, 'sed -ni p f', 'option', 'in place');
      scene.sh("sed -s -i 's/x/y/' f");
      assert.equal(scene.read('f'), 'y\n');
      scene.write('f', 'x\n');
      const j = await scene.judge('sed -n p f');
      if (gnuSed()) assert.equal(j.parsed?.runnable, 'sed --sandbox -n p f');
      assert.match(await readOnly(scene, 'sed -n p f'), /stdout:\nx/);
      assert.match(await readOnly(scene, "sed -n '1,120p' a.txt"), /alpha/);
    });
  });

  describe('4: traversal that follows symlinks', () => {
    let scene: Scene;
    // cmp/up is a real directory, so diff -r sub/deep cmp compares what sub/deep/up points to.
    before(() => (scene = new Scene({ 'cmp/up/secret': 'other\n' })));
    after(() => scene.cleanup());
    const OUTSIDE_SEEN = /TOP-SECRET|link\/|deep\/up\/|passwd/;

    const pairs: [string, string, string, string][] = [
      // [program, refused form, near-miss, hint in the reason]
      ['grep', 'grep -R TOP .', 'grep -r TOP .', 'grep -r'],
      ['grep', 'grep --dereference-recursive TOP .', 'grep -rn TOP .', 'grep -r'],
      ['rg', 'rg -L TOP', 'rg TOP', 'without -L'],
      ['rg', 'rg --follow --files', 'rg --files', 'without -L'],
      ['find', 'find -L . -name secret', 'find . -name secret', 'without -L'],
      ['find', 'find . -follow -name secret', 'find . -name secret -print', 'without -L'],
      ['ls', 'ls -LR', 'ls -R', 'without -L'],
      ['du', 'du -aL', 'du -a', 'without -L'],
      ['tree', 'tree -l', 'tree', 'without -l'],
      ['fdfind', 'fd -L secret', 'fd secret', 'without -L'],
      ['diff', 'diff -r sub/deep cmp', 'diff -r --no-dereference sub/deep cmp', '--no-dereference'],
    ];
    for (const [program, bad, good, hint] of pairs) {
      it(`${bad} reads the outside directory; refused (pointing to the non-following form); ${good} is read-only and stays inside`, async function () {
        if (!have(program)) this.skip();
        await refused(scene, bad, 'follow', hint);
        const r = scene.sh(bad);
        assert.match(r.stdout + r.stderr, OUTSIDE_SEEN, `${bad} did not reach outside`);
        const content = await readOnly(scene, good);
        assert.doesNotMatch(content, OUTSIDE_SEEN, `${good} reached outside`);
      });
    }
  });

  describe('5: paths inside option values', () => {
    let scene: Scene;
    before(() => {
      scene = new Scene({ names: 'link/secret\0' });
      scene.gitInit();
    });
    after(() => scene.cleanup());

    it('diff --from-file=link/secret prints the outside file; refused; diff --from-file=b.txt is read-only', async () => {
      await refused(scene, 'diff --from-file=link/secret a.txt', 'path', 'outside the workspace');
      await refused(scene, 'diff --from-file link/secret a.txt', 'path');
      assert.ok(scene.sh('diff --from-file=link/secret a.txt').stdout.includes(SECRET));
      assert.match(await readOnly(scene, 'diff --from-file=b.txt a.txt'), /alpha/);
    });

    it('date --file=link/secret shows the outside text in its error; refused in every form', async () => {
      for (const c of ['date --file=link/secret', 'date -f link/secret', 'date -flink/secret', 'date -f secret-link']) {
        await refused(scene, c, 'path');
      }
      assert.ok(scene.sh('date --file=link/secret').stderr.includes(SECRET));
      await readOnly(scene, 'date -u +%Y');
    });

    it('git blame --contents=link/secret shows the outside file; refused; git blame a.txt is read-only', async () => {
      await refused(scene, 'git blame --contents=link/secret a.txt', 'path');
      assert.ok(scene.sh('git blame --contents=link/secret a.txt').stdout.includes(SECRET));
      assert.match(await readOnly(scene, 'git blame a.txt'), /alpha/);
    });

    it('wc --files0-from and grep -f read names or patterns from a file; both refused', async () => {
      await refused(scene, 'wc --files0-from=names', 'option', 'files0-from');
      assert.match(scene.sh('wc -c --files0-from=names').stdout, /11 link\/secret/);
      await refused(scene, 'grep -f link/secret a.txt', 'path');
      await refused(scene, 'file --files-from=names', 'option');
      await readOnly(scene, 'wc -l a.txt b.txt');
    });

    it('the escape through sub/deep/up/.. is real: the kernel resolves .. from the symlink target', async () => {
      assert.ok(scene.sh('cat sub/deep/up/../outside/secret').stdout.includes(SECRET));
      assert.ok(scene.sh(`cat ${scene.root}/sub/deep/up/../outside/secret`).stdout.includes(SECRET));
      await refused(scene, `cat ${scene.root}/sub/deep/up/../outside/secret`, 'path');
    });

    it('the relative form sub/deep/up/../outside/secret is refused too (.. is taken from the symlink target)', async () => {
      await refused(scene, 'cat sub/deep/up/../outside/secret', 'path');
    });
  });

  describe('6: working-directory changes are followed by the path check', () => {
    let scene: Scene;
    before(() => {
      scene = new Scene();
      scene.gitInit();
    });
    after(() => scene.cleanup());

    it('git -C sub diff --no-index ../link/secret ../f prints the outside file; refused; with inside files read-only', async () => {
      await refused(scene, 'git -C sub diff --no-index ../link/secret ../f', 'path');
      assert.ok(scene.sh('git -C sub diff --no-index ../link/secret ../f').stdout.includes(SECRET));
      const j = await scene.judge('git -C sub diff --no-index ../a.txt ../b.txt');
      assert.equal(j.parsed?.segments[0]?.cwd, join(scene.root, 'sub'));
      assert.match(await readOnly(scene, 'git -C sub diff --no-index ../a.txt ../b.txt'), /-alpha/);
    });

    it('cd a && cd b && cat ../../link/secret prints the outside file; refused; ../../a.txt is read-only', async () => {
      for (const c of [
        'cd a && cd b && cat ../../link/secret',
        'cd a; cd b; cat ../../secret-link',
        'cd sub/deep/up && cat secret',
      ]) {
        await refused(scene, c, 'path');
        assert.ok(scene.sh(c).stdout.includes(SECRET), c);
      }
      const j = await scene.judge('cd a && cd b && cat ../../a.txt');
      assert.equal(j.parsed?.segments[2]?.cwd, join(scene.root, 'a', 'b'));
      assert.match(await readOnly(scene, 'cd a && cd b && cat ../../a.txt'), /alpha/);
    });

    it('cd -P sub/deep/up/.. leaves the workspace (the shell is then in its parent); refused', async () => {
      assert.ok(scene.sh('cd -P sub/deep/up/.. && cat outside/secret').stdout.includes(SECRET));
      await refused(scene, 'cd -P sub/deep/up/.. && cat outside/secret', 'path');
    });
  });

  describe('7: hidden execution', () => {
    let scene: Scene;
    beforeEach(() => {
      scene = new Scene({ 'pre.sh': '#!/bin/sh\ntouch pre-ran\ncat "$1"\n' });
      scene.sh('chmod +x pre.sh');
      writeFileSync(join(scene.root, 'z.gz'), gzipSync('hello\n'));
    });
    afterEach(() => scene.cleanup());

    it("sg GROUP -c CMD runs CMD; 'sg' is refused and the reason names ast-grep", async function () {
      if (!have('sg') || spawnSync('sg', ['--help']).error) this.skip();
      const group = spawnSync('id', ['-gn'], { encoding: 'utf8' }).stdout.trim();
      await refused(scene, `sg ${group} -c 'touch sgmade'`, 'program', 'ast-grep');
      scene.sh(`sg ${group} -c 'touch sgmade'`);
      assert.ok(scene.exists('sgmade'), 'sg ran the command');
    });

    it('rg --pre runs a program; refused; rg alone is read-only', async () => {
      await refused(scene, 'rg --pre ./pre.sh alpha', 'option', 'preprocessor');
      scene.sh('rg --pre ./pre.sh alpha');
      assert.ok(scene.exists('pre-ran'));
      rmSync(join(scene.root, 'pre-ran'));
      assert.match(await readOnly(scene, 'rg alpha'), /a\.txt/);
    });

    it('find -exec and fd -x run programs; refused; plain find and fd are read-only', async () => {
      await refused(scene, "find . -name a.txt -exec touch found ';'", 'option', 'runs a command');
      scene.sh("find . -name a.txt -exec touch found ';'");
      assert.ok(scene.exists('found'));
      await refused(scene, 'fd -x touch', 'option');
      await refused(scene, 'fd a.txt -x touch', 'option');
      rmSync(join(scene.root, 'found'));
      assert.match(await readOnly(scene, "find . -name 'a.*' -type f"), /a\.txt/);
      if (have('fdfind')) assert.match(await readOnly(scene, 'fd a.txt'), /a\.txt/);
    });

    it('file -z looks inside compressed files (GNU file may run decompressors); refused; file alone is read-only', async () => {
      await refused(scene, 'file -z z.gz', 'option', 'decompression');
      await refused(scene, 'file --uncompress z.gz', 'option');
      assert.match(scene.sh('file -z z.gz').stdout, /text/i);
      assert.match(await readOnly(scene, 'file z.gz'), /gzip/);
    });

    it('sort --compress-program, git diff --ext-diff and bat --pager name programs to run; refused', async () => {
      await refused(scene, 'sort --compress-program=./pre.sh a.txt', 'option');
      await refused(scene, 'git diff --ext-diff', 'option');
      await refused(scene, 'bat --pager=./pre.sh a.txt', 'option');
      await readOnly(scene, 'sort a.txt b.txt');
    });
  });

  describe('8: test runners in rewrite modes', () => {
    let scene: Scene;
    const runner = [
      "const fs = require('fs');",
      'const a = process.argv.slice(2);',
      "if (a.includes('-u') || a.includes('--updateSnapshot') || process.env.UPDATE_EXPECT || process.env.INSTA_UPDATE) fs.writeFileSync('snap.txt', 'rewritten');",
    ].join('\n');
    beforeEach(() => {
      scene = new Scene({
        'package.json': JSON.stringify({ name: 't', version: '1.0.0', scripts: { test: 'node t.js' } }),
        't.js': runner,
        'm/package.json': JSON.stringify({ name: 'm', version: '1.0.0', scripts: { test: 'mocha t.js' } }),
        'm/t.js': "it('passes', () => {});\n",
      });
    });
    afterEach(() => scene.cleanup());

    it('npm test -- -u and --updateSnapshot reach the test runner, which rewrites; refused; --grep is read-only', async () => {
      for (const c of ['npm test -- -u', 'npm test -- --updateSnapshot']) {
        await refused(scene, c, 'option', 'rewrites');
        scene.sh(c);
        assert.ok(scene.exists('snap.txt'), c);
        rmSync(join(scene.root, 'snap.txt'));
      }
      await readOnly(scene, 'npm test -- --grep parser');
    });

    it('UPDATE_EXPECT=1 and INSTA_UPDATE=always reach the runner; refused by the prefix rule; CI=1 is allowed', async () => {
      for (const c of [
        'UPDATE_EXPECT=1 npm test',
        'INSTA_UPDATE=always npm test',
        'UPDATE_EXPECT=1 cargo test',
        'TRYBUILD=overwrite cargo test',
      ]) {
        await refused(scene, c, 'prefix');
      }
      scene.sh('UPDATE_EXPECT=1 npm test');
      assert.ok(scene.exists('snap.txt'));
      rmSync(join(scene.root, 'snap.txt'));
      await readOnly(scene, 'CI=1 npm test');
    });

    it('UPDATE_EXPECT=1 cargo test: the variable reaches a real Rust test, which writes', async function () {
      if (!have('cargo')) this.skip();
      scene.write('rs/Cargo.toml', '[package]\nname = "r"\nversion = "0.1.0"\nedition = "2021"\n');
      scene.write('rs/src/lib.rs', '');
      scene.write(
        'rs/tests/t.rs',
        '#[test]\nfn t() { if std::env::var("UPDATE_EXPECT").is_ok() { std::fs::write("expect.txt", "x").unwrap(); } }\n',
      );
      await refused(scene, 'cd rs && UPDATE_EXPECT=1 cargo test', 'prefix');
      const r = scene.sh('cd rs && UPDATE_EXPECT=1 cargo test --offline -q', {
        CARGO_TARGET_DIR: join(scene.base, 'target'),
      });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(scene.exists('rs/expect.txt'));
    });

    it('npm test is refused in an untrusted workspace with a reason that says so', async () => {
      await refused(scene, 'npm test', 'trust', 'untrusted', false);
      await refused(scene, 'cargo test', 'trust', 'untrusted', false);
    });

    it("mocha's --reporter-option output=FILE writes a file; refused", async () => {
      const c = 'cd m && npm test -- --reporter xunit --reporter-option output=out.xml';
      scene.sh(c);
      assert.ok(scene.exists('m/out.xml'), 'mocha wrote the report');
      rmSync(join(scene.root, 'm', 'out.xml'));
      await refused(scene, c, 'option');
    });
  });

  describe('9: check-command, exec_command and the build policy give one verdict', () => {
    let scene: Scene;
    before(() => (scene = new Scene()));
    after(() => scene.cleanup());

    const check = async (command: string) => {
      const r = await runCli(['check-command', '--workspace', scene.root, '--json', '--', command], {
        env: { HOME: scene.home },
      });
      return JSON.parse(r.stdout) as { allowed: boolean; rule: string; runs?: string };
    };

    it('reads through an escaping symlink: real, and refused by all three', async () => {
      for (const c of ['cat link/secret', 'cat secret-link', 'head -1 link/secret', 'rg TOP link/', 'ls link/*']) {
        assert.ok(/TOP-SECRET|secret/.test(scene.sh(c).stdout), `${c} reaches outside`);
        const audit = await check(c);
        assert.equal(audit.allowed, false, c);
        assert.equal(audit.rule, 'path', c);
        const runner = new RecordingRunner();
        const exec = await execCommandTool.run({ command: c }, { ...scene.tool(), runner });
        assert.equal(exec.blocked, true, c);
        assert.deepEqual(runner.calls, [], c);
        const build = await decideBuildCommand(c, scene.gate());
        assert.ok(!('run' in build && build.run), c);
      }
    });

    it("'echo hi 2>/dev/null' and '/usr/bin/rg x f' are allowed by all three and run", async () => {
      for (const [c, out] of [
        ['echo hi 2>/dev/null', 'hi'],
        ['/usr/bin/rg x f', 'x'],
        ['echo a#b', 'a#b'],
        ['echo https://x.y/#top', 'https://x.y/#top'],
      ] as const) {
        const audit = await check(c);
        assert.equal(audit.allowed, true, c);
        assert.equal(audit.runs, c);
        assert.ok((await readOnly(scene, c)).includes(`stdout:\n${out}`), c);
        const build = await decideBuildCommand(c, scene.gate());
        assert.ok('run' in build && build.run, c);
      }
    });
  });

  describe('10: cost stays linear', () => {
    let scene: Scene;
    before(() => {
      scene = new Scene();
      mkdirSync(join(scene.root, ...Array.from({ length: 16 }, (_, i) => `d${i}`)), { recursive: true });
    });
    after(() => scene.cleanup());

    it('cd d0; cd d1; … cd d15; ls is judged with one working directory per segment, and really runs', async () => {
      const command = `${Array.from({ length: 16 }, (_, i) => `cd d${i}`).join('; ')}; ls`;
      const j = await scene.judge(command);
      assert.equal(j.verdict.allowed, true, j.verdict.reason);
      assert.ok(j.work.cwds <= 17, `cwds ${j.work.cwds}`);
      assert.ok(j.work.lookups <= 4 * 17 + 16, `lookups ${j.work.lookups}`);
      assert.equal(j.parsed?.segments.at(-1)?.cwd, join(scene.root, ...Array.from({ length: 16 }, (_, i) => `d${i}`)));
      await readOnly(scene, command);
    });

    it('800 && cd . go through exec_command with a work count linear in the segments', async () => {
      const command = `${Array(800).fill('cd .').join(' && ')} && ls`;
      const j = await scene.judge(command);
      assert.equal(j.verdict.allowed, true, j.verdict.reason);
      assert.ok(j.work.cwds <= 801 && j.work.lookups <= 4 * 801 + 16, JSON.stringify(j.work));
      assert.match(await readOnly(scene, command), /a\.txt/);
    });
  });

  describe('11: small defects', () => {
    let scene: Scene;
    before(() => (scene = new Scene()));
    after(() => scene.cleanup());

    it('check-command --batch | head -1 ends quietly (no EPIPE stack trace), exit 0', function () {
      const cli = join(REPO, 'src', 'cli', 'index.ts');
      const script =
        `yes '{"command": "ls -la src"}' | head -n 20000 | ` +
        `node --import tsx ${JSON.stringify(cli)} check-command --workspace ${JSON.stringify(scene.root)} --batch 2>${JSON.stringify(join(scene.base, 'err.txt'))} | head -1; ` +
        'echo "status=${PIPESTATUS[2]}"';
      const r = spawnSync('bash', ['-c', script], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });
      const lines = r.stdout.trim().split('\n');
      assert.equal(lines.length, 2, r.stdout);
      assert.equal((JSON.parse(lines[0] as string) as { allowed: boolean }).allowed, true);
      assert.match(lines[1] as string, /^status=[01]$/);
      const err = readFileSync(join(scene.base, 'err.txt'), 'utf8');
      assert.doesNotMatch(err, /EPIPE|Error|at /, err);
    });

    it('a batch line starting with a UTF-8 byte order mark is read, not reported as malformed', async () => {
      const r = await runCli(['check-command', '--workspace', scene.root, '--batch'], {
        stdin: ['\uFEFF{"command": "ls"}', '{"command": "echo a#b"}'],
      });
      assert.equal(r.code, 0, r.stdout);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { allowed: boolean; error?: string });
      assert.deepEqual(
        lines.map((l) => [l.allowed, l.error]),
        [
          [true, undefined],
          [true, undefined],
        ],
      );
    });

    it("'#' inside a word is no comment, for the gate as for the shell; at the start of a word it is", async () => {
      assert.equal(scene.sh('echo a#b').stdout, 'a#b\n');
      assert.equal((await scene.judge('echo a#b')).parsed?.segments[0]?.args.join(' '), 'a#b');
      assert.equal(scene.sh('echo a #b; touch made').stdout, 'a\n');
      assert.ok(!scene.exists('made'), 'the comment ran nothing');
      assert.equal((await scene.judge('echo a #b; touch made')).verdict.allowed, true);
      await refused(scene, 'echo a#b; touch made', 'program');
    });

    it("a bundled option is quoted once in the reason: 'sed -i' (in '-ni')", async () => {
      const v = (await scene.judge('sed -ni p f')).verdict;
      assert.doesNotMatch(v.reason, /\(in '-ni'\)'/, v.reason);
    });
  });

  describe('globs: expanded by the gate and checked like paths', () => {
    let scene: Scene;
    before(() => {
      scene = new Scene({ 'g/-n': 'dash\n', 'g/a.txt': 'alpha\n' });
      mkdirSync(join(scene.root, 'many'));
      for (let i = 0; i < 2001; i++) writeFileSync(join(scene.root, 'many', `f${i}`), '');
    });
    after(() => scene.cleanup());

    it("a match that starts with '-' is read as an option (cat numbers its lines); refused; ./* is read-only", async () => {
      const r = scene.sh('cd g && cat *');
      assert.match(r.stdout, /^\s+1\s+alpha$/m, 'cat took -n as an option');
      await refused(scene, 'cd g && cat *', 'glob', "'-n'");
      const content = await readOnly(scene, 'cd g && cat ./*');
      assert.match(content, /stdout:\ndash\nalpha/);
    });

    it('link/* leaves the workspace: real, and refused by the path rule', async () => {
      assert.match(scene.sh('ls link/*').stdout, /link\/secret/);
      await refused(scene, 'ls link/*', 'path');
      await refused(scene, 'cat sub/deep/up/*', 'path');
      await refused(scene, 'cat secret-l*', 'path');
    });

    it("'.*' also matches '..' under /bin/sh when it is dash: grep -r secret .* reads the parent directory", function () {
      const sh = spawnSync('sh', ['-c', 'readlink -f /bin/sh'], { encoding: 'utf8' }).stdout.trim();
      if (!sh.endsWith('dash')) this.skip();
      assert.ok(scene.sh('grep -r TOP .*').stdout.includes(SECRET), 'dash expands .* to . and .. as well');
      assert.ok(scene.sh('cat .*/outside/secret').stdout.includes(SECRET));
    });

    it("'.*' and '.?' are refused by the glob rule: the shell that runs them may be dash", async () => {
      await refused(scene, 'grep -r TOP .*', 'glob', "'.*'");
      await refused(scene, 'cat .*/outside/secret', 'glob');
      await refused(scene, 'ls -d .?', 'glob');
    });

    it('more than 2,000 matches are refused by the glob rule, pointing to rg --files -g; a narrower glob is fine', async () => {
      await refused(scene, 'ls many/*', 'glob', 'rg --files -g');
      const j = await scene.judge('ls many/f1*');
      assert.equal(j.verdict.allowed, true, j.verdict.reason);
      assert.equal(j.parsed?.segments[0]?.args.length, 1111);
      await readOnly(scene, 'ls many/f1*');
      await readOnly(scene, 'wc -l g/*.txt');
    });
  });
});
