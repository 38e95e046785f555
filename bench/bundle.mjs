// Figure: minified bundle sizes (extension host, CLI, webview) and the VSIX size.
//
// Method: the project's own production build (`node esbuild.mjs --production`) and packaging
// (`vsce package --no-dependencies`, what `npm run package` runs) are run in a temporary staging
// folder holding the tracked sources, so the shared checkout's dist/ and planwise.vsix are left
// alone. Sizes are bytes on disk; gzip sizes use node:zlib at its default level.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { figureMain, log, measured, notMeasured, oneLine } from './lib/figure.mjs';
import { repoRoot } from './lib/load.mjs';
import { formatBytes } from './lib/stats.mjs';

export const EXTENSION_GOAL_BYTES = 400 * 1024;

const OUTPUTS = [
  { key: 'extension', file: 'dist/extension.js' },
  { key: 'cli', file: 'dist/cli.js' },
  { key: 'webview', file: 'media/webview.js' },
  { key: 'webviewCss', file: 'media/webview.css', optional: true },
];

function run(cmd, args, cwd, timeoutMs) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
  const output = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim();
  return { ok: r.status === 0, status: r.status ?? r.signal ?? r.error?.message, output };
}

function lastLines(text, n = 3) {
  return oneLine(
    text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(-n)
      .join(' | '),
  );
}

/** Tracked files of `folder` (so generated or untracked files never leak into the measurement). */
function trackedFiles(folder) {
  const r = run('git', ['ls-files', '-z', '--', folder], repoRoot, 30_000);
  if (!r.ok) return [];
  return r.output.split('\0').filter((f) => f !== '' && existsSync(path.join(repoRoot, f)));
}

/** A staging folder that looks like a clean checkout: copies of the packaging inputs, links to the sources. */
function stage() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'planwise-bench-bundle-'));
  for (const link of ['src', 'webview', 'node_modules', 'tsconfig.json']) {
    if (existsSync(path.join(repoRoot, link))) symlinkSync(path.join(repoRoot, link), path.join(dir, link));
  }
  const copies = ['package.json', 'esbuild.mjs', 'README.md', 'LICENSE', 'CHANGELOG.md', '.vscodeignore'];
  for (const file of [...copies, ...trackedFiles('media')]) {
    const from = path.join(repoRoot, file);
    if (!existsSync(from)) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(from, path.join(dir, file));
  }
  return dir;
}

async function bundle() {
  const dir = stage();
  try {
    log('bundle: node esbuild.mjs --production (in a staging folder)');
    const build = run(process.execPath, ['esbuild.mjs', '--production'], dir, 180_000);
    if (!build.ok) return notMeasured(`the production build failed (exit ${build.status}): ${lastLines(build.output)}`);

    const sizes = {};
    for (const out of OUTPUTS) {
      const file = path.join(dir, out.file);
      if (!existsSync(file)) {
        if (out.optional) continue;
        return notMeasured(`the production build did not write ${out.file}`);
      }
      const bytes = readFileSync(file);
      sizes[out.key] = { file: out.file, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
    }

    // vsce must not walk the dependency tree: packaging runs with --no-dependencies anyway.
    rmSync(path.join(dir, 'node_modules'), { force: true });
    log('bundle: vsce package --no-dependencies');
    const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
    const vsixFile = path.join(dir, 'planwise.vsix');
    const pack = existsSync(vsce)
      ? run(process.execPath, [vsce, 'package', '--no-dependencies', '-o', vsixFile], dir, 180_000)
      : { ok: false, status: 'missing', output: 'node_modules/@vscode/vsce is not installed' };
    const vsix =
      pack.ok && existsSync(vsixFile)
        ? { bytes: statSync(vsixFile).size }
        : { bytes: null, reason: `vsce package failed (exit ${pack.status}): ${lastLines(pack.output)}` };

    const ext = sizes.extension;
    const met = ext.bytes <= EXTENSION_GOAL_BYTES;
    const parts = [
      `extension ${formatBytes(ext.bytes)} (gzip ${formatBytes(ext.gzipBytes)})`,
      `cli ${formatBytes(sizes.cli.bytes)} (gzip ${formatBytes(sizes.cli.gzipBytes)})`,
      `webview ${formatBytes(sizes.webview.bytes)} (gzip ${formatBytes(sizes.webview.gzipBytes)})`,
      vsix.bytes !== null ? `VSIX ${formatBytes(vsix.bytes)}` : `VSIX not measured: ${vsix.reason}`,
    ];
    return measured(parts.join('; '), met, { sizes, vsix, goalBytes: EXTENSION_GOAL_BYTES });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await figureMain({ bundle });
