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

/**
 * In the activation bundle, `import('./host/composition')` becomes a lazy `require('./host.js')` of
 * the separately built dist/host.js (a plain require, so VS Code's module loader resolves 'vscode').
 */
const lazyHostPlugin = {
  name: 'lazy-host',
  setup(build) {
    build.onResolve({ filter: /^\.\/host\/composition$/ }, (args) =>
      args.importer.endsWith('extension.ts') ? { path: 'host', namespace: 'lazy-host' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-host' }, () => ({
      contents: "module.exports = require('./host.js');",
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/host\.js$/, namespace: 'lazy-host' }, () => ({
      path: './host.js',
      external: true,
    }));
  },
};

/**
 * The CLI's dispatcher (dist/cli.js) holds only src/cli/main.ts: each `import('./commands/x')` of
 * main.ts becomes a lazy `require('./cli/<bundle>.js')` of that command's own bundle, so
 * `planwise --version` parses a few KB and `check-command` only the gate, never `openai`.
 */
const CLI_COMMAND_BUNDLES = {
  checkCommand: 'check-command',
  validatePlan: 'validate-plan',
  plans: 'plans',
  plan: 'session',
  resume: 'session',
};
const lazyCliCommandsPlugin = {
  name: 'lazy-cli-commands',
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\/\w+$/ }, (args) => {
      const bundle = CLI_COMMAND_BUNDLES[args.path.slice('./commands/'.length)];
      return /[\\/]src[\\/]cli[\\/]main\.ts$/.test(args.importer) && bundle
        ? { path: bundle, namespace: 'lazy-cli-command' }
        : undefined;
    });
    // Loaded as CommonJS by src/cli/loadBundle.ts (with V8's code cache), not by an external
    // import(): Node's ESM loader would first scan the whole file for its export names (~10 ms).
    build.onLoad({ filter: /.*/, namespace: 'lazy-cli-command' }, (args) => ({
      contents: `module.exports = require('./loadBundle').loadBundle(${JSON.stringify(args.path)}, __dirname);`,
      resolveDir: new URL('./src/cli', import.meta.url).pathname,
      loader: 'js',
    }));
  },
};
const cliCommandEntries = {
  'cli/check-command': 'src/cli/commands/checkCommand.ts',
  'cli/validate-plan': 'src/cli/commands/validatePlan.ts',
  'cli/plans': 'src/cli/commands/plans.ts',
  'cli/session': 'src/cli/commands/session.ts',
};

/**
 * `import * as vscode from 'vscode'` compiles to `__toESM(require('vscode'))`, which copies every
 * property of the API object onto a new object, once per importing module: a CPU profile of the
 * extension host showed 1.3-1.9 ms of Planwise's activation spent there. Here 'vscode' is one
 * module whose exports object has the API as its prototype and no own properties: nothing is
 * copied, and `vscode.window` still reads the API's own member.
 */
const vscodeApiPlugin = {
  name: 'vscode-api',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-api'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-api' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({
      contents: "module.exports = Object.create(require('vscode'));",
      loader: 'js',
    }));
  },
};

/** Codicons ship inside media/ so the webview never reaches the network. */
function copyCodicons() {
  mkdirSync('media/codicons', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) {
    copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `media/codicons/${f}`);
  }
}

const configs = [
  // Activation loads only dist/extension.js. The host's composition (panel, engine, model client)
  // is a second file, dist/host.js, required on first use: a cheap activate() parses a small file.
  {
    ...node,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    plugins: [lazyHostPlugin, vscodeApiPlugin],
  },
  {
    ...node,
    entryPoints: ['src/host/composition.ts'],
    outfile: 'dist/host.js',
    external: ['vscode'],
    plugins: [vscodeApiPlugin],
  },
  {
    ...node,
    entryPoints: ['src/cli/index.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [lazyCliCommandsPlugin],
  },
  { ...node, entryPoints: cliCommandEntries, outdir: 'dist' },
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
