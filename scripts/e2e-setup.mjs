#!/usr/bin/env node
// Installs the end-to-end test harness's real VS Code (code-server from npm) into .e2e-cache/, twice
// (the versions are pinned in test/e2e/harness/code-server.json, which the harness reads too):
//   - current:  code-server 4.106.3 = VS Code 1.106.3, which every scenario runs in; its VS Code has
//               the final Language Model provider API (`lm.registerLanguageModelChatProvider`, VS
//               Code 1.104+). It needs Node 22, installed test-only from the npm registry's
//               `node-linux-<arch>` package (the binary and its headers) into
//               .e2e-cache/node-<version>/; code-server and its native modules are built and run
//               with that Node only. Folder: .e2e-cache/code-server-lm/ (named when it was the
//               Language Model API scenario's alone).
//   - minimum:  code-server 4.100.3 = VS Code 1.100.3, the lowest VS Code `engines.vscode`
//               (^1.100.0) allows, on the Node that runs this script (Node 20); the smoke scenario
//               runs there a second time. Folder: .e2e-cache/code-server/.
//
// Test-only: code-server is never a dependency of Planwise. Each install has its own package.json,
// and this script is idempotent: a second run with the same versions is a no-op (about a second).
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
// For the current install, between 1 and 3: VS Code 1.106 pins `@parcel/watcher` to a GitHub commit
// (a git URL in lib/vscode's package.json and shrinkwrap, and in lib/vscode/extensions' dev
// dependencies), which npm cannot fetch from the registry. Both are pointed at the registry release
// of the same version (`2.5.1`), which ships prebuilt binaries as per-platform optional packages
// (`@parcel/watcher-linux-x64-glibc`), so nothing of it is compiled.
//
// The shared steps (logging, running, the ripgrep cache) are in e2e-setup-common.mjs; the current
// install's own (its Node, the registry @parcel/watcher) in e2e-setup-lm.mjs.
//
// Usage: node scripts/e2e-setup.mjs [--force] [--only=current|minimum]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fail, has, readJson, root, run, say, seedRipgrepCache } from './e2e-setup-common.mjs';
import { installNode, useRegistryWatcher } from './e2e-setup-lm.mjs';

// The pinned version is shared with the harness (test/e2e/harness/paths.ts reads the same file).
const pin = JSON.parse(readFileSync(path.join(root, 'test', 'e2e', 'harness', 'code-server.json'), 'utf8'));

/**
 * The two installs. `nodeVersion` is the test-only Node that builds and runs the current one
 * (installNode() puts it in the cache); the minimum one uses this script's own Node.
 */
const INSTALLS = {
  current: {
    name: 'current',
    version: pin.current.version,
    nodeMajor: pin.current.nodeMajor,
    nodeVersion: pin.current.node,
    dir: path.join(root, '.e2e-cache', 'code-server-lm'),
    registryWatcher: true,
  },
  minimum: {
    name: 'minimum',
    version: pin.minimum.version,
    nodeMajor: pin.minimum.nodeMajor,
    nodeVersion: undefined,
    dir: path.join(root, '.e2e-cache', 'code-server'),
    registryWatcher: false,
  },
};

/** Each missing prerequisite is reported as one sentence naming the Debian package to install. */
function checkPrerequisites(node, inst) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim().replace(/^v/, '') ?? '';
  const major = Number(version.split('.')[0]);
  if (major !== inst.nodeMajor) {
    fail(
      `code-server ${inst.version} needs Node ${inst.nodeMajor}, but ${node} is Node ${version || 'unknown'}; run the e2e setup with Node ${inst.nodeMajor}.`,
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

function isInstalled(inst, node) {
  const pkgDir = path.join(inst.dir, 'node_modules', 'code-server');
  const marker = path.join(inst.dir, 'setup-complete.json');
  if (!existsSync(marker) || !existsSync(path.join(pkgDir, 'package.json'))) return false;
  try {
    const m = readJson(marker);
    const v = readJson(path.join(pkgDir, 'package.json')).version;
    return (
      m.codeServer === inst.version &&
      v === inst.version &&
      m.nodeMajor === inst.nodeMajor &&
      (inst.nodeVersion === undefined || m.node === inst.nodeVersion) &&
      existsSync(path.join(pkgDir, 'lib', 'vscode', 'node_modules')) &&
      existsSync(node)
    );
  } catch {
    return false;
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

function install(inst, force) {
  const node =
    inst.nodeVersion === undefined ? process.execPath : path.join(installNode(inst.nodeVersion), 'bin', 'node');
  const cacheDir = inst.dir;
  const pkgDir = path.join(cacheDir, 'node_modules', 'code-server');
  const label = `code-server ${inst.version} (${inst.name}${inst.nodeVersion === undefined ? '' : `, Node ${inst.nodeVersion}`})`;
  if (!force && isInstalled(inst, node)) {
    say(`${label} already installed in ${path.relative(root, cacheDir)}; nothing to do.`);
    return;
  }
  checkPrerequisites(node, inst);
  say(`installing ${label} into ${path.relative(root, cacheDir)} (about a minute or two)`);
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  const pkgFile = path.join(cacheDir, 'package.json');
  writeFileSync(
    pkgFile,
    JSON.stringify(
      {
        name: `planwise-e2e-code-server-${inst.name}`,
        private: true,
        description:
          'Test-only install of code-server for the Planwise end-to-end suite. Written by scripts/e2e-setup.mjs.',
        dependencies: { 'code-server': inst.version },
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
  if (node !== process.execPath) {
    // npm (and every script it runs) runs on the install's Node: code-server's postinstall checks
    // the Node major in npm's user agent, and node-gyp builds against that Node's headers.
    env.PATH = `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`;
    env.npm_config_nodedir = path.resolve(path.dirname(node), '..');
    // Run from `npm test`, the outer npm (on the machine's Node) exported its own user agent and
    // Node path; npm reads npm_config_* from the environment, so the inner npm would report the
    // outer Node to code-server's postinstall ("requires node v22"). Drop them: it sets its own.
    for (const inherited of ['npm_config_user_agent', 'npm_node_execpath', 'NODE']) delete env[inherited];
  } else if (
    // node-gyp must find Node's headers locally: nothing can be downloaded here.
    !env.npm_config_nodedir &&
    !spawnSync('npm', ['config', 'get', 'nodedir'], { encoding: 'utf8' }).stdout.trim().match(/^\//)
  ) {
    const prefix = path.resolve(path.dirname(process.execPath), '..');
    if (existsSync(path.join(prefix, 'include', 'node', 'node.h'))) env.npm_config_nodedir = prefix;
  }

  say('step 1/4: fetching code-server and its dependencies without running scripts');
  run('npm', ['install', '--ignore-scripts', '--no-package-lock'], cacheDir, env);

  const vscodeDir = path.join(pkgDir, 'lib', 'vscode');
  if (inst.registryWatcher) useRegistryWatcher(vscodeDir);
  const vscodeShrinkwrap = path.join(vscodeDir, 'npm-shrinkwrap.json');
  const rgInfo = existsSync(vscodeShrinkwrap)
    ? readJson(vscodeShrinkwrap).packages?.['node_modules/@vscode/ripgrep']
    : undefined;
  if (!rgInfo?.version) fail(`could not find @vscode/ripgrep's version in ${vscodeShrinkwrap}.`);
  say(`step 2/4: seeding the download cache of @vscode/ripgrep ${rgInfo.version}`);
  seedRipgrepCache(rgInfo.version, cacheDir);

  say('step 3/4: approving the install scripts code-server needs');
  // The root install has no lockfile with registry URLs, which npm needs to verify a pinned entry, so
  // the root policy names packages only; their versions are pinned by code-server's shrinkwrap anyway.
  const top = ['code-server', ...packagesWithInstallScripts(path.join(pkgDir, 'npm-shrinkwrap.json'))].map((s) =>
    s.replace(/(.)@[^@]*$/, '$1'),
  );
  allowScripts(pkgFile, top);
  const inner = packagesWithInstallScripts(vscodeShrinkwrap);
  // The registry's @parcel/watcher (no longer in the shrinkwrap) runs its install script, which
  // finds the prebuilt per-platform package and builds nothing.
  if (inst.registryWatcher)
    inner.push(`@parcel/watcher@${readJson(path.join(vscodeDir, 'package.json')).dependencies['@parcel/watcher']}`);
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
    path.join(cacheDir, 'setup-complete.json'),
    JSON.stringify(
      {
        codeServer: inst.version,
        nodeMajor: inst.nodeMajor,
        ...(inst.nodeVersion !== undefined ? { node: inst.nodeVersion } : {}),
        installedAt: new Date().toISOString(),
      },
      null,
      2,
    ) + '\n',
  );
  say(`done: ${label} is ready in ${path.relative(root, cacheDir)}.`);
}

function main() {
  const force = process.argv.includes('--force');
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  if (only !== undefined && !(only in INSTALLS))
    fail(`--only takes ${Object.keys(INSTALLS).join(' or ')}; got "${only}".`);
  for (const inst of Object.values(INSTALLS)) {
    if (only === undefined || only === inst.name) install(inst, force);
  }
}

main();
