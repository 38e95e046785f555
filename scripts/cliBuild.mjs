// How the `planwise` CLI is bundled, for esbuild.mjs: the dispatcher, dist/cli.cjs, and one bundle
// per command in dist/cli/, each stamped with the id its V8 code cache is named by.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The CLI's dispatcher (dist/cli.cjs) holds only src/cli/main.ts: each `loadCommand('x')` of main.ts
 * loads that command's own bundle, dist/cli/<bundle>.js, so `planwise --version` parses a few KB
 * and `check-command` only the gate, never `openai`. In dist/cli.cjs, src/cli/commands/load.ts (a
 * require from source) is replaced by a call of src/cli/loadBundle.ts, imported as a module of the
 * dispatcher itself: no lazily initialised module and no copy of its exports on the way. It is a
 * `.cjs` file: for a `.js` main file Node first reads the nearest package.json for its module type
 * (about 0.7M instructions of an 81M `planwise --version`).
 */
/** Commands that share one bundle: `plan` and `resume` both run a session (src/cli/commands/session.ts). */
const CLI_SHARED_BUNDLES = { plan: 'session', resume: 'session' };
/** Every `loadCommand('x')` of main.ts; each command not shared gets a bundle of its own. */
const cliCommands = [
  ...readFileSync(new URL('../src/cli/main.ts', import.meta.url), 'utf8').matchAll(/loadCommand\('(\w+)'\)/g),
].map((m) => m[1]);
const cliBundleOf = (command) => CLI_SHARED_BUNDLES[command] ?? command.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const lazyCliCommandsPlugin = {
  name: 'lazy-cli-commands',
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\/load$/ }, (args) =>
      /[\\/]src[\\/]cli[\\/]main\.ts$/.test(args.importer)
        ? { path: 'load', namespace: 'cli-command-loader' }
        : undefined,
    );
    // Loaded as CommonJS by src/cli/loadBundle.ts (with V8's code cache), not by an external
    // import(): Node's ESM loader would first scan the whole file for its export names (~10 ms).
    build.onLoad({ filter: /.*/, namespace: 'cli-command-loader' }, () => ({
      contents: [
        "import { loadBundle } from './loadBundle';",
        `const BUNDLES = ${JSON.stringify(Object.fromEntries(cliCommands.map((c) => [c, cliBundleOf(c)])))};`,
        'export function loadCommand(file) {',
        '  if (!Object.hasOwn(BUNDLES, file)) throw new Error(`no command bundle for ${file}`);',
        '  return loadBundle(BUNDLES[file], __dirname);',
        '}',
      ].join('\n'),
      resolveDir: new URL('../src/cli', import.meta.url).pathname,
      loader: 'js',
    }));
  },
};
/**
 * Each command bundle is written inside the function Node wraps a CommonJS module in, so
 * src/cli/loadBundle.ts compiles the file's text as it is read (no copy of 90 KB to wrap it), and
 * ends with `//planwise-bundle:<id>`, the first 16 hex digits of the SHA-256 of everything before
 * it. The loader names the bundle's V8 code cache by that id, read from the text it has just read:
 * one read says which cache fits, with no stat of the file, and a new build, whatever its size or
 * mtime, can never meet the cache of an older one.
 */
const BUNDLE_ID_MARK = '//planwise-bundle:';
const stampBundle = (code) => {
  // A source map comment stays on the last line of code, after the wrapper.
  const map = /\n(\/\/# sourceMappingURL=[^\n]*)\n?$/.exec(code);
  const body = map ? code.slice(0, map.index + 1) : code;
  const text = `(function (exports, require, module, __filename, __dirname) {${body}\n})\n${map ? `${map[1]}\n` : ''}`;
  return `${text}${BUNDLE_ID_MARK}${createHash('sha256').update(text).digest('hex').slice(0, 16)}\n`;
};
const stampedCliBundlesPlugin = {
  name: 'stamped-cli-bundles',
  setup(build) {
    build.onEnd((result) => {
      for (const f of result.outputFiles ?? []) {
        mkdirSync(path.dirname(f.path), { recursive: true });
        writeFileSync(f.path, f.path.endsWith('.js') ? stampBundle(f.text) : f.contents);
      }
    });
  },
};
const cliCommandEntries = {
  'cli/session': 'src/cli/commands/session.ts',
  ...Object.fromEntries(
    cliCommands.filter((c) => !CLI_SHARED_BUNDLES[c]).map((c) => [`cli/${cliBundleOf(c)}`, `src/cli/commands/${c}.ts`]),
  ),
};

/** esbuild options for the dispatcher and the command bundles, on top of `node` (esbuild.mjs's Node options). */
export function cliBuilds(node) {
  return [
    {
      ...node,
      entryPoints: ['src/cli/index.ts'],
      outfile: 'dist/cli.cjs',
      banner: { js: '#!/usr/bin/env node' },
      plugins: [lazyCliCommandsPlugin],
    },
    { ...node, entryPoints: cliCommandEntries, outdir: 'dist', write: false, plugins: [stampedCliBundlesPlugin] },
  ];
}
