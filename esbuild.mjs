// Bundles the extension host, the CLI and the webview. `--watch` rebuilds on change,
// `--production` minifies and drops source maps.
import * as esbuild from 'esbuild';
import { readFileSync, mkdirSync, copyFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cliBuilds, grammarBundles } from './scripts/cliBuild.mjs';
import { webviewBuild } from './scripts/webviewBuild.mjs';
import { codiconSubset } from './scripts/panelStyles.mjs';

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
 * The extension's bundles in dist/, each loaded when first needed:
 * - extension.js at activation; it registers the commands and builds nothing else;
 * - essentials.js (settings, key store, log, trust, the commands that need no host, the plan
 *   lenses) just after activation;
 * - panel.js (the panel's view and state) when the view first resolves;
 * - host.js (the composition: panel messages, commands, lenses) with the panel's first message or
 *   a command's first run;
 * - engine.js (everything the engine's facades export) with the first session, verify run or plan
 *   file; openai.js (the OpenAI-compatible client and SDK) with the first session; mcp.js (the MCP
 *   client and SDK) with the first session that reaches an MCP server.
 * test/e2e/firstPaint.e2e.ts asserts which of them an idle panel loads.
 */
const EXTENSION_BUNDLES = {
  extension: 'src/extension.ts',
  essentials: 'src/host/essentials.ts',
  panel: 'src/host/panel/parts.ts',
  host: 'src/host/composition.ts',
  engine: 'src/core/index.ts',
  openai: 'src/node/openaiModelClient.ts',
  mcp: 'src/node/mcpClient.ts',
};

// Real paths: esbuild resolves symlinks, and a staging folder (bench/bundle.mjs) links src/ in.
const real = (file) => realpathSync(file);
const CORE_INDEX = real('src/core/index.ts');
const CORE_DIR = real('src/core') + path.sep;
const CORE_API = `${CORE_DIR}api${path.sep}`;
/** The facade of plain values and pure functions a host reads before any engine work: bundled in. */
const CORE_BASICS = `${CORE_API}basics.ts`;

/** The names `src/core/index.ts` exports (read from an ESM build's metafile). */
async function coreExportNames() {
  const r = await esbuild.build({
    ...node,
    format: 'esm',
    entryPoints: [CORE_INDEX],
    write: false,
    metafile: true,
    outfile: 'core-exports.js',
    sourcemap: false,
    logLevel: 'silent',
    packages: 'external',
  });
  return Object.values(r.metafile.outputs).find((o) => o.entryPoint).exports;
}

/**
 * `import * as vscode from 'vscode'` compiles to `__toESM(require('vscode'))`, which copies every
 * member of the API object onto a new object, once per importing module. Here such an import reads
 * one module whose exports object has the API as its prototype and no own members: nothing is
 * copied, and `vscode.window` still reads the API's own member: the bundles that load on the way
 * to the panel's first paint import the API in many modules. src/extension.ts takes the API by
 * `import vscode = require('vscode')`, which copies nothing and is left as written.
 */
const vscodeApiPlugin = {
  name: 'vscode-api',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.kind === 'import-statement' && args.namespace === 'file'
        ? { path: 'vscode', namespace: 'vscode-api' }
        : { path: 'vscode', external: true },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({
      contents: "module.exports = Object.create(require('vscode'));",
      loader: 'js',
    }));
  },
};

/**
 * Where one bundle's code stops and another's begins. An import of another bundle's entry module
 * becomes a plain `require()` of that bundle's file (`dir`: the folder of the bundle files, as seen
 * from the importing bundle's), so its code is neither copied nor loaded before it is asked for:
 * - a `require()` call or a dynamic `import()` loads it there and then;
 * - a static import of the engine (src/core/index.ts or one of its facades in src/core/api/) becomes
 *   a stand-in whose exports are getters: the first read of one requires dist/engine.js. The
 *   basics facade (src/core/api/basics.ts) is bundled into its importers instead.
 * A static import of any other bundle would load it with the importer, so it fails the build.
 */
function bundleBoundaries({ bundles, dir, engineExports = [] }) {
  const files = new Map(Object.entries(bundles).map(([name, source]) => [real(source), `${dir}/${name}.js`]));
  const engineFile = files.get(CORE_INDEX);
  return {
    name: 'bundle-boundaries',
    setup(build) {
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.pluginData?.inner || args.kind === 'entry-point' || args.namespace !== 'file') return undefined;
        const r = await build.resolve(args.path, {
          resolveDir: args.resolveDir,
          kind: args.kind,
          pluginData: { inner: true },
        });
        const isEngine =
          engineFile &&
          !args.importer.startsWith(CORE_DIR) &&
          (r.path === CORE_INDEX || (r.path.startsWith(CORE_API) && r.path !== CORE_BASICS));
        const file = isEngine ? engineFile : files.get(r.path);
        if (file === undefined) return undefined;
        if (args.kind === 'require-call' || args.kind === 'dynamic-import') return { path: file, external: true };
        if (isEngine) return { path: file, namespace: 'engine-getters', sideEffects: false };
        throw new Error(
          `${args.importer} imports ${args.path}, the entry of ${file}: require() or import() it where it is needed`,
        );
      });
      // The engine's stand-in re-exports one CommonJS module of getters, which its importers share.
      build.onLoad({ filter: /.*/, namespace: 'engine-getters' }, () => ({
        contents: `export { ${engineExports.join(', ')} } from 'engine-lazy';`,
        loader: 'js',
      }));
      build.onResolve({ filter: /^engine-lazy$/, namespace: 'engine-getters' }, () => ({
        path: engineFile,
        namespace: 'engine-lazy',
        sideEffects: false,
      }));
      build.onLoad({ filter: /.*/, namespace: 'engine-lazy' }, () => ({
        contents: [
          'let engine;',
          `const load = () => engine || (engine = require(${JSON.stringify(engineFile)}));`,
          `for (const k of ${JSON.stringify(engineExports)}) Object.defineProperty(exports, k, { enumerable: true, get: () => load()[k] });`,
        ].join('\n'),
        loader: 'js',
      }));
      build.onResolve({ filter: /.*/, namespace: 'engine-lazy' }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/**
 * Codicons ship inside media/ so the webview never reaches the network. The host writes their
 * style sheet into the panel's page (src/host/panel/assets.ts), where a relative font URL would
 * not resolve: media/codicons/glyphs.css is codicon.css without its one `@font-face` rule (the
 * host writes that rule itself with the font's webview URI) and with only the glyphs the panel
 * names (scripts/panelStyles.mjs), minified; media/panel/panel.css is media/panel.css minified
 * (built below, so `--watch` rebuilds it). Both are parsed twice on the workbench's main thread
 * before the panel paints.
 */
async function writePanelStyles() {
  mkdirSync('media/codicons', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) {
    copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `media/codicons/${f}`);
  }
  const css = readFileSync('media/codicons/codicon.css', 'utf8');
  const faces = [...css.matchAll(/@font-face\s*\{[^}]*\}/g)];
  const face = faces[0]?.[0] ?? '';
  if (faces.length !== 1 || !/font-family:\s*"codicon"/.test(face) || !/url\("\.\/codicon\.ttf[?"]/.test(face)) {
    throw new Error(
      'esbuild.mjs: @vscode/codicons changed its style sheet: expected one @font-face for "codicon" from ./codicon.ttf.',
    );
  }
  const minify = async (text) =>
    (await esbuild.transform(text, { loader: 'css', minify: true, legalComments: 'none' })).code;
  writeFileSync('media/codicons/glyphs.css', await minify(codiconSubset(css.replace(face, ''), { root: '.' })));
}

const engineExports = await coreExportNames();
const configs = [
  {
    ...node,
    entryPoints: EXTENSION_BUNDLES,
    outdir: 'dist',
    plugins: [vscodeApiPlugin, bundleBoundaries({ bundles: EXTENSION_BUNDLES, dir: '.', engineExports })],
  },
  // The CLI: its dispatcher, dist/cli.cjs, a bundle per command in dist/cli/ and one per grammar
  // file in dist/cli/grammar/ (scripts/cliBuild.mjs). The session bundle requires dist/mcp.js on
  // first use: bundled into it, the MCP SDK's lazily evaluated modules would share zod's with the
  // eager ones.
  ...cliBuilds(node).map((c) =>
    c.outdir === 'dist'
      ? {
          ...c,
          plugins: [
            bundleBoundaries({ bundles: { mcp: EXTENSION_BUNDLES.mcp }, dir: '..' }),
            bundleBoundaries({ bundles: grammarBundles, dir: './grammar' }),
          ],
        }
      : c,
  ),
  // The panel (scripts/webviewBuild.mjs), and its own style sheet, minified as the host writes it
  // into the page.
  {
    ...common,
    ...webviewBuild({ root: '.', outdir: 'media/panel', minify: common.minify, sourcemap: common.sourcemap }),
  },
  { ...common, entryPoints: ['media/panel.css'], outfile: 'media/panel/panel.css', minify: true, sourcemap: false },
];

await writePanelStyles();
// media/panel/ holds only build output, made afresh: a bundle an older build wrote there would
// otherwise be packed into the VSIX.
rmSync('media/panel', { recursive: true, force: true });
// The nearest package.json of dist/*.js: without it Node reads and parses the project's own (with all
// its contributions) to learn the files' module type, at every CLI start and when the extension
// host loads dist/extension.js (the VSIX ships this file too).
mkdirSync('dist', { recursive: true });
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
if (watch) {
  await Promise.all((await Promise.all(configs.map((c) => esbuild.context(c)))).map((c) => c.watch()));
} else {
  await Promise.all(configs.map((c) => esbuild.build(c)));
}
