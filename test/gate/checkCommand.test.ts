/** `planwise check-command`, through main() with fake IO, and once as the built CLI. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { GATE_RUN_ENV } from '../../src/core/gate/runEnv';

(globalThis as { PLANWISE_VERSION?: string }).PLANWISE_VERSION ??= '0.0.0-test';

const repo = resolve(__dirname, '../..');

/** The environment changes every admitted command runs with, as `--json` prints them (null: removed). */
const ENV = Object.fromEntries(Object.entries(GATE_RUN_ENV).map(([k, v]) => [k, v ?? null]));

describe('planwise check-command', () => {
  let ws: string;
  beforeEach(() => {
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-check-')));
    mkdirSync(join(ws, 'src'));
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  async function run(args: string[], stdin = '', cwd = ws) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const input = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    input.end(stdin);
    const io: CliIO = { stdout, stderr, stdin: input, env: { HOME: join(ws, 'home') }, cwd };
    const code = await main(['check-command', ...args], io);
    return { code, out, err };
  }

  it('exits 0 and prints the reason for an allowed command', async () => {
    assert.deepEqual(await run(['--', 'git log --oneline | head -20']), {
      code: 0,
      out: 'allowed: read-only command\n',
      err: '',
    });
  });

  it('exits 1 and prints the reason for a blocked command', async () => {
    const r = await run(['--', 'cat a | tee b']);
    assert.deepEqual([r.code, r.out], [1, "blocked: 'tee' writes files\n"]);
  });

  it('joins several words after -- into one command line', async () => {
    const r = await run(['--', 'ls', '-la', '&&', 'rm', 'x']);
    assert.deepEqual([r.code, r.out], [1, "blocked: 'rm' changes files\n"]);
  });

  it('--json prints {"command","allowed","rule","reason"}, and "runs" for an allowed command', async () => {
    const r = await run(['--json', '--', 'echo hi > f.txt']);
    assert.equal(r.code, 1);
    assert.deepEqual(JSON.parse(r.out), {
      command: 'echo hi > f.txt',
      allowed: false,
      rule: 'redirect',
      reason: "blocked: output redirection '>' is not read-only",
    });
    const sed = await run(['--json', '--', "sed -n '1p' src/a.ts"]);
    assert.deepEqual(JSON.parse(sed.out), {
      command: "sed -n '1p' src/a.ts",
      allowed: true,
      rule: 'allowed',
      reason: 'allowed: read-only command',
      runs: "sed --sandbox -n '1p' src/a.ts",
      env: ENV,
    });
  });

  it('--json shows git running with its safe options and the configuration that outranks the repository', async () => {
    const r = await run(['--json', '--', 'git log -p -1 | head']);
    const line = JSON.parse(r.out) as { runs: string; env: Record<string, string | null> };
    assert.equal(line.runs, 'git log --no-textconv --no-ext-diff -p -1 | head');
    const settings = new Map<string, string>();
    for (let n = 0; n < Number(line.env['GIT_CONFIG_COUNT']); n++)
      settings.set(line.env[`GIT_CONFIG_KEY_${n}`] as string, line.env[`GIT_CONFIG_VALUE_${n}`] as string);
    for (const [key, value] of [
      ['safe.bareRepository', 'explicit'],
      ['core.hooksPath', '/dev/null'],
      ['core.fsmonitor', 'false'],
      ['log.showSignature', 'false'],
    ] as const)
      assert.equal(settings.get(key), value, key);
    assert.equal(line.env['GIT_*'], null, 'the parent environment gives git nothing');
    assert.equal(line.env['RIPGREP_CONFIG_PATH'], null);
  });

  it('strips a UTF-8 byte order mark at the start of a batch, and judges a # inside a word as text', async () => {
    const r = await run(['--batch'], `\ufeff${JSON.stringify({ command: 'echo a#b' })}\n`);
    assert.equal(r.code, 0);
    assert.equal(JSON.parse(r.out).allowed, true);
    assert.equal((await run(['--', '\ufeffls'])).code, 0);
  });

  it('--untrusted refuses project code, saying why', async () => {
    assert.equal((await run(['--', 'npm test'])).code, 0);
    const r = await run(['--untrusted', '--', 'npm test']);
    assert.deepEqual(
      [r.code, r.out],
      [1, "blocked: 'npm test' runs project code; not allowed in an untrusted workspace\n"],
    );
  });

  it('judges paths against --workspace, and against the current directory by default', async () => {
    const inside = join(ws, 'src', 'a.ts');
    assert.equal((await run(['--', `cat ${inside}`])).code, 0);
    assert.equal((await run(['--workspace', join(ws, 'src'), '--', `cat ${inside}`])).code, 0);
    const other = await run(['--workspace=src', '--', `cat ${join(ws, 'README.md')}`]);
    assert.deepEqual(
      [other.code, other.out],
      [1, `blocked: path '${join(ws, 'README.md')}' is outside the workspace\n`],
    );
  });

  it('--batch answers one JSON line per command and exits 0', async () => {
    const input = ['git status', 'rm -rf src', 'cd src && cat ../x'].map((command) => JSON.stringify({ command }));
    const r = await run(['--batch'], `${input.join('\n')}\n`);
    assert.equal(r.code, 0);
    assert.deepEqual(
      r.out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
      [
        {
          command: 'git status',
          allowed: true,
          rule: 'allowed',
          reason: 'allowed: read-only command',
          runs: 'git status',
          env: ENV,
        },
        { command: 'rm -rf src', allowed: false, rule: 'program', reason: "blocked: 'rm' changes files" },
        {
          command: 'cd src && cat ../x',
          allowed: true,
          rule: 'allowed',
          reason: 'allowed: read-only command',
          runs: 'cd src && cat ../x',
          env: ENV,
        },
      ],
    );
  });

  it('--batch reports a malformed line as an error line, keeps going, and exits 2', async () => {
    const stdin = '{"command": "ls"}\nnot json\n\n{"cmd": "ls"}\r\n{"command": "pwd"}';
    const r = await run(['--batch'], stdin);
    assert.equal(r.code, 2);
    const lines = r.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 4);
    const ok = (command: string) => ({
      command,
      allowed: true,
      rule: 'allowed',
      reason: 'allowed: read-only command',
      runs: command,
      env: ENV,
    });
    assert.deepEqual(lines[0], ok('ls'));
    assert.equal(lines[1].line, 2);
    assert.match(lines[1].error, /^malformed input line 2: expected a JSON object like \{"command": "\.\.\."\}$/);
    assert.equal(lines[2].line, 4);
    assert.deepEqual(lines[3], ok('pwd'));
  });

  it('--help prints the usage and exits 0', async () => {
    const r = await run(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, /^Usage: planwise check-command \[options\] -- "<command>"/);
    assert.match(r.out, /--batch/);
  });

  for (const [args, message] of [
    [[], /no command given/],
    [['--bogus', '--', 'ls'], /unknown option '--bogus'/],
    [['--workspace'], /--workspace needs a directory/],
    [['--batch', '--', 'ls'], /--batch reads commands from stdin/],
    [['--workspace', 'missing-dir', '--', 'ls'], /workspace '.*missing-dir' is not an existing directory/],
  ] as const) {
    it(`exits 2 with a usage error for ${JSON.stringify(args)}`, async () => {
      const r = await run([...args]);
      assert.equal(r.code, 2);
      assert.equal(r.out, '');
      assert.match(r.err, message);
    });
  }

  it('refuses a workspace that is a file', async () => {
    writeFileSync(join(ws, 'file.txt'), 'x');
    const r = await run(['--workspace', 'file.txt', '--', 'ls']);
    assert.equal(r.code, 2);
    assert.match(r.err, /is not an existing directory/);
  });
});

describe('planwise check-command (built CLI)', function () {
  this.timeout(120_000);
  let ws: string;

  before(async () => {
    await new Promise<void>((res, rej) =>
      execFile(process.execPath, ['esbuild.mjs'], { cwd: repo }, (e, _out, err) =>
        e ? rej(new Error(`node esbuild.mjs failed: ${err}`)) : res(),
      ),
    );
    ws = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-check-cli-')));
  });
  after(() => rmSync(ws, { recursive: true, force: true }));

  const exec = (args: string[], stdin?: string) =>
    new Promise<{ code: number; out: string }>((res) => {
      const child = execFile(
        process.execPath,
        [join(repo, 'dist/cli.cjs'), 'check-command', ...args],
        { cwd: ws },
        (e, out) => res({ code: e ? ((e as { code?: number }).code ?? -1) : 0, out }),
      );
      child.stdin?.end(stdin ?? '');
    });

  it('exits 0, 1 and 2 and answers a batch', async () => {
    assert.deepEqual(await exec(['--', 'git diff --stat']), { code: 0, out: 'allowed: read-only command\n' });
    assert.deepEqual(await exec(['--', 'python3 - <<EOF\nimport os\nEOF']), {
      code: 1,
      out: "blocked: here-document '<<' is not allowed\n",
    });
    assert.equal((await exec([])).code, 2);
    const batch = await exec(['--batch'], '{"command": "ls {a,b}"}\n');
    assert.equal(batch.code, 0);
    assert.deepEqual(JSON.parse(batch.out), {
      command: 'ls {a,b}',
      allowed: false,
      rule: 'raw.brace',
      reason: "blocked: unquoted '{' is brace expansion or grouping; quote it",
    });
  });

  it('ends a batch quietly when its reader goes away (| head -1)', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ command: `ls src ${i % 2 ? 'x' : ''}` }));
    const r = await new Promise<{ code: number | null; err: string }>((res) => {
      const child = execFile(
        '/bin/sh',
        ['-c', `node ${JSON.stringify(join(repo, 'dist/cli.cjs'))} check-command --batch | head -1 >/dev/null`],
        { cwd: ws },
        (e, _out, err) => res({ code: e ? ((e as { code?: number }).code ?? -1) : 0, err }),
      );
      child.stdin?.end(`${lines.join('\n')}\n`);
    });
    assert.equal(r.err, '', 'no EPIPE stack trace');
    assert.equal(r.code, 0);
  });
});
