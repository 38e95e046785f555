/**
 * The CLI as esbuild.mjs builds it: dist/cli.cjs is a dispatcher, and each command's code is a
 * bundle of its own, loaded when that command runs. `--version` loads none of them, and
 * `check-command` only the gate's (never the session bundle that holds `openai`). Built with the
 * project's own esbuild.mjs in a staging folder, so the checkout's dist/ is left alone.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stagedBuild } from '../support/stagedBuild';

const repo = resolve(__dirname, '../..');

interface Run {
  readonly code: number;
  readonly out: string;
  /** dist/cli/*.js files compiled, in load order. */
  readonly bundles: string[];
}

describe('the CLI loads only the bundle a command needs', function () {
  this.timeout(120_000);
  let stage: string;

  before(async () => {
    stage = await stagedBuild('planwise-cli-lazy-');
    // Prints, at exit, the command bundles loaded, in load order.
    writeFileSync(
      join(stage, 'record.cjs'),
      "process.on('exit', () => process.stderr.write('\\nBUNDLES ' + JSON.stringify(Object.keys(require.cache).filter((f) => /[\\\\/]dist[\\\\/]cli[\\\\/]/.test(f)).map((f) => f.replace(/^.*[\\\\/]dist[\\\\/]cli[\\\\/]/, '').replace(/\\\\/g, '/')))));\n",
    );
    // Prints, at exit, which of process.stdin/stdout/stderr were touched (Node builds each on first touch).
    writeFileSync(
      join(stage, 'streams.cjs'),
      "const touched = new Set(); for (const name of ['stdin', 'stdout', 'stderr']) { const d = Object.getOwnPropertyDescriptor(process, name); Object.defineProperty(process, name, { configurable: true, enumerable: d.enumerable, get() { touched.add(name); return d.get.call(process); } }); }\nprocess.on('exit', () => require('fs').writeSync(2, '\\nSTREAMS ' + JSON.stringify([...touched])));\n",
    );
  });
  after(() => {
    rmSync(stage, { recursive: true, force: true });
  });

  /** Runs the CLI built under `root` (the staged build unless given). */
  const run = (args: string[], env: Record<string, string>, record = true, root = stage) =>
    new Promise<Run>((res) => {
      const node = record ? ['--require', join(stage, 'record.cjs')] : [];
      execFile(
        process.execPath,
        [...node, join(root, 'dist/cli.cjs'), ...args],
        { cwd: repo, env: { PATH: process.env['PATH'] ?? '', ...env } },
        (e, out, err) => {
          const m = /BUNDLES (.*)$/.exec(err);
          res({
            code: e ? ((e as { code?: number }).code ?? -1) : 0,
            out,
            bundles: m ? (JSON.parse(m[1] as string) as string[]) : [],
          });
        },
      );
    });
  const plain = { HOME: tmpdir() };

  it('--version loads no command bundle', async () => {
    const r = await run(['--version'], plain);
    assert.deepEqual([r.code, r.out.trim(), r.bundles], [0, '0.1.0', []]);
  });

  it("check-command loads the gate bundle and the grammar file of the command's program only", async () => {
    const r = await run(['check-command', '--', 'ls'], plain);
    assert.deepEqual(
      [r.code, r.out, r.bundles],
      [0, 'allowed: read-only command\n', ['check-command.js', 'grammar/ls.js']],
    );
    const git = await run(['check-command', '--', 'git status && wc -l README.md'], plain);
    assert.deepEqual([git.code, git.bundles], [0, ['check-command.js', 'grammar/git.js', 'grammar/text.js']]);
    const refused = await run(['check-command', '--', 'rm -rf x'], plain);
    assert.deepEqual([refused.code, refused.bundles], [1, ['check-command.js']]);
  });

  it('--version and check-command print their one line without building a stdio stream', async () => {
    const streams = (args: string[]) =>
      new Promise<{ out: string; streams: string[] }>((res) =>
        execFile(
          process.execPath,
          ['--require', join(stage, 'streams.cjs'), join(stage, 'dist/cli.cjs'), ...args],
          { cwd: repo, env: { PATH: process.env['PATH'] ?? '', ...plain } },
          (_e, out, err) => res({ out, streams: JSON.parse(/STREAMS (.*)$/.exec(err)?.[1] ?? 'null') as string[] }),
        ),
      );
    assert.deepEqual(await streams(['--version']), { out: '0.1.0\n', streams: [] });
    assert.deepEqual(await streams(['check-command', '--', 'ls']), {
      out: 'allowed: read-only command\n',
      streams: [],
    });
    const blocked = await streams(['check-command', '--json', '--', 'rm -rf x']);
    assert.deepEqual([JSON.parse(blocked.out).allowed, blocked.streams], [false, []]);
  });

  it('check-command whose reader has gone (| true) ends quietly with exit 0', async () => {
    const script = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(stage, 'dist/cli.cjs'))} check-command -- ls | true; echo "status=\${PIPESTATUS[0]}"`;
    const r = await new Promise<{ out: string; err: string }>((res) =>
      execFile(
        'bash',
        ['-c', script],
        { cwd: repo, env: { PATH: process.env['PATH'] ?? '', ...plain } },
        (_e, out, err) => res({ out, err }),
      ),
    );
    assert.deepEqual([r.out.trim(), r.err], ['status=0', '']);
  });

  it('plan and resume share the session bundle', async () => {
    const plan = await run(['plan', '--help'], plain);
    const resume = await run(['resume', '--help'], plain);
    assert.deepEqual([plan.code, plan.bundles, resume.code, resume.bundles], [0, ['session.js'], 0, ['session.js']]);
    assert.match(plan.out, /^Usage: planwise plan /);
    assert.match(resume.out, /^Usage: planwise resume /);
  });

  it('every command the dispatcher names has a bundle in the table, and the build wrote each', () => {
    const table = JSON.parse(readFileSync(join(repo, 'src/cli/commands/bundles.json'), 'utf8')) as Record<
      string,
      string
    >;
    const dispatcher = readFileSync(join(repo, 'src/cli/dispatch.ts'), 'utf8');
    const named = [...dispatcher.matchAll(/loadCommand\('(\w+)'\)/g)].map((m) => m[1] as string);
    assert.deepEqual([...named].sort(), Object.keys(table).sort());
    const built = readdirSync(join(stage, 'dist/cli')).filter((f) => f.endsWith('.js'));
    assert.deepEqual(built.sort(), [...new Set(Object.values(table))].map((b) => `${b}.js`).sort());
  });

  it('the build wrote one bundle per grammar file, and each holds only its own programs', () => {
    const sources = readdirSync(join(repo, 'src/core/gate/grammar/programs')).filter((f) => f.endsWith('.ts'));
    const built = readdirSync(join(stage, 'dist/cli/grammar')).filter((f) => f.endsWith('.js'));
    assert.deepEqual(built.sort(), sources.map((f) => f.replace(/\.ts$/, '.js')).sort());
    // The gate's own bundle holds no grammar: git's options are in git's file alone.
    assert.doesNotMatch(readFileSync(join(stage, 'dist/cli/check-command.js'), 'utf8'), /--no-textconv/);
    assert.match(readFileSync(join(stage, 'dist/cli/grammar/git.js'), 'utf8'), /--no-textconv/);
  });
});
