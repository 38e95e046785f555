#!/usr/bin/env node
// The first step of `npm test`: checks that every system program and library the tests use is
// here, before any suite runs. On Debian (or Ubuntu) as root it installs the missing ones with
// apt-get, saying so in one line; anywhere else it stops at once with one message that lists what
// is missing and the command that installs it. When everything is present it reads PATH and one
// header file and spawns nothing.
//
// The tests of this script decide what it believes about the machine:
//   PLANWISE_SETUP_ROOT=1|0    run as root or not (default: the process's user id is 0)
//   PLANWISE_SETUP_DEBIAN=1|0  Debian or not (default: /etc/debian_version exists)
//
// Usage: node scripts/test-setup.mjs
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the tests need, each with the Debian package that provides it. A program is found under any
 * of its names (Debian installs fd as `fdfind` and bat as `batcat`).
 */
const REQUIREMENTS = [
  { programs: ['rg'], pkg: 'ripgrep', usedBy: 'the search tool and the gate' },
  { programs: ['chromium'], pkg: 'chromium', usedBy: 'the panel tests and the end-to-end suite' },
  { programs: ['git'], pkg: 'git', usedBy: 'the gate and the tools' },
  { programs: ['bash'], pkg: 'bash', usedBy: 'the gate' },
  { programs: ['dash'], pkg: 'dash', usedBy: 'the gate' },
  { programs: ['sed'], pkg: 'sed', usedBy: 'the gate' },
  { programs: ['grep'], pkg: 'grep', usedBy: 'the gate' },
  { programs: ['find'], pkg: 'findutils', usedBy: 'the gate' },
  { programs: ['diff'], pkg: 'diffutils', usedBy: 'the gate' },
  { programs: ['fdfind', 'fd'], pkg: 'fd-find', usedBy: 'the gate' },
  { programs: ['tree'], pkg: 'tree', usedBy: 'the gate' },
  { programs: ['jq'], pkg: 'jq', usedBy: 'the gate' },
  { programs: ['file'], pkg: 'file', usedBy: 'the gate' },
  { programs: ['batcat', 'bat'], pkg: 'bat', usedBy: 'the gate' },
  { programs: ['tar'], pkg: 'tar', usedBy: 'the end-to-end setup' },
  { programs: ['pkg-config'], pkg: 'pkg-config', usedBy: "code-server's native modules" },
  { library: 'krb5-gssapi', header: 'gssapi/gssapi.h', pkg: 'libkrb5-dev', usedBy: "code-server's native modules" },
  { programs: ['make'], pkg: 'build-essential', usedBy: "code-server's native modules" },
  { programs: ['g++'], pkg: 'build-essential', usedBy: "code-server's native modules" },
  { programs: ['python3'], pkg: 'python3', usedBy: "code-server's native modules" },
];

const INCLUDE_DIRS = ['/usr/include', '/usr/local/include'];
const TAG = '[test:setup]';

function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first `name` on PATH, as the shell would run it; undefined when there is none. */
function onPath(name, pathVar = process.env.PATH ?? '') {
  for (const dir of pathVar.split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}

function hasLibrary(req) {
  if (INCLUDE_DIRS.some((dir) => existsSync(path.join(dir, req.header)))) return true;
  if (!onPath('pkg-config')) return false;
  return spawnSync('pkg-config', ['--exists', req.library], { stdio: 'ignore' }).status === 0;
}

/** What a requirement is called in messages: its program (or library) name. */
function label(req) {
  return req.programs ? req.programs[0] : `${req.library} headers`;
}

function missingRequirements() {
  return REQUIREMENTS.filter((req) => (req.programs ? !req.programs.some((p) => onPath(p)) : !hasLibrary(req)));
}

function flag(name, fallback) {
  const v = process.env[name];
  if (v === '1') return true;
  if (v === '0') return false;
  return fallback();
}

const isRoot = () => flag('PLANWISE_SETUP_ROOT', () => process.getuid?.() === 0);
const isDebian = () => flag('PLANWISE_SETUP_DEBIAN', () => existsSync('/etc/debian_version'));

const packagesOf = (missing) => [...new Set(missing.map((r) => r.pkg))];
const listed = (missing) => missing.map((r) => `${label(r)} (${r.pkg}, for ${r.usedBy})`).join(', ');

function stop(missing, extra = '') {
  const pkgs = packagesOf(missing).join(' ');
  const how = isDebian()
    ? `Install them with:\n  sudo apt-get update && sudo apt-get install -y ${pkgs}`
    : `Install them with your system's package manager (their Debian packages: ${pkgs}).`;
  console.error(`${TAG} npm test needs system programs that are missing: ${listed(missing)}.${extra}\n${how}`);
  process.exit(1);
}

function apt(args) {
  return spawnSync('apt-get', args, {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Installs `missing` with apt-get; refreshes the package lists first only when the install cannot find a package. */
function install(missing) {
  const pkgs = packagesOf(missing);
  if (!onPath('apt-get')) stop(missing, ' apt-get is not on PATH.');
  console.log(`${TAG} installing ${pkgs.join(' ')} with apt-get (missing: ${missing.map(label).join(', ')})`);
  const args = ['install', '-y', '-qq', ...pkgs];
  let r = apt(args);
  if (r.status !== 0) {
    const update = apt(['update', '-qq']);
    if (update.status === 0) r = apt(args);
  }
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    stop(missing, ` \`apt-get ${args.join(' ')}\` failed (exit ${r.status ?? r.signal}):\n${out}`);
  }
}

function main() {
  const missing = missingRequirements();
  if (missing.length === 0) {
    console.log(`${TAG} the ${REQUIREMENTS.length} system programs and libraries the tests use are present.`);
    return;
  }
  if (!isRoot() || !isDebian()) stop(missing);
  install(missing);
  const still = missingRequirements();
  if (still.length > 0) stop(still, ' apt-get ran, and they are still not on PATH.');
  console.log(`${TAG} installed; the ${REQUIREMENTS.length} system programs and libraries the tests use are present.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
