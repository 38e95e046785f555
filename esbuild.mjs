// Bundles the extension host, the CLI and the webview. `--watch` rebuilds on change,
// `--production` minifies and drops source maps.
import * as esbuild from 'esbuild';
import { readFileSync, mkdirSync, copyFileSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production') || process.env.NODE_ENV === 'production';
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: 'none',
  logLevel: 'info',
  define: { PLANWISE_VERSION: JSON.stringify(pkg.version) },
};

const node = { ...common, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'] };

/** Codicons ship inside media/ so the webview never reaches the network. */
function copyCodicons() {
  mkdirSync('media/codicons', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) {
    copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `media/codicons/${f}`);
  }
}

const configs = [
  { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...node, entryPoints: ['src/cli/index.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  {
    ...common,
    entryPoints: ['webview/main.tsx'],
    outfile: 'media/webview.js',
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    jsx: 'automatic',
    jsxImportSource: 'preact',
  },
];

copyCodicons();
if (watch) {
  const contexts = await Promise.all(configs.map((c) => esbuild.context(c)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(configs.map((c) => esbuild.build(c)));
}
