// Loads the project's TypeScript sources into a benchmark: a small entry module is bundled with
// esbuild (the same bundler the extension ships with) and imported. npm packages stay external and
// resolve from the project's node_modules, so the bundle lives under node_modules/.cache.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

const cacheDir = path.join(repoRoot, 'node_modules', '.cache', 'planwise-bench');

/** True when `rel` (relative to the repository root) exists. */
export function exists(rel) {
  return existsSync(path.join(repoRoot, rel));
}

/**
 * Bundles `source` (TypeScript; imports are resolved from the repository root, e.g.
 * `./src/core/agent/prompt`) into an ES module and imports it. `name` names the output file.
 */
export async function loadTs(name, source) {
  mkdirSync(cacheDir, { recursive: true });
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const outfile = path.join(cacheDir, `${name}-${process.pid}-${Date.now()}.mjs`);
  await esbuild.build({
    stdin: { contents: source, resolveDir: repoRoot, sourcefile: `${name}.entry.ts`, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    // The sources load some packages on first use with `require` (shell-quote in the gate): an ES
    // module has none, so the bundle gets one that resolves from its own folder.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
    define: { PLANWISE_VERSION: JSON.stringify(pkg.version) },
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}
