/**
 * scripts/test-setup.mjs, the first step of `npm test`, run as a child process on a scratch PATH:
 * a folder of symlinks to every program of the real PATH, less the ones a test takes away. Root
 * and Debian are told to the script through PLANWISE_SETUP_ROOT and PLANWISE_SETUP_DEBIAN, and
 * apt-get is a stub on the scratch PATH that records its arguments and, when asked, "installs" a
 * program by linking the real one into the scratch folder. Nothing here runs the real apt-get.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  copyFileSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const repo = resolve(__dirname, '../..');
const script = join(repo, 'scripts', 'test-setup.mjs');

/** The programs the suites run, by every name the script may find them under, with their Debian package. */
const USED_BY_THE_TESTS: readonly { names: readonly string[]; pkg: string }[] = [
  { names: ['rg'], pkg: 'ripgrep' },
  { names: ['chromium'], pkg: 'chromium' },
  { names: ['git'], pkg: 'git' },
  { names: ['bash'], pkg: 'bash' },
  { names: ['dash'], pkg: 'dash' },
  { names: ['sed'], pkg: 'sed' },
  { names: ['fdfind', 'fd'], pkg: 'fd-find' },
  { names: ['tree'], pkg: 'tree' },
  { names: ['jq'], pkg: 'jq' },
  { names: ['file'], pkg: 'file' },
  { names: ['batcat', 'bat'], pkg: 'bat' },
  { names: ['pkg-config'], pkg: 'pkg-config' },
  { names: ['g++'], pkg: 'build-essential' },
  { names: ['make'], pkg: 'build-essential' },
  { names: ['python3'], pkg: 'python3' },
];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** name -> the file the real PATH runs for it (the first folder that has it wins, as in the shell). */
function realPrograms(): Map<string, string> {
  const found = new Map<string, string>();
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '' || !existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (!found.has(name) && executable(join(dir, name))) found.set(name, join(dir, name));
    }
  }
  return found;
}

interface Scratch {
  readonly dir: string;
  readonly bin: string;
  readonly aptLog: string;
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The stub apt-get: appends its argv (one JSON array a line) to APT_STUB_LOG. With APT_STUB_STALE=1
 * `install` fails as apt does with empty package lists until `update` has run. `install` links each
 * program APT_STUB_PROVIDES names for a requested package ({"pkg": [["name", "/real/file"]]}) into
 * APT_STUB_BIN.
 */
const STUB = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
const env = process.env;
fs.appendFileSync(env.APT_STUB_LOG, JSON.stringify(args) + '\\n');
const updated = env.APT_STUB_LOG + '.updated';
if (args[0] === 'update') { fs.writeFileSync(updated, ''); process.exit(0); }
if (args[0] !== 'install') process.exit(100);
if (env.APT_STUB_STALE === '1' && !fs.existsSync(updated)) {
  console.error('E: Unable to locate package ' + args[args.length - 1]);
  process.exit(100);
}
const provides = JSON.parse(env.APT_STUB_PROVIDES || '{}');
for (const pkg of args.filter((a) => !a.startsWith('-')).slice(1)) {
  for (const [name, target] of provides[pkg] || []) fs.symlinkSync(target, path.join(env.APT_STUB_BIN, name));
}
`;

describe('npm test set-up (scripts/test-setup.mjs)', function () {
  this.timeout(60_000);
  const real = realPrograms();
  const scratches: string[] = [];

  /** A scratch PATH: links to every real program except `without`, and the stub apt-get. */
  function scratch(without: readonly string[]): Scratch {
    const dir = mkdtempSync(join(tmpdir(), 'planwise-test-setup-'));
    scratches.push(dir);
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const [name, file] of real) {
      if (without.includes(name) || name === 'apt-get') continue;
      symlinkSync(file, join(bin, name));
    }
    writeFileSync(join(bin, 'apt-get'), STUB, { mode: 0o755 });
    return { dir, bin, aptLog: join(dir, 'apt.log') };
  }

  function runSetup(s: Scratch, env: Record<string, string>): Run {
    const r = spawnSync(process.execPath, [script], {
      cwd: repo,
      encoding: 'utf8',
      env: { HOME: s.dir, PATH: s.bin, APT_STUB_LOG: s.aptLog, APT_STUB_BIN: s.bin, ...env },
      timeout: 30_000,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  function aptCalls(s: Scratch): string[][] {
    if (!existsSync(s.aptLog)) return [];
    return readFileSync(s.aptLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string[]);
  }

  const root = { PLANWISE_SETUP_ROOT: '1', PLANWISE_SETUP_DEBIAN: '1' };
  const user = { PLANWISE_SETUP_ROOT: '0', PLANWISE_SETUP_DEBIAN: '1' };

  before(function () {
    const absent = USED_BY_THE_TESTS.filter((p) => !p.names.some((n) => real.has(n))).map((p) => p.names[0]);
    assert.deepEqual(absent, [], 'this machine lacks programs the suites use; run scripts/test-setup.mjs');
  });

  after(() => {
    for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
  });

  it('passes with one line and calls no apt-get when every program is present', () => {
    const s = scratch([]);
    for (const env of [root, user]) {
      const r = runSetup(s, env);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.equal(r.stdout.trim().split('\n').length, 1, r.stdout);
      assert.match(r.stdout, /present/);
    }
    assert.deepEqual(aptCalls(s), []);
  });

  for (const program of USED_BY_THE_TESTS) {
    it(`without ${program.names.join(' or ')} on PATH, a non-root run stops with one message naming it and the command that installs it`, () => {
      const s = scratch(program.names);
      const r = runSetup(s, user);
      assert.equal(r.status, 1);
      assert.equal(r.stdout, '');
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 3, r.stderr);
      assert.match(lines[0]!, new RegExp(`missing: ${escape(program.names[0]!)} \\(${escape(program.pkg)}, for `));
      assert.equal(lines[1], 'Install them with:');
      assert.equal(lines[2], `  sudo apt-get update && sudo apt-get install -y ${program.pkg}`);
      assert.deepEqual(aptCalls(s), [], 'apt-get ran without root');
    });
  }

  it('npm test runs it first: without tree, npm test stops with its message before building anything', () => {
    const s = scratch(['tree']);
    // The manifest and the script alone: were the set-up to pass, `npm run build` would fail here
    // at once instead of building and testing this checkout.
    const project = join(s.dir, 'project');
    mkdirSync(join(project, 'scripts'), { recursive: true });
    copyFileSync(join(repo, 'package.json'), join(project, 'package.json'));
    copyFileSync(script, join(project, 'scripts', 'test-setup.mjs'));
    const r = spawnSync('npm', ['test'], {
      cwd: project,
      encoding: 'utf8',
      env: { HOME: s.dir, PATH: s.bin, ...user, npm_config_update_notifier: 'false' },
      timeout: 60_000,
    });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /\[test:setup\] npm test needs system programs that are missing: tree \(tree, /);
    assert.match(r.stderr, /\n {2}sudo apt-get update && sudo apt-get install -y tree\n/);
    assert.doesNotMatch(`${r.stdout}${r.stderr}`, /esbuild|> planwise@[\d.]+ build/);
  });

  it('lists every missing program in the one message, each package once', () => {
    const s = scratch(['tree', 'jq', 'make', 'g++']);
    const r = runSetup(s, user);
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      /missing: tree \(tree, .*\), jq \(jq, .*\), make \(build-essential, .*\), g\+\+ \(build-essential, /,
    );
    assert.match(r.stderr, /\n {2}sudo apt-get update && sudo apt-get install -y tree jq build-essential\n$/);
  });

  it('finds fd and bat under their upstream names too', () => {
    const s = scratch(['fdfind', 'batcat']);
    symlinkSync(real.get('fdfind')!, join(s.bin, 'fd'));
    symlinkSync(real.get('batcat')!, join(s.bin, 'bat'));
    const r = runSetup(s, user);
    assert.equal(r.status, 0, r.stderr);
  });

  it('away from Debian, names the Debian packages and runs no apt-get, even as root', () => {
    const s = scratch(['jq']);
    const r = runSetup(s, { PLANWISE_SETUP_ROOT: '1', PLANWISE_SETUP_DEBIAN: '0' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /missing: jq \(jq, /);
    assert.match(r.stderr, /package manager \(their Debian packages: jq\)/);
    assert.deepEqual(aptCalls(s), []);
  });

  it('as root on Debian, installs the missing packages with one apt-get install, says so in one line, and then finds them', () => {
    const s = scratch(['tree', 'rg']);
    const provides = { tree: [['tree', real.get('tree')!]], ripgrep: [['rg', real.get('rg')!]] };
    const r = runSetup(s, { ...root, APT_STUB_PROVIDES: JSON.stringify(provides) });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(aptCalls(s), [['install', '-y', '-qq', 'ripgrep', 'tree']]);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines[0], '[test:setup] installing ripgrep tree with apt-get (missing: rg, tree)');
    assert.match(lines[1]!, /installed; the \d+ system programs and libraries the tests use are present/);
    assert.ok(existsSync(join(s.bin, 'tree')) && existsSync(join(s.bin, 'rg')));
    // A second run finds everything and leaves apt-get alone.
    const again = runSetup(s, root);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(aptCalls(s).length, 1);
  });

  it('as root on Debian, refreshes the package lists only when the install cannot find a package', () => {
    const s = scratch(['jq']);
    const r = runSetup(s, {
      ...root,
      APT_STUB_STALE: '1',
      APT_STUB_PROVIDES: JSON.stringify({ jq: [['jq', real.get('jq')!]] }),
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(aptCalls(s), [
      ['install', '-y', '-qq', 'jq'],
      ['update', '-qq'],
      ['install', '-y', '-qq', 'jq'],
    ]);
  });

  it('as root on Debian, stops naming the program when apt-get succeeded but it is still missing', () => {
    const s = scratch(['file']);
    const r = runSetup(s, root);
    assert.equal(r.status, 1);
    assert.deepEqual(aptCalls(s), [['install', '-y', '-qq', 'file']]);
    assert.match(r.stderr, /missing: file \(file, .*\)\. apt-get ran, and they are still not on PATH\./);
  });

  it("as root on Debian, stops with apt-get's own words when it fails", () => {
    const s = scratch(['dash']);
    // No package lists, and `update` is not enough: the stub finds no package that provides dash.
    writeFileSync(join(s.bin, 'apt-get'), STUB.replace("if (args[0] === 'update') {", 'if (false) {'), {
      mode: 0o755,
    });
    const r = runSetup(s, { ...root, APT_STUB_STALE: '1' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /`apt-get install -y -qq dash` failed \(exit 100\):\nE: Unable to locate package dash/);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
