/** The tool-level policy while planning (rules §1, first paragraph), with real symlinks on disk. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkPlanningToolCall, type PlanningContext, type ToolKind } from '../../src/core/gate';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';

describe('gate: tool policy while planning', () => {
  let base: string;
  let root: string;
  let ctx: PlanningContext;
  const call = (name: string, kind: ToolKind, args: Record<string, unknown> = {}, c: PlanningContext = ctx) =>
    checkPlanningToolCall({ name, kind }, args, c);

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-policy-')));
    root = join(base, 'ws');
    mkdirSync(join(root, '.vtcode', 'plans'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    ctx = {
      roots: [root],
      trusted: true,
      home: join(base, 'home'),
      plansDir: '.vtcode/plans',
      fs: new NodeWorkspaceReader([root]),
    };
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  for (const [name, kind] of [
    ['read_file', 'read'],
    ['list_files', 'list'],
    ['code_search', 'search'],
    ['request_user_input', 'interview'],
    ['task_tracker', 'tracker'],
  ] as const) {
    it(`allows ${name} (${kind})`, async () => {
      const v = await call(name, kind, { path: '/anything' });
      assert.deepEqual([v.allowed, v.rule, v.reason], [true, 'tool', `allowed: '${name}' is a read-only tool`]);
    });
  }

  it('denies every other tool, saying why', async () => {
    for (const name of ['apply_patch', 'delete_file', 'run_subagent']) {
      const v = await call(name, 'other', { path: '.vtcode/plans/x.md' });
      assert.deepEqual(
        [v.allowed, v.rule, v.reason],
        [false, 'tool', `blocked: '${name}' is not available while planning; it may change the workspace`],
      );
    }
  });

  it('runs the shell tool through the command gate', async () => {
    assert.equal((await call('exec_command', 'shell', { command: 'git status' })).allowed, true);
    const v = await call('exec_command', 'shell', { command: 'cat a | tee b' });
    assert.deepEqual([v.allowed, v.reason], [false, "blocked: 'tee' writes files"]);
    const missing = await call('exec_command', 'shell', { cmd: 'ls' });
    assert.deepEqual([missing.allowed, missing.rule], [false, 'tool']);
    assert.match(missing.reason, /needs a string 'command' argument/);
  });

  it('turns the shell tool off entirely in an untrusted workspace', async () => {
    const v = await call('exec_command', 'shell', { command: 'ls' }, { ...ctx, trusted: false });
    assert.deepEqual([v.allowed, v.rule], [false, 'trust']);
    assert.match(v.reason, /^blocked: shell commands are off in an untrusted workspace/);
  });

  describe('writes', () => {
    it('allows a new file under the plans directory (relative or absolute)', async () => {
      assert.equal((await call('write_file', 'write', { path: '.vtcode/plans/a.md' })).allowed, true);
      const abs = await call('write_file', 'write', { path: join(root, '.vtcode/plans/sub/new/b.md') });
      assert.deepEqual([abs.allowed, abs.rule], [true, 'write']);
    });

    it('allows a plans directory that does not exist yet', async () => {
      rmSync(join(root, '.vtcode'), { recursive: true });
      assert.equal((await call('write_file', 'write', { path: '.vtcode/plans/a.md' })).allowed, true);
    });

    it('denies writes elsewhere in the workspace, and the plans directory itself', async () => {
      for (const p of [
        'src/a.ts',
        '.vtcode/other.md',
        '.vtcode/plans',
        '.vtcode/plans/../x.md',
        join(base, 'outside/x'),
      ]) {
        const v = await call('write_file', 'write', { path: p });
        assert.deepEqual([v.allowed, v.rule], [false, 'write'], p);
        assert.match(v.reason, /may only write under the plans directory \(\.vtcode\/plans\) while planning/);
      }
    });

    it('denies a path under plans/ whose real path leaves it through a symlinked folder', async () => {
      symlinkSync(join(base, 'outside'), join(root, '.vtcode/plans/escape'));
      const v = await call('write_file', 'write', { path: '.vtcode/plans/escape/x.md' });
      assert.equal(v.allowed, false, v.reason);
    });

    it('denies writing through a symlinked file that points out', async () => {
      writeFileSync(join(base, 'outside/target.md'), 'x');
      symlinkSync(join(base, 'outside/target.md'), join(root, '.vtcode/plans/link.md'));
      assert.equal((await call('write_file', 'write', { path: '.vtcode/plans/link.md' })).allowed, false);
    });

    it('follows a symlink that leads into the plans directory', async () => {
      symlinkSync(join(root, '.vtcode/plans'), join(root, 'plans-link'));
      assert.equal((await call('write_file', 'write', { path: 'plans-link/a.md' })).allowed, true);
    });

    it('judges against the real plans directory when it is itself a symlink', async () => {
      rmSync(join(root, '.vtcode/plans'), { recursive: true });
      mkdirSync(join(base, 'real-plans'));
      symlinkSync(join(base, 'real-plans'), join(root, '.vtcode/plans'));
      assert.equal((await call('write_file', 'write', { path: '.vtcode/plans/a.md' })).allowed, true);
      assert.equal((await call('write_file', 'write', { path: join(base, 'real-plans/b.md') })).allowed, true);
      assert.equal((await call('write_file', 'write', { path: join(base, 'outside/c.md') })).allowed, false);
    });

    it('denies a write without a path, or one that cannot be resolved', async () => {
      const none = await call('write_file', 'write', { content: 'x' });
      assert.deepEqual([none.allowed, none.rule], [false, 'write']);
      assert.match(none.reason, /needs a 'path' argument/);
      writeFileSync(join(root, '.vtcode/plans/file'), 'x');
      const v = await call('write_file', 'write', { path: '.vtcode/plans/file/a.md' });
      assert.equal(v.allowed, false);
      assert.match(v.reason, /cannot resolve '\.vtcode\/plans\/file\/a\.md' \(ENOTDIR\)/);
    });
  });
});
