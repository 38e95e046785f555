// Shared steps of scripts/e2e-setup.mjs: logging, failing with one sentence, running a command,
// and seeding @vscode/ripgrep's download cache with the system rg (nothing is downloaded from GitHub).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

export function say(msg) {
  const s = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  console.log(`[e2e:setup ${s}s] ${msg}`);
}

export function fail(sentence) {
  console.error(`[e2e:setup] ERROR: ${sentence}`);
  process.exit(1);
}

export function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

export function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

export function run(cmd, args, cwd, env) {
  say(`$ ${cmd} ${args.join(' ')}   (in ${path.relative(root, cwd) || '.'})`);
  const r = spawnSync(cmd, args, { cwd, env, stdio: 'inherit' });
  if (r.status !== 0) {
    fail(`\`${cmd} ${args.join(' ')}\` failed with exit code ${r.status ?? r.signal}; see its output above.`);
  }
}

function ripgrepTarget() {
  const arch = process.env.npm_config_arch || os.arch();
  if (arch === 'x64') return 'x86_64-unknown-linux-musl';
  if (arch === 'arm64') return 'aarch64-unknown-linux-musl';
  fail(`the e2e harness supports x64 and arm64 Linux only (this is ${arch}).`);
}

/**
 * The ripgrep release tag an @vscode/ripgrep version downloads (`const VERSION = 'v13.0.0-13'` in its
 * lib/postinstall.js; v13.0.0-10 for 1.15.11, v13.0.0-13 for 1.15.14), read from its registry tarball.
 */
function ripgrepTag(version, cacheDir) {
  const work = path.join(cacheDir, 'rg-tag');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const packed = spawnSync('npm', ['pack', `@vscode/ripgrep@${version}`, '--silent'], { cwd: work, encoding: 'utf8' });
  const tgz = packed.stdout?.trim().split('\n').at(-1);
  if (packed.status !== 0 || !tgz) fail(`\`npm pack @vscode/ripgrep@${version}\` failed: ${packed.stderr}`);
  const script = spawnSync('tar', ['xzf', tgz, '-O', 'package/lib/postinstall.js'], { cwd: work, encoding: 'utf8' });
  rmSync(work, { recursive: true, force: true });
  const tag = /const VERSION = '(v[^']+)'/.exec(script.stdout ?? '')?.[1];
  if (!tag) fail(`could not read the ripgrep release tag from @vscode/ripgrep@${version}'s lib/postinstall.js.`);
  return tag;
}

/**
 * @vscode/ripgrep's postinstall looks for `ripgrep-<tag>-<target>.tar.gz` in
 * `<os.tmpdir()>/vscode-ripgrep-cache-<its version>/` before downloading, and untars it into its bin/.
 */
export function seedRipgrepCache(version, cacheDir) {
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  const dir = path.join(os.tmpdir(), `vscode-ripgrep-cache-${version}`);
  const asset = `ripgrep-${ripgrepTag(version, cacheDir)}-${ripgrepTarget()}.tar.gz`;
  mkdirSync(dir, { recursive: true });
  const staging = path.join(cacheDir, 'rg-staging');
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  copyFileSync(rg, path.join(staging, 'rg'));
  chmodSync(path.join(staging, 'rg'), 0o755);
  const r = spawnSync('tar', ['czf', path.join(dir, asset), '-C', staging, 'rg'], { stdio: 'inherit' });
  rmSync(staging, { recursive: true, force: true });
  if (r.status !== 0) fail(`could not write the ripgrep cache tarball ${path.join(dir, asset)}.`);
  say(`seeded ${path.join(dir, asset)} with ${rg}`);
}
