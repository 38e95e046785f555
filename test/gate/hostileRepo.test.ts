/**
 * Rules §1.1 step 10, shown with real git: a repository in the workspace cannot turn a read-only
 * git command into execution or into a read outside the workspace. For each class the fixture is
 * built with real git in a temporary workspace; plain git run on it really runs the payload (a
 * canary file appears) or prints the outside canary; the same command through `check-command`
 * (the CLI, in-process) and through `exec_command` (the planning tool with the real runner) is
 * refused, or runs as the gate's parse says (`runs` with `env`) with nothing executed and nothing
 * outside read.
 *
 * Classes: a git directory committed as plain files (textconv, fsmonitor, core.worktree,
 * commondir, gpg.program with log.showSignature) reached by `-C`, by `cd` and by a pathspec; a
 * repository nested in the workspace (hooksPath with a stale index, a filter driver, a gitfile or
 * commondir to outside); a submodule whose repository names a filter; and the workspace's own
 * repository configured the husky way (hooksPath to a committed folder, fsmonitor, textconv,
 * gpg.program), which the gate admits and the configuration that outranks it makes harmless.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeCommand, type Judgement } from '../../src/core/gate';
import { Spool } from '../../src/core/spool';
import { execCommandTool } from '../../src/core/tools/execCommand';
import type { ToolContext } from '../../src/core/tools/types';
import { scrubbedEnv } from '../../src/node/env';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';
import { NodeCommandRunner, runEnv } from '../../src/node/processRunner';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { runCli } from '../cli/cliHarness';

const OUTSIDE_TEXT = 'OUTSIDE-CONTENT';

class Fixture {
  readonly base = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-hostile-')));
  readonly root = join(this.base, 'ws');
  readonly outside = join(this.base, 'outside');
  readonly canaries = join(this.base, 'canaries');
  readonly home = join(this.base, 'home');
  /** The environment of the person's shell: no system configuration, a home of its own. */
  readonly env: Record<string, string> = {
    ...scrubbedEnv(process.env),
    HOME: this.home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };

  constructor() {
    for (const d of [this.root, this.outside, this.canaries, this.home]) mkdirSync(d, { recursive: true });
    // A repository outside the workspace, whose content must never be printed.
    mkdirSync(join(this.outside, 'repo'));
    writeFileSync(join(this.outside, 'secret'), `${OUTSIDE_TEXT}\n`);
    writeFileSync(join(this.outside, 'repo', 'o.txt'), `${OUTSIDE_TEXT}\n`);
    this.git(join(this.outside, 'repo'), 'init -q', 'add -A', 'commit -qm outside');
    this.write('a.txt', 'alpha\n');
    this.git(this.root, 'init -q', 'add -A', 'commit -qm init');
  }

  write(rel: string, text: string, mode?: number): void {
    const p = join(this.root, rel);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
    if (mode !== undefined) chmodSync(p, mode);
  }

  /** A shell command that writes the canary `name` when it runs. */
  payload(name: string): string {
    return `touch '${join(this.canaries, name)}'`;
  }

  /** An executable script (outside the workspace) that writes the canary `name`. */
  script(name: string): string {
    const p = join(this.base, `${name}.sh`);
    writeFileSync(p, `#!/bin/sh\n${this.payload(name)}\ncat "$1" 2>/dev/null\n`);
    chmodSync(p, 0o755);
    return p;
  }

  canariesFound(): string[] {
    return readdirSync(this.canaries);
  }

  clearCanaries(): void {
    for (const c of this.canariesFound()) rmSync(join(this.canaries, c));
  }

  /** Runs git commands in `dir`; each must succeed. */
  git(dir: string, ...commands: string[]): void {
    for (const c of commands) {
      const r = this.sh(`git ${c}`, dir);
      assert.equal(r.status, 0, `git ${c}: ${r.stderr}`);
    }
  }

  /** Runs a command as the person's shell would, with no gate, in the workspace root (or `cwd`). */
  sh(command: string, cwd = this.root, env: Record<string, string> = this.env) {
    const r = spawnSync('/bin/sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  }

  /** A bare repository at `rel` holding one commit of `files`, with `config` lines set in it. */
  bare(rel: string, files: Record<string, string>, config: Record<string, string> = {}): void {
    const src = mkdtempSync(join(this.base, 'src-'));
    for (const [f, text] of Object.entries(files)) writeFileSync(join(src, f), text);
    this.git(src, 'init -q', 'add -A', 'commit -qm c', `clone -q --bare . '${join(this.root, rel)}'`);
    for (const [k, v] of Object.entries(config))
      this.git(join(this.root, rel), `config '${k}' "${v.replace(/"/g, '\\"')}"`);
  }

  /** Marks every file of the index stale, so the next refresh rewrites the index. */
  private staled = 0;

  /** Gives `file` a new past mtime, so the index (refreshed by an earlier run) is stale again. */
  staleIndex(dir: string, file: string): void {
    const when = new Date(2001, 0, 1, 0, 0, ++this.staled);
    utimesSync(join(dir, file), when, when);
  }

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

  judge(command: string): Promise<Judgement> {
    return judgeCommand(command, {
      roots: [this.root],
      trusted: true,
      home: this.home,
      fs: new NodeWorkspaceReader([this.root]),
    });
  }

  /** `planwise check-command --json` for `command`. */
  async audit(
    command: string,
  ): Promise<{ allowed: boolean; rule: string; reason: string; runs?: string; env?: Record<string, string | null> }> {
    const r = await runCli(['check-command', '--workspace', this.root, '--json', '--', command], {
      env: { HOME: this.home },
    });
    return JSON.parse(r.stdout) as never;
  }

  cleanup(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}

/**
 * `command` really runs a payload (or prints the outside canary) when plain git runs it; the
 * gate refuses it by `git-repository` in check-command and in exec_command, where nothing runs.
 */
async function refusedClass(fx: Fixture, command: string, shows: 'canary' | 'outside', reason: RegExp): Promise<void> {
  fx.clearCanaries();
  const plain = fx.sh(command);
  if (shows === 'canary')
    assert.notDeepEqual(fx.canariesFound(), [], `plain git did not run the payload: ${command}\n${plain.stderr}`);
  else
    assert.ok(
      plain.stdout.includes(OUTSIDE_TEXT),
      `plain git did not read outside: ${command}\n${plain.stdout}${plain.stderr}`,
    );
  fx.clearCanaries();

  const audit = await fx.audit(command);
  assert.equal(audit.allowed, false, `${command}: ${audit.reason}`);
  assert.equal(audit.rule, 'git-repository', audit.reason);
  assert.match(audit.reason, reason);

  const r = await execCommandTool.run({ command }, fx.tool());
  assert.equal(r.blocked, true, r.content);
  assert.equal(r.content, audit.reason);
  assert.deepEqual(fx.canariesFound(), [], `${command}: a payload ran`);
}

/**
 * `command` is admitted; plain git runs the payload (or reads outside), while exec_command and the
 * audit's `runs` with its `env` (run here exactly as printed) run nothing and read nothing outside.
 */
async function neutralised(
  fx: Fixture,
  command: string,
  shows: 'canary' | 'outside',
  before?: () => void,
): Promise<void> {
  fx.clearCanaries();
  before?.();
  const plain = fx.sh(command);
  if (shows === 'canary')
    assert.notDeepEqual(fx.canariesFound(), [], `plain git did not run the payload: ${command}\n${plain.stderr}`);
  else assert.ok(plain.stdout.includes(OUTSIDE_TEXT), `plain git did not read outside: ${command}`);
  fx.clearCanaries();

  before?.();
  const r = await execCommandTool.run({ command }, fx.tool());
  assert.notEqual(r.blocked, true, r.content);
  assert.deepEqual(fx.canariesFound(), [], `exec_command ran the payload: ${command}\n${r.content}`);
  assert.ok(!r.content.includes(OUTSIDE_TEXT), `exec_command read outside: ${command}`);

  before?.();
  const audit = await fx.audit(command);
  assert.equal(audit.allowed, true, audit.reason);
  const env = runEnv(fx.env, Object.fromEntries(Object.entries(audit.env ?? {}).map(([k, v]) => [k, v ?? undefined])));
  const ran = fx.sh(audit.runs as string, fx.root, env);
  assert.deepEqual(
    fx.canariesFound(),
    [],
    `what check-command says runs ran the payload: ${audit.runs}\n${ran.stderr}`,
  );
  assert.ok(!ran.stdout.includes(OUTSIDE_TEXT), `what check-command says runs read outside: ${audit.runs}`);
}

function have(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

describe('gate: a repository cannot turn a read-only git command into execution (real git)', function () {
  this.timeout(120_000);
  let fx: Fixture;
  before(function () {
    if (!have('git')) this.skip();
    fx = new Fixture();
  });
  after(() => fx?.cleanup());

  describe('a git directory committed as plain files', () => {
    before(() => {
      // diff.<driver>.textconv, named for every file by the git directory's own info/attributes.
      fx.bare('vendor/tc.git', { 'f.bin': 'one\n' }, { 'diff.evil.textconv': fx.script('textconv') });
      fx.write('vendor/tc.git/info/attributes', '* diff=evil\n');
      // core.fsmonitor, reached through a work tree the git directory names.
      fx.bare(
        'vendor/fs.git',
        { 'f.txt': 'x\n' },
        { 'core.bare': 'false', 'core.worktree': '../..', 'core.fsmonitor': `${fx.payload('fsmonitor')}; false #` },
      );
      // core.worktree pointing outside the workspace.
      fx.bare('vendor/wt.git', { 'f.txt': 'x\n' }, { 'core.bare': 'false', 'core.worktree': fx.outside });
      // commondir: a HEAD and a pointer to a repository outside.
      fx.write('vendor/cd/HEAD', 'ref: refs/heads/master\n');
      fx.write('vendor/cd/commondir', `${join(fx.outside, 'repo', '.git')}\n`);
      // gpg.program with log.showSignature, on a signed commit.
      fx.bare('vendor/sig.git', { 'f.txt': 'x\n' }, { 'log.showSignature': 'true', 'gpg.program': fx.script('gpg') });
      signHead(fx, join(fx.root, 'vendor/sig.git'));
      // Committed into the workspace's repository, as a clone would bring them.
      fx.git(fx.root, 'add -A', 'commit -qm vendored');
    });

    it('git -C DIR show HEAD runs its textconv program: refused', async () => {
      await refusedClass(fx, 'git -C vendor/tc.git show HEAD', 'canary', /'vendor\/tc\.git' is a git directory/);
    });

    it('cd DIR && git log -p runs its textconv program: refused', async () => {
      await refusedClass(fx, 'cd vendor/tc.git && git log -p', 'canary', /git directory inside the workspace/);
    });

    it('cd into a folder inside the git directory (objects/) is refused the same way', async () => {
      await refusedClass(
        fx,
        'cd vendor/tc.git/objects && git log -p',
        'canary',
        /'vendor\/tc\.git' is a git directory/,
      );
    });

    it('git -C DIR status runs its core.fsmonitor program: refused', async () => {
      await refusedClass(fx, 'git -C vendor/fs.git status', 'canary', /vendor\/fs\.git/);
    });

    it('git -C DIR status lists files outside the workspace through core.worktree: refused', async () => {
      // git lists the outside folder's entries: the canary file's name is its content here.
      writeFileSync(join(fx.outside, OUTSIDE_TEXT), '');
      try {
        await refusedClass(fx, 'git -C vendor/wt.git status --short', 'outside', /vendor\/wt\.git/);
      } finally {
        rmSync(join(fx.outside, OUTSIDE_TEXT));
      }
    });

    it('git -C DIR log -p reads a repository outside the workspace through commondir: refused', async () => {
      await refusedClass(fx, 'git -C vendor/cd log -p', 'outside', /'vendor\/cd' is a git directory/);
    });

    it('git -C DIR log runs gpg.program when log.showSignature is set: refused', async () => {
      await refusedClass(fx, 'git -C vendor/sig.git log', 'canary', /vendor\/sig\.git/);
    });

    it('even if such a command ran, safe.bareRepository=explicit in its environment stops git there', async () => {
      const j = await fx.judge('git log -p');
      assert.ok(j.parsed);
      const env = runEnv(fx.env, j.parsed.env);
      for (const c of ['git -C vendor/tc.git show HEAD', 'git -C vendor/cd log -p', 'git -C vendor/fs.git status']) {
        fx.clearCanaries();
        const r = fx.sh(c, fx.root, env);
        assert.notEqual(r.status, 0, c);
        assert.match(r.stderr, /cannot use bare repository/, c);
        assert.deepEqual(fx.canariesFound(), [], c);
        assert.ok(!r.stdout.includes(OUTSIDE_TEXT), c);
      }
    });

    it('a pathspec into the git directory does not change which repository git uses: admitted, nothing runs', async () => {
      for (const command of [
        'git log -p -- vendor/tc.git',
        'git show HEAD -- vendor/tc.git/config',
        'git diff HEAD~1 -- vendor/cd',
        'git ls-files vendor/sig.git',
      ]) {
        fx.clearCanaries();
        assert.equal(fx.sh(command).status, 0, command);
        assert.deepEqual(fx.canariesFound(), [], `plain git ran a payload: ${command}`);
        const r = await execCommandTool.run({ command }, fx.tool());
        assert.equal(r.blocked, undefined, r.content);
        assert.match(r.content, /^exit code 0/, r.content);
        assert.deepEqual(fx.canariesFound(), [], command);
        assert.ok(!r.content.includes(OUTSIDE_TEXT), command);
      }
    });
  });

  describe('a repository nested in the workspace, with its own .git', () => {
    before(() => {
      // hooksPath naming a committed hooks folder, and an index about to be refreshed.
      const n = join(fx.root, 'vendor', 'hooked');
      mkdirSync(join(n, 'hooks'), { recursive: true });
      writeFileSync(join(n, 'hooks', 'post-index-change'), `#!/bin/sh\n${fx.payload('post-index-change')}\n`);
      chmodSync(join(n, 'hooks', 'post-index-change'), 0o755);
      writeFileSync(join(n, 'f'), 'x\n');
      fx.git(n, 'init -q', 'add -A', 'commit -qm c', 'config core.hooksPath hooks');
      // A clean filter that runs when git hashes a changed file.
      const f = join(fx.root, 'vendor', 'filtered');
      mkdirSync(f, { recursive: true });
      writeFileSync(join(f, '.gitattributes'), '* filter=evil\n');
      writeFileSync(join(f, 'f'), 'x\n');
      fx.git(f, 'init -q', 'add -A', 'commit -qm c', `config filter.evil.clean "${fx.payload('filter')}; cat"`);
      // A gitfile and a commondir leading to the repository outside.
      fx.write('vendor/gitfile/.git', `gitdir: ${join(fx.outside, 'repo', '.git')}\n`);
      fx.write('vendor/common/.git/HEAD', 'ref: refs/heads/master\n');
      fx.write('vendor/common/.git/commondir', `${join(fx.outside, 'repo', '.git')}\n`);
      // A .git that is a symlink to the repository outside (git follows it).
      mkdirSync(join(fx.root, 'vendor', 'linked'), { recursive: true });
      symlinkSync(join(fx.outside, 'repo', '.git'), join(fx.root, 'vendor', 'linked', '.git'));
    });

    it('cd DIR && git diff refreshes a stale index and runs the post-index-change hook: refused', async () => {
      const dir = join(fx.root, 'vendor', 'hooked');
      fx.staleIndex(dir, 'f');
      await refusedClass(fx, 'cd vendor/hooked && git diff', 'canary', /'vendor\/hooked' is a separate git repository/);
    });

    it('git -C DIR describe --dirty does the same: refused', async () => {
      fx.staleIndex(join(fx.root, 'vendor', 'hooked'), 'f');
      await refusedClass(fx, 'git -C vendor/hooked describe --dirty --always', 'canary', /vendor\/hooked/);
    });

    it('git -C DIR status runs its filter driver (which no configuration from outside can name): refused', async () => {
      fx.staleIndex(join(fx.root, 'vendor', 'filtered'), 'f');
      await refusedClass(fx, 'git -C vendor/filtered status', 'canary', /vendor\/filtered/);
    });

    it('cd DIR && git log -p reads outside through a gitfile, a symlinked .git, or commondir: refused', async () => {
      await refusedClass(fx, 'cd vendor/gitfile && git log -p', 'outside', /vendor\/gitfile/);
      await refusedClass(fx, 'cd vendor/linked && git log -p', 'outside', /vendor\/linked/);
      await refusedClass(fx, 'cd vendor/common && git log -p', 'outside', /vendor\/common/);
    });

    it('a directory below the nested repository is refused the same way', async () => {
      mkdirSync(join(fx.root, 'vendor', 'hooked', 'hooks', 'deep'), { recursive: true });
      const v = (await fx.judge('cd vendor/hooked/hooks/deep && git status')).verdict;
      assert.equal(v.rule, 'git-repository', v.reason);
    });
  });

  describe("the workspace's own repository, configured to run programs (husky style and worse)", () => {
    let own: Fixture;
    before(() => {
      own = new Fixture();
      own.write('.husky/post-index-change', `#!/bin/sh\n${own.payload('hook')}\n`, 0o755);
      own.write('.gitattributes', '*.bin diff=evil\n');
      own.write('data.bin', 'one\n');
      own.git(own.root, 'add -A', 'commit -qm c');
      own.write('data.bin', 'two\n');
      own.git(own.root, 'commit -qam c2');
      own.git(
        own.root,
        'config core.hooksPath .husky',
        `config diff.evil.textconv '${own.script('textconv')}'`,
        `config core.fsmonitor '${own.script('fsmonitor')}'`,
        'config log.showSignature true',
        `config gpg.program '${own.script('gpg')}'`,
      );
    });
    after(() => own?.cleanup());

    it('git diff and git describe --dirty with a stale index: the committed hook does not run', async () => {
      await neutralised(own, 'git diff', 'canary', () => own.staleIndex(own.root, 'a.txt'));
      await neutralised(own, 'git describe --dirty --always', 'canary', () => own.staleIndex(own.root, 'a.txt'));
    });

    it('git status: core.fsmonitor does not run', async () => {
      await neutralised(own, 'git status --short', 'canary');
    });

    it('git log -p, git show and git blame: the textconv program does not run', async () => {
      await neutralised(own, 'git log -p -2 -- data.bin', 'canary');
      await neutralised(own, 'git show HEAD', 'canary');
      await neutralised(own, 'git blame data.bin', 'canary');
    });

    it('git log on a signed commit, with log.showSignature or --show-signature: gpg.program does not run', async () => {
      signHead(own, own.root);
      await neutralised(own, 'git log -1', 'canary');
      await neutralised(own, "git log -1 --show-signature --format='%G? %h'", 'canary');
    });
  });

  describe('a submodule whose own repository names a filter', () => {
    let sm: Fixture;
    before(() => {
      sm = new Fixture();
      const sub = join(sm.root, 'sub');
      mkdirSync(sub);
      writeFileSync(join(sub, '.gitattributes'), '* filter=evil\n');
      writeFileSync(join(sub, 'f'), 'x\n');
      sm.git(sub, 'init -q', 'add -A', 'commit -qm c', `config filter.evil.clean "${sm.payload('filter')}; cat"`);
      sm.git(sm.root, 'add sub', 'commit -qm sub');
    });
    after(() => sm?.cleanup());

    it('git status and git diff at the root enter the submodule and run its filter; the submodule stays closed', async () => {
      const stale = () => sm.staleIndex(join(sm.root, 'sub'), 'f');
      await neutralised(sm, 'git status --short', 'canary', stale);
      await neutralised(sm, 'git diff', 'canary', stale);
    });

    it('--recurse-submodules and --ignore-submodules=none, which open it, are refused', async () => {
      for (const c of [
        'git grep --recurse-submodules x',
        'git ls-files --recurse-submodules',
        'git status --ignore-submodules=none',
      ]) {
        const v = (await sm.judge(c)).verdict;
        assert.equal(v.allowed, false, c);
        assert.equal(existsSync(join(sm.canaries, 'filter')), false);
      }
    });
  });
});

/** Replaces HEAD of the repository at `gitDir` by a commit carrying a (fake) PGP signature. */
function signHead(fx: Fixture, dir: string): void {
  const tree = fx.sh('git rev-parse HEAD^{tree}', dir).stdout.trim();
  const parent = fx.sh('git rev-parse HEAD', dir).stdout.trim();
  const body =
    `tree ${tree}\nparent ${parent}\nauthor t <t@example.com> 0 +0000\ncommitter t <t@example.com> 0 +0000\n` +
    'gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQ==\n -----END PGP SIGNATURE-----\n\nsigned\n';
  const r = spawnSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
    cwd: dir,
    input: body,
    env: fx.env,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  fx.git(dir, `update-ref HEAD ${r.stdout.trim()}`);
}
