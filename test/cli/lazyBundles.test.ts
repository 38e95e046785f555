/**
 * The CLI as esbuild.mjs builds it: dist/cli.cjs is a dispatcher, and each command's code is a
 * bundle of its own, loaded when that command runs. `--version` loads none of them, and
 * `check-command` only the gate's (never the session bundle that holds `openai`). Built with the
 * project's own esbuild.mjs in a staging folder, so the checkout's dist/ is left alone.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  let cache: string;

  before(async () => {
    stage = await stagedBuild('planwise-cli-lazy-');
    // Prints, at exit, the command bundles compiled (each is compiled by node:vm, with or without a code cache).
    writeFileSync(
      join(stage, 'record.cjs'),
      "const vm = require('vm'); const compiled = []; const Script = vm.Script; vm.Script = class extends Script { constructor(code, options) { super(code, options); const f = String(options && options.filename); if (/[\\\\/]dist[\\\\/]cli[\\\\/]/.test(f)) compiled.push(f.replace(/^.*[\\\\/]/, '')); } };\nprocess.on('exit', () => process.stderr.write('\\nBUNDLES ' + JSON.stringify(compiled)));\n",
    );
    // Prints, at exit, which of process.stdin/stdout/stderr were touched (Node builds each on first touch).
    writeFileSync(
      join(stage, 'streams.cjs'),
      "const touched = new Set(); for (const name of ['stdin', 'stdout', 'stderr']) { const d = Object.getOwnPropertyDescriptor(process, name); Object.defineProperty(process, name, { configurable: true, enumerable: d.enumerable, get() { touched.add(name); return d.get.call(process); } }); }\nprocess.on('exit', () => require('fs').writeSync(2, '\\nSTREAMS ' + JSON.stringify([...touched])));\n",
    );
    cache = mkdtempSync(join(tmpdir(), 'planwise-cli-cache-'));
  });
  after(() => {
    rmSync(stage, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
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
  const plain = { NODE_DISABLE_COMPILE_CACHE: '1', HOME: tmpdir() };

  it('--version loads no command bundle', async () => {
    const r = await run(['--version'], plain);
    assert.deepEqual([r.code, r.out.trim(), r.bundles], [0, '0.1.0', []]);
  });

  it('check-command loads the gate bundle only', async () => {
    const r = await run(['check-command', '--', 'ls'], plain);
    assert.deepEqual([r.code, r.out, r.bundles], [0, 'allowed: read-only command\n', ['check-command.js']]);
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

  it('with the code cache, a second run answers the same from the cached compile', async () => {
    const env = { XDG_CACHE_HOME: cache, HOME: tmpdir() };
    const first = await run(['check-command', '--json', '--', 'sed -n 1p README.md'], env, false);
    const files = readdirSync(join(cache, 'planwise', `v8-${process.version}-${process.arch}`));
    assert.equal(files.length, 1);
    const id = /\/\/planwise-bundle:([0-9a-f]{16})\n$/.exec(
      readFileSync(join(stage, 'dist/cli/check-command.js'), 'utf8'),
    );
    assert.equal(files[0], `check-command-${id?.[1]}.bin`);
    const second = await run(['check-command', '--json', '--', 'sed -n 1p README.md'], env, false);
    assert.deepEqual([second.code, second.out], [first.code, first.out]);
    assert.equal(JSON.parse(second.out).allowed, true);
  });

  it('a cache folder that cannot be made costs the cache, not the answer', async () => {
    const notAFolder = join(cache, 'a-file');
    writeFileSync(notAFolder, '');
    const env = { XDG_CACHE_HOME: notAFolder, HOME: tmpdir() };
    for (let i = 0; i < 2; i++) {
      const r = await run(['check-command', '--', 'ls'], env, false);
      assert.deepEqual([r.code, r.out], [0, 'allowed: read-only command\n']);
    }
  });

  /** Runs `body` with a cache folder of its own, and lists the code caches written in it. */
  const withFreshCache = async (
    body: (env: Record<string, string>, caches: () => string[]) => Promise<void>,
  ): Promise<void> => {
    const fresh = mkdtempSync(join(tmpdir(), 'planwise-cli-cache-fresh-'));
    const folder = join(fresh, 'planwise', `v8-${process.version}-${process.arch}`);
    try {
      await body({ XDG_CACHE_HOME: fresh, HOME: tmpdir() }, () => (existsSync(folder) ? readdirSync(folder) : []));
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  };

  it('a run that only shows help or a usage error writes no cache; the first real check does', () =>
    withFreshCache(async (env, caches) => {
      assert.equal((await run(['check-command', '--help'], env, false)).code, 0);
      assert.equal((await run(['check-command'], env, false)).code, 2);
      assert.deepEqual(caches(), []);
      // `--help` after `--` is a word of the command being checked, not a request for help.
      const checked = await run(['check-command', '--', 'ls --help'], env, false);
      assert.deepEqual([checked.code, checked.out], [0, 'allowed: read-only command\n']);
      assert.equal(caches().length, 1);
    }));

  /** A copy of the built dist/ whose gate bundle is rewritten by `edit`, and the CLI's path in it. */
  const editedCopy = (edit: (text: string) => string): string => {
    const copy = mkdtempSync(join(tmpdir(), 'planwise-cli-edited-'));
    cpSync(join(stage, 'dist'), join(copy, 'dist'), { recursive: true });
    const bundle = join(copy, 'dist/cli/check-command.js');
    writeFileSync(bundle, edit(readFileSync(bundle, 'utf8')));
    return copy;
  };
  const MARK = /\/\/planwise-bundle:[0-9a-f]{16}\n$/;
  /** The id line the build ends a bundle with: the SHA-256 of the text before it (scripts/cliBuild.mjs). */
  const stamp = (body: string) =>
    `${body}//planwise-bundle:${createHash('sha256').update(body).digest('hex').slice(0, 16)}\n`;
  const runCopy = async (copy: string, env: Record<string, string>) => {
    const r = await run(['check-command', '--', 'ls'], env, false, copy);
    return { code: r.code, out: r.out };
  };

  it('the cache is named by the id the build gave the bundle: a new build gets its own and drops the old', () =>
    withFreshCache(async (env, caches) => {
      assert.equal((await run(['check-command', '--', 'ls'], env, false)).code, 0);
      const [old] = caches();
      const copy = editedCopy((text) => stamp(`${text.replace(MARK, '')}// a later build\n`));
      try {
        const newId = /planwise-bundle:([0-9a-f]{16})\n$/.exec(
          readFileSync(join(copy, 'dist/cli/check-command.js'), 'utf8'),
        )?.[1];
        assert.ok(newId && old !== `check-command-${newId}.bin`);
        for (let i = 0; i < 2; i++)
          assert.deepEqual(await runCopy(copy, env), { code: 0, out: 'allowed: read-only command\n' });
        assert.deepEqual(caches(), [`check-command-${newId}.bin`]);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }));

  it('a bundle whose text is not what its id says, or that has no id, runs and leaves no cache', () =>
    withFreshCache(async (env, caches) => {
      const edited = editedCopy((text) => text.replace(MARK, (m) => `// edited by hand\n${m}`));
      const bare = editedCopy((text) => text.replace(MARK, ''));
      try {
        for (const copy of [edited, bare]) {
          for (let i = 0; i < 2; i++)
            assert.deepEqual(await runCopy(copy, env), { code: 0, out: 'allowed: read-only command\n' });
        }
        assert.deepEqual(caches(), []);
      } finally {
        rmSync(edited, { recursive: true, force: true });
        rmSync(bare, { recursive: true, force: true });
      }
    }));

  it('a damaged cache file, small or larger than one read, is refused by V8 and written afresh', () =>
    withFreshCache(async (env, caches) => {
      assert.equal((await run(['check-command', '--', 'ls'], env, false)).code, 0);
      const [name] = caches();
      const file = join(env['XDG_CACHE_HOME'] as string, 'planwise', `v8-${process.version}-${process.arch}`, name!);
      const good = readFileSync(file);
      for (const junk of [Buffer.from('not a code cache'), Buffer.alloc(3 << 20, 0x5a)]) {
        writeFileSync(file, junk);
        const r = await run(['check-command', '--', 'ls'], env, false);
        assert.deepEqual([r.code, r.out], [0, 'allowed: read-only command\n']);
        assert.deepEqual(caches(), [name]);
        const rewritten = readFileSync(file);
        assert.ok(Math.abs(rewritten.length - good.length) < good.length / 10, `rewritten after ${junk.length} bytes`);
        // The new cache is taken as it is: the next run does not write it again.
        assert.deepEqual((await run(['check-command', '--', 'ls'], env, false)).code, 0);
        assert.ok(readFileSync(file).equals(rewritten));
      }
    }));

  it('with the code cache, check-command loads no Node builtin but node:vm beyond what --version loads', async () => {
    // node:module would bring Node's ESM loader, node:os a module of its own: 0.3-0.4 ms each.
    writeFileSync(
      join(stage, 'builtins.cjs'),
      "const before = new Set(process.moduleLoadList); process.on('exit', () => require('fs').writeSync(2, '\\nBUILTINS ' + JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ')))));\n",
    );
    const builtins = (args: string[]) =>
      new Promise<string[]>((res) =>
        execFile(
          process.execPath,
          ['--require', join(stage, 'builtins.cjs'), join(stage, 'dist/cli.cjs'), ...args],
          { cwd: repo, env: { PATH: process.env['PATH'] ?? '', XDG_CACHE_HOME: cache, HOME: tmpdir() } },
          (_e, _out, err) => res(JSON.parse(/BUILTINS (.*)$/.exec(err)?.[1] ?? 'null') as string[]),
        ),
      );
    await builtins(['check-command', '--', 'ls']); // writes the cache
    const version = await builtins(['--version']);
    const check = await builtins(['check-command', '--', 'ls']);
    assert.deepEqual(
      check.filter((m) => !version.includes(m)),
      ['NativeModule vm'],
    );
  });
});
