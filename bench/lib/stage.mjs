// A staging copy of the checkout for the figures that need Planwise as shipped (a production build,
// a VSIX): the build runs there, so the shared checkout's dist/, media/ and planwise.vsix are left
// alone. One helper for every such figure, so a file the build comes to need is added once.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { oneLine } from './figure.mjs';
import { repoRoot } from './load.mjs';

/** What esbuild.mjs writes into media/: left out of the copy so the build makes them afresh. */
const GENERATED_MEDIA = /^(webview\.(js|css)(\.map)?|panel|codicons)$/;

/**
 * A new folder under the OS temp folder (`prefix` names it) holding what `npm run package` reads
 * from the checkout: links to the sources and node_modules; copies of the manifest, the build
 * script and the scripts it imports (copied, not linked: Node resolves a linked module to its real
 * path, and a script placed by a link would build into the checkout), the README and licence, docs/
 * (the walkthrough's images are packed from it), and media without earlier build output.
 */
export function stageCheckout(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const link of ['src', 'webview', 'node_modules', 'tsconfig.json']) {
    if (existsSync(path.join(repoRoot, link))) symlinkSync(path.join(repoRoot, link), path.join(dir, link));
  }
  const copies = [
    'package.json',
    'esbuild.mjs',
    'scripts',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    '.vscodeignore',
    'docs',
  ];
  const media = existsSync(path.join(repoRoot, 'media'))
    ? readdirSync(path.join(repoRoot, 'media'))
        .filter((f) => !GENERATED_MEDIA.test(f))
        .map((f) => `media/${f}`)
    : [];
  for (const file of [...copies, ...media]) {
    const from = path.join(repoRoot, file);
    if (!existsSync(from)) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(from, path.join(dir, file), { recursive: true });
  }
  return dir;
}

/** `node esbuild.mjs --production` in `dir`: {ok, status, output}, the output being stdout and stderr. */
export function productionBuild(dir, timeoutMs = 180_000) {
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--production'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { ok: r.status === 0, status: r.status ?? r.signal, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** A staging folder with a production build in it (the CLI and the extension as shipped); throws, leaving nothing behind, when the build fails. */
export function stagedProductionBuild(prefix) {
  const dir = stageCheckout(prefix);
  const build = productionBuild(dir);
  if (build.ok) return dir;
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`production build failed (exit ${build.status}): ${oneLine(build.output).slice(-400)}`);
}
