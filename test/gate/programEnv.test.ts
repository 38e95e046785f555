/**
 * Rules §1.1 step 10 for the programs other than git (`src/core/gate/grammar/CONFIG_AUDIT.md`):
 * each variable that a program on the allow-list reads as configuration, set in the environment
 * Planwise itself runs in (a `.envrc`, a shell profile), really changes what the plain program
 * does; the same command through exec_command (the real runner over that environment) and as
 * `check-command --json` prints it (`runs` with `env`) runs without it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spool } from '../../src/core/spool';
import { execCommandTool } from '../../src/core/tools/execCommand';
import { scrubbedEnv } from '../../src/node/env';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';
import { NodeCommandRunner, runEnv } from '../../src/node/processRunner';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { runCli } from '../cli/cliHarness';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-progenv-')));
const root = join(base, 'ws');
const canaries = join(base, 'canaries');
const bin = join(base, 'bin');
const outsideRepo = join(base, 'outside-repo');

function sh(command: string, env: Record<string, string>, cwd = root) {
  const r = spawnSync('/bin/sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

const PERSON: Record<string, string> = {
  ...scrubbedEnv(process.env),
  HOME: join(base, 'home'),
  PATH: `${bin}:${process.env['PATH'] ?? ''}`,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

function have(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore', env: PERSON }).status === 0;
}

const touch = (name: string) => `touch '${join(canaries, name)}'`;

interface Case {
  /** What the variable does to the plain program. */
  readonly title: string;
  readonly program: string;
  readonly env: Record<string, string>;
  readonly command: string;
  /** Whether a run shows the variable's effect (a canary written, or its output). */
  readonly took: (stdout: string) => boolean;
}

const CASES: Case[] = [
  {
    title: 'RIPGREP_CONFIG_PATH names a file of extra arguments: --pre runs a program',
    program: 'rg',
    env: { RIPGREP_CONFIG_PATH: join(base, 'ripgreprc') },
    command: 'rg -n alpha a.txt',
    took: () => readdirSync(canaries).includes('rg-pre'),
  },
  {
    title: 'BAT_CONFIG_PATH names a configuration: --paging=always with a pager program runs it',
    program: 'bat',
    env: { BAT_CONFIG_PATH: join(base, 'batconfig') },
    command: 'bat a.txt',
    took: () => readdirSync(canaries).includes('bat-pager'),
  },
  {
    title: "MAGIC names file's magic database: its descriptions replace the real ones",
    program: 'file',
    env: { MAGIC: join(base, 'magic') },
    command: 'file a.txt',
    took: (out) => out.includes('planwise-magic'),
  },
  {
    title: 'POSIXLY_CORRECT stops option reading at the first operand: ls reads -a as a file',
    program: 'ls',
    env: { POSIXLY_CORRECT: '1' },
    command: 'ls src -a',
    took: (out) => !out.includes('..'),
  },
  {
    title: 'GIT_DIR makes git read a repository outside the workspace',
    program: 'git',
    env: { GIT_DIR: join(outsideRepo, '.git') },
    command: 'git log -p',
    took: (out) => out.includes('OUTSIDE-CONTENT'),
  },
  {
    title: 'GIT_EXTERNAL_DIFF runs a diff program',
    program: 'git',
    env: { GIT_EXTERNAL_DIFF: join(base, 'extdiff.sh') },
    command: 'git diff',
    took: () => readdirSync(canaries).includes('ext-diff'),
  },
  {
    title: 'GIT_CONFIG_PARAMETERS (what git -c passes on) sets core.fsmonitor',
    program: 'git',
    env: { GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${join(base, 'fsmonitor.sh')}'` },
    command: 'git status --short',
    took: () => readdirSync(canaries).includes('fsmonitor'),
  },
];

describe('gate: configuration variables of the allowed programs are removed from what they run with', function () {
  this.timeout(60_000);
  before(() => {
    for (const d of [root, canaries, bin, join(root, 'src'), outsideRepo, PERSON['HOME'] as string])
      mkdirSync(d, { recursive: true });
    writeFileSync(join(root, 'a.txt'), 'alpha\n');
    writeFileSync(join(root, 'src', 'b.ts'), 'x\n');
    writeFileSync(join(base, 'ripgreprc'), `--pre=${join(base, 'pre.sh')}\n`);
    writeFileSync(join(base, 'pre.sh'), `#!/bin/sh\n${touch('rg-pre')}\ncat "$1"\n`, { mode: 0o755 });
    writeFileSync(join(base, 'batconfig'), `--paging=always\n--pager="sh -c \\"${touch('bat-pager')}\\""\n`);
    writeFileSync(join(base, 'magic'), '0 string alpha planwise-magic\n');
    writeFileSync(join(base, 'extdiff.sh'), `#!/bin/sh\n${touch('ext-diff')}\n`, { mode: 0o755 });
    writeFileSync(join(base, 'fsmonitor.sh'), `#!/bin/sh\n${touch('fsmonitor')}\n`, { mode: 0o755 });
    writeFileSync(join(outsideRepo, 'o.txt'), 'OUTSIDE-CONTENT\n');
    for (const [dir, commands] of [
      [outsideRepo, ['git init -q', 'git add -A', 'git commit -qm o']],
      [root, ['git init -q', 'git add -A', 'git commit -qm i', 'echo beta >> a.txt']],
    ] as const)
      for (const c of commands) assert.equal(sh(c, PERSON, dir).status, 0, c);
    // Debian installs bat as batcat.
    const batcat = spawnSync('sh', ['-c', 'command -v batcat'], { encoding: 'utf8' }).stdout.trim();
    if (batcat !== '') symlinkSync(batcat, join(bin, 'bat'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  const clear = () => {
    for (const c of readdirSync(canaries)) rmSync(join(canaries, c));
  };

  for (const c of CASES) {
    it(`${c.title}; not in exec_command or in what check-command shows`, async function () {
      if (!have(c.program)) this.skip();
      const parent = { ...PERSON, ...c.env };
      clear();
      const plain = sh(c.command, parent);
      assert.ok(
        c.took(plain.stdout),
        `the variable made no difference to plain ${c.command}: ${plain.stdout}${plain.stderr}`,
      );
      clear();

      const reader = new NodeWorkspaceReader([root]);
      const r = await execCommandTool.run(
        { command: c.command },
        {
          reader,
          searcher: createSearcher(reader),
          runner: new NodeCommandRunner('/bin/sh', parent),
          trusted: true,
          home: PERSON['HOME'] as string,
          previewLimitBytes: 64 * 1024,
          spool: new Spool(),
        },
      );
      assert.notEqual(r.blocked, true, r.content);
      assert.ok(!c.took(r.content), `exec_command still read the variable: ${r.content}`);
      clear();

      const audit = await runCli(['check-command', '--workspace', root, '--json', '--', c.command], {
        env: { HOME: PERSON['HOME'] },
      });
      const line = JSON.parse(audit.stdout) as { runs: string; env: Record<string, string | null> };
      const env = runEnv(parent, Object.fromEntries(Object.entries(line.env).map(([k, v]) => [k, v ?? undefined])));
      const ran = sh(line.runs, env);
      assert.equal(ran.status, 0, ran.stderr);
      assert.ok(!c.took(ran.stdout), `what check-command shows still read the variable: ${ran.stdout}`);
      for (const [name, value] of Object.entries(c.env)) assert.notEqual(env[name], value, name);
    });
  }

  it('LANG, LC_* and TERM before a command may not name a file to load', async () => {
    const reader = new NodeWorkspaceReader([root]);
    const ctx = {
      reader,
      searcher: createSearcher(reader),
      runner: new NodeCommandRunner('/bin/sh', PERSON),
      trusted: true,
      previewLimitBytes: 64 * 1024,
      spool: new Spool(),
    };
    for (const command of ['LC_ALL=./loc ls', 'LANG=/tmp/x ls', 'TERM=../t ls']) {
      const r = await execCommandTool.run({ command }, ctx);
      assert.equal(r.blocked, true, command);
      assert.match(r.content, /names a file/);
    }
    const ok = await execCommandTool.run({ command: 'LC_ALL=C.UTF-8 ls' }, ctx);
    assert.notEqual(ok.blocked, true, ok.content);
  });
});
