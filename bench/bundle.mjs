// Figure: minified bundle sizes (extension host, CLI, webview) and the VSIX size.
//
// Method: the project's own production build (`node esbuild.mjs --production`) and packaging
// (`vsce package --no-dependencies`, what `npm run package` runs) are run in a temporary staging
// folder holding the tracked sources, so the shared checkout's dist/ and planwise.vsix are left
// alone. Sizes are bytes on disk; gzip sizes use node:zlib at its default level.
import { spawnSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { figureMain, log, measured, notMeasured, oneLine } from './lib/figure.mjs';
import { repoRoot } from './lib/load.mjs';
import { productionBuild, stageCheckout } from './lib/stage.mjs';
import { formatBytes } from './lib/stats.mjs';

// Issue 18: the activation bundle stays ≤ 40 KB (issue 9 had set 400 KB for the whole extension bundle).
export const EXTENSION_GOAL_BYTES = 40 * 1024;

const OUTPUTS = [
  { key: 'extension', file: 'dist/extension.js' },
  // Settings, key store, log, trust, the commands that need no host and the lenses: required just after activation.
  { key: 'essentials', file: 'dist/essentials.js', optional: true },
  // The host's composition (panel, view model, protocol, commands), required on first use rather than at activation.
  { key: 'host', file: 'dist/host.js', optional: true },
  // The panel's view provider, hub and page, required by extension.js when the view first resolves.
  { key: 'panel', file: 'dist/panel.js', optional: true },
  // The engine (session, runloop, tools, gate, plan validator), required by host.js on first use.
  { key: 'engine', file: 'dist/engine.js', optional: true },
  // The OpenAI client and SDK, required by host.js with the first session that needs them.
  { key: 'openai', file: 'dist/openai.js', optional: true },
  // The CLI's dispatcher, and the bundles of its two most used commands (each loaded by its command).
  { key: 'cli', file: 'dist/cli.cjs' },
  { key: 'cliCheckCommand', file: 'dist/cli/check-command.js', optional: true },
  { key: 'cliSession', file: 'dist/cli/session.js', optional: true },
  // The panel: its entry (what the first paint needs) and the three chunks it loads after that paint.
  { key: 'webview', file: 'media/panel/main.js' },
  { key: 'webviewToolkit', file: 'media/panel/toolkit.js', optional: true },
  { key: 'webviewCheck', file: 'media/panel/check.js', optional: true },
  { key: 'webviewMarkdown', file: 'media/panel/markdown.js', optional: true },
];

function run(cmd, args, cwd, timeoutMs) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
  const output = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim();
  return { ok: r.status === 0, status: r.status ?? r.signal ?? r.error?.message, output };
}

/** The lines that say what went wrong (error lines first, else the last few). */
function lastLines(text, n = 3) {
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !/^\s+at /.test(l));
  const errors = lines.filter((l) => /error|cannot|failed|not found/i.test(l));
  return oneLine((errors.length > 0 ? errors.slice(0, n) : lines.slice(-n)).join(' | '));
}

/** Where an input of the bundle comes from: an npm package, or a source folder. */
function originOf(input, dir) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (pkg) return pkg[1];
  const rel = path.relative(repoRoot, path.resolve(dir, input)).split(path.sep);
  return rel.slice(0, rel[0] === 'src' ? 2 : 1).join('/');
}

/**
 * The extension bundle's largest contributors (minified bytes in the output, by package or source
 * folder), from the same entry and options as esbuild.mjs plus a metafile. The modules esbuild.mjs
 * turns into lazy requires of other bundles are left out, as there.
 */
async function extensionContributors(dir) {
  const result = await esbuild.build({
    absWorkingDir: dir,
    entryPoints: ['src/extension.ts'],
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    external: ['vscode', './host/composition', './host/essentials', './host/panel/parts'],
    define: { PLANWISE_VERSION: '"0"' },
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const totals = new Map();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const origin = originOf(input, dir);
      totals.set(origin, (totals.get(origin) ?? 0) + bytesInOutput);
    }
  }
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([origin, bytes]) => ({ origin, bytes }));
}

async function bundle() {
  const dir = stageCheckout('planwise-bench-bundle-');
  try {
    log('bundle: node esbuild.mjs --production (in a staging folder)');
    const build = productionBuild(dir);
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
      ? run(
          process.execPath,
          [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '-o', vsixFile],
          dir,
          180_000,
        )
      : { ok: false, status: 'missing', output: 'node_modules/@vscode/vsce is not installed' };
    const vsix =
      pack.ok && existsSync(vsixFile)
        ? { bytes: statSync(vsixFile).size }
        : { bytes: null, reason: `vsce package failed (exit ${pack.status}): ${lastLines(pack.output)}` };

    const ext = sizes.extension;
    const met = ext.bytes <= EXTENSION_GOAL_BYTES;
    const contributors = await extensionContributors(dir).catch(() => []);
    const parts = [
      `extension ${formatBytes(ext.bytes)} (gzip ${formatBytes(ext.gzipBytes)}) loaded at activation`,
      ...(sizes.essentials?.bytes
        ? [
            `essentials ${formatBytes(sizes.essentials.bytes)} (gzip ${formatBytes(sizes.essentials.gzipBytes)}) just after activation`,
          ]
        : []),
      ...(sizes.panel?.bytes
        ? [
            `panel ${formatBytes(sizes.panel.bytes)} (gzip ${formatBytes(sizes.panel.gzipBytes)}) when the view first resolves`,
          ]
        : []),
      ...(sizes.host?.bytes
        ? [
            `host ${formatBytes(sizes.host.bytes)} (gzip ${formatBytes(sizes.host.gzipBytes)}) with the panel's first message or a command's first run`,
          ]
        : []),
      ...(sizes.engine?.bytes
        ? [
            `engine ${formatBytes(sizes.engine.bytes)} (gzip ${formatBytes(sizes.engine.gzipBytes)}) with the first session, verify run or plan file`,
          ]
        : []),
      ...(sizes.openai?.bytes
        ? [
            `openai ${formatBytes(sizes.openai.bytes)} (gzip ${formatBytes(sizes.openai.gzipBytes)}) with the first session`,
          ]
        : []),
      `cli ${formatBytes(sizes.cli.bytes)} dispatcher` +
        (sizes.cliCheckCommand?.bytes ? ` + check-command ${formatBytes(sizes.cliCheckCommand.bytes)}` : '') +
        (sizes.cliSession?.bytes ? ` / plan+resume ${formatBytes(sizes.cliSession.bytes)}` : ''),
      `webview ${formatBytes(sizes.webview.bytes)} (gzip ${formatBytes(sizes.webview.gzipBytes)}) for the first paint` +
        (sizes.webviewCheck?.bytes && sizes.webviewMarkdown?.bytes
          ? `, then ${sizes.webviewToolkit?.bytes ? `toolkit ${formatBytes(sizes.webviewToolkit.bytes)} + ` : ''}` +
            `check ${formatBytes(sizes.webviewCheck.bytes)} + markdown ${formatBytes(sizes.webviewMarkdown.bytes)}`
          : ''),
      vsix.bytes !== null ? `VSIX ${formatBytes(vsix.bytes)}` : `VSIX not measured: ${vsix.reason}`,
    ];
    if (!met && contributors.length > 0) {
      const top = contributors.slice(0, 3).map((c) => `${c.origin} ${formatBytes(c.bytes)}`);
      parts.push(`extension's largest parts: ${top.join(', ')}`);
    }
    return measured(parts.join('; '), met, {
      sizes,
      vsix,
      goalBytes: EXTENSION_GOAL_BYTES,
      extensionContributors: contributors,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await figureMain({ bundle });
