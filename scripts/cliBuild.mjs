// How the `planwise` CLI is bundled, for esbuild.mjs: the dispatcher, dist/cli.cjs, one bundle per
// command in dist/cli/, from the table src/cli/commands/bundles.json (module → bundle), and one per
// file of the gate's grammars in dist/cli/grammar/.
import { readFileSync, readdirSync } from 'node:fs';

const BUNDLES = JSON.parse(readFileSync(new URL('../src/cli/commands/bundles.json', import.meta.url), 'utf8'));
const GRAMMARS = 'src/core/gate/grammar/programs';

/**
 * Each file of the gate's grammars (src/core/gate/grammar/programs/), by name: the registry
 * requires a file when one of its programs is first judged, and in the CLI that require loads the
 * file's own bundle, dist/cli/grammar/<name>.js (esbuild.mjs draws the boundary).
 */
export const grammarBundles = Object.fromEntries(
  readdirSync(GRAMMARS)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [f.slice(0, -'.ts'.length), `${GRAMMARS}/${f}`]),
);

/**
 * esbuild options for the dispatcher and the command bundles, on top of `node` (esbuild.mjs's Node
 * options). The dispatcher is src/cli/bin.ts, which requires a command's bundle
 * by name when the command runs. Commands that share a bundle (`plan` and
 * `resume` both run a session) are bundled once, from the module named like the bundle.
 */
export function cliBuilds(node) {
  const modules = Object.entries(BUNDLES);
  const entries = {};
  for (const [module, bundle] of modules) {
    const shared = modules.filter(([, b]) => b === bundle).length > 1;
    entries[`cli/${bundle}`] = `src/cli/commands/${shared ? bundle : module}.ts`;
  }
  for (const [name, source] of Object.entries(grammarBundles)) entries[`cli/grammar/${name}`] = source;
  return [
    {
      ...node,
      entryPoints: ['src/cli/bin.ts'],
      outfile: 'dist/cli.cjs',
      banner: { js: '#!/usr/bin/env node' },
    },
    { ...node, entryPoints: entries, outdir: 'dist' },
  ];
}
