#!/usr/bin/env node
// Installs the end-to-end test harness's real VS Code (code-server from npm) into .e2e-cache/.
//
// Test-only: code-server is never a dependency of Planwise. It lives in .e2e-cache/code-server/ with
// its own package.json, and this script is idempotent: a second run with the same version is a no-op.
//
// Why the steps below exist (code-server's postinstall runs `npm install` inside lib/vscode, whose
// native modules build with node-gyp and whose @vscode/ripgrep downloads a binary from GitHub):
//   1. check the system packages the native builds need (pkg-config, libkrb5-dev, a C++ toolchain);
//   2. `npm install --ignore-scripts` code-server (fast: only fetches registry tarballs);
//   3. seed @vscode/ripgrep's download cache with the system `rg`, for the exact @vscode/ripgrep
//      version pinned in code-server's lib/vscode/npm-shrinkwrap.json, so no download is attempted;
//   4. approve the install scripts that must run (recent npm 11 releases warn about, or skip,
//      dependency install scripts that no `allowScripts` entry approves), taken from the shrinkwraps;
//   5. `npm rebuild`, which runs code-server's postinstall (and with it the nested installs);
//   6. check the result and write a marker so the next run skips all of this.
//
// Usage: node scripts/e2e-setup.mjs [--force]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The pinned version is shared with the harness (test/e2e/harness/paths.ts reads the same file).
const pin = JSON.parse(readFileSync(path.join(root, 'test', 'e2e', 'harness', 'code-server.json'), 'utf8'));
const CODE_SERVER_VERSION = pin.version;
const REQUIRED_NODE_MAJOR = pin.nodeMajor;
const cacheDir = path.join(root, '.e2e-cache', 'code-server');
const pkgDir = path.join(cacheDir, 'node_modules', 'code-server');
const marker = path.join(cacheDir, 'setup-complete.json');
const started = Date.now();

function say(msg) {
  const s = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  console.log(`[e2e:setup ${s}s] ${msg}`);
}

function fail(sentence) {
  console.error(`[e2e:setup] ERROR: ${sentence}`);
  process.exit(1);
}

function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Each missing prerequisite is reported as one sentence naming the Debian package to install. */
function checkPrerequisites() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== REQUIRED_NODE_MAJOR) {
    fail(
      `code-server ${CODE_SERVER_VERSION} needs Node ${REQUIRED_NODE_MAJOR}, but this is Node ${process.versions.node}; run the e2e setup with Node ${REQUIRED_NODE_MAJOR}.`,
    );
  }
  if (os.platform() !== 'linux') fail(`the e2e harness supports Linux only (this is ${os.platform()}).`);
  if (!has('pkg-config')) {
    fail(
      'Debian package pkg-config is missing (code-server builds native modules with it): apt-get install pkg-config',
    );
  }
  const krb = spawnSync('pkg-config', ['--exists', 'krb5-gssapi'], { stdio: 'ignore' });
  if (krb.status !== 0 && !existsSync('/usr/include/gssapi/gssapi.h')) {
    fail(
      'Debian package libkrb5-dev is missing (code-server builds its kerberos module with it): apt-get install libkrb5-dev',
    );
  }
  if (!has('rg'))
    fail('Debian package ripgrep is missing (its rg replaces the one VS Code would download): apt-get install ripgrep');
  for (const [cmd, pkg] of [
    ['make', 'build-essential'],
    ['g++', 'build-essential'],
    ['python3', 'python3'],
    ['tar', 'tar'],
  ]) {
    if (!has(cmd))
      fail(`Debian package ${pkg} is missing (${cmd} is needed to build native modules): apt-get install ${pkg}`);
  }
}

function isInstalled() {
  if (!existsSync(marker) || !existsSync(path.join(pkgDir, 'package.json'))) return false;
  try {
    const m = readJson(marker);
    const v = readJson(path.join(pkgDir, 'package.json')).version;
    return (
      m.codeServer === CODE_SERVER_VERSION &&
      v === CODE_SERVER_VERSION &&
      m.nodeMajor === REQUIRED_NODE_MAJOR &&
      existsSync(path.join(pkgDir, 'lib', 'vscode', 'node_modules'))
    );
  } catch {
    return false;
  }
}

function run(cmd, args, cwd, env) {
  say(`$ ${cmd} ${args.join(' ')}   (in ${path.relative(root, cwd) || '.'})`);
  const r = spawnSync(cmd, args, { cwd, env, stdio: 'inherit' });
  if (r.status !== 0) {
    fail(`\`${cmd} ${args.join(' ')}\` failed with exit code ${r.status ?? r.signal}; see its output above.`);
  }
}

/** name@version of every package in a shrinkwrap that declares an install script. */
function packagesWithInstallScripts(shrinkwrapFile) {
  if (!existsSync(shrinkwrapFile)) return [];
  const out = [];
  for (const [key, info] of Object.entries(readJson(shrinkwrapFile).packages ?? {})) {
    if (!key || !info.hasInstallScript || info.dev) continue;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    out.push(`${name}@${info.version}`);
  }
  return out;
}

/** Adds an `allowScripts` policy to a package.json we installed, so npm 11 runs exactly those scripts. */
function allowScripts(packageJsonFile, specs) {
  const pkg = readJson(packageJsonFile);
  pkg.allowScripts = { ...(pkg.allowScripts ?? {}) };
  for (const spec of specs) pkg.allowScripts[spec] = true;
  writeFileSync(packageJsonFile, JSON.stringify(pkg, null, 2) + '\n');
}

function ripgrepTarget() {
  const arch = process.env.npm_config_arch || os.arch();
  if (arch === 'x64') return 'x86_64-unknown-linux-musl';
  if (arch === 'arm64') return 'aarch64-unknown-linux-musl';
  fail(`the e2e harness supports x64 and arm64 Linux only (this is ${arch}).`);
}

/**
 * @vscode/ripgrep's postinstall looks for `ripgrep-<tag>-<target>.tar.gz` in
 * `<os.tmpdir()>/vscode-ripgrep-cache-<its version>/` before downloading, and untars it into its bin/.
 * The release tag is fixed per @vscode/ripgrep version (v13.0.0-10 for the 1.15 line).
 */
function seedRipgrepCache(version) {
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  const dir = path.join(os.tmpdir(), `vscode-ripgrep-cache-${version}`);
  const asset = `ripgrep-v13.0.0-10-${ripgrepTarget()}.tar.gz`;
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

function main() {
  const force = process.argv.includes('--force');
  if (!force && isInstalled()) {
    say(`code-server ${CODE_SERVER_VERSION} already installed in ${path.relative(root, cacheDir)}; nothing to do.`);
    return;
  }
  checkPrerequisites();
  say(`installing code-server ${CODE_SERVER_VERSION} into ${path.relative(root, cacheDir)} (about a minute or two)`);
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  const pkgFile = path.join(cacheDir, 'package.json');
  writeFileSync(
    pkgFile,
    JSON.stringify(
      {
        name: 'planwise-e2e-code-server',
        private: true,
        description:
          'Test-only install of code-server for the Planwise end-to-end suite. Written by scripts/e2e-setup.mjs.',
        dependencies: { 'code-server': CODE_SERVER_VERSION },
      },
      null,
      2,
    ) + '\n',
  );

  const env = {
    ...process.env,
    npm_config_unsafe_perm: 'true',
    npm_config_yes: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_foreground_scripts: 'true',
    // node-gyp compiles with every core (the native modules dominate the install time).
    JOBS: process.env.JOBS ?? 'max',
  };
  // node-gyp must find Node's headers locally: nothing can be downloaded here.
  if (
    !env.npm_config_nodedir &&
    !spawnSync('npm', ['config', 'get', 'nodedir'], { encoding: 'utf8' }).stdout.trim().match(/^\//)
  ) {
    const prefix = path.resolve(path.dirname(process.execPath), '..');
    if (existsSync(path.join(prefix, 'include', 'node', 'node.h'))) env.npm_config_nodedir = prefix;
  }

  say('step 1/4: fetching code-server and its dependencies without running scripts');
  run('npm', ['install', '--ignore-scripts', '--no-package-lock'], cacheDir, env);

  const vscodeDir = path.join(pkgDir, 'lib', 'vscode');
  const vscodeShrinkwrap = path.join(vscodeDir, 'npm-shrinkwrap.json');
  const rgInfo = existsSync(vscodeShrinkwrap)
    ? readJson(vscodeShrinkwrap).packages?.['node_modules/@vscode/ripgrep']
    : undefined;
  if (!rgInfo?.version) fail(`could not find @vscode/ripgrep's version in ${vscodeShrinkwrap}.`);
  say(`step 2/4: seeding the download cache of @vscode/ripgrep ${rgInfo.version}`);
  seedRipgrepCache(rgInfo.version);

  say('step 3/4: approving the install scripts code-server needs');
  // The root install has no lockfile with registry URLs, which npm needs to verify a pinned entry, so
  // the root policy names packages only; their versions are pinned by code-server's shrinkwrap anyway.
  const top = ['code-server', ...packagesWithInstallScripts(path.join(pkgDir, 'npm-shrinkwrap.json'))].map((s) =>
    s.replace(/(.)@[^@]*$/, '$1'),
  );
  allowScripts(pkgFile, top);
  const inner = packagesWithInstallScripts(vscodeShrinkwrap);
  allowScripts(path.join(vscodeDir, 'package.json'), inner);
  const extDir = path.join(vscodeDir, 'extensions');
  const innerExt = packagesWithInstallScripts(path.join(extDir, 'npm-shrinkwrap.json'));
  if (innerExt.length) allowScripts(path.join(extDir, 'package.json'), innerExt);
  say(`  allowed: ${[...top, ...inner, ...innerExt].join(', ')}`);

  say("step 4/4: running code-server's postinstall (builds VS Code's native modules)");
  run('npm', ['rebuild', '--foreground-scripts'], cacheDir, env);

  const rgBin = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
  for (const must of [path.join(pkgDir, 'out', 'node', 'entry.js'), path.join(vscodeDir, 'node_modules'), rgBin]) {
    if (!existsSync(must))
      fail(`the install finished but ${must} is missing; rerun with --force and read the output above.`);
  }
  writeFileSync(
    marker,
    JSON.stringify(
      { codeServer: CODE_SERVER_VERSION, nodeMajor: REQUIRED_NODE_MAJOR, installedAt: new Date().toISOString() },
      null,
      2,
    ) + '\n',
  );
  say(`done: code-server ${CODE_SERVER_VERSION} is ready in ${path.relative(root, cacheDir)}.`);
}

main();
