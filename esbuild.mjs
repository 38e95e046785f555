// Bundles the extension host, the CLI and the webview. `--watch` rebuilds on change,
// `--production` minifies and drops source maps.
import * as esbuild from 'esbuild';
import { readFileSync, mkdirSync, copyFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cliBuilds } from './scripts/cliBuild.mjs';
import { webviewBuilds } from './scripts/webviewBuild.mjs';
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
 * In the activation bundle, `require('./host/composition')` becomes `require('./host.js')` of the
 * separately built dist/host.js, `require('./host/essentials')` one of dist/essentials.js (the
 * settings, key store, log and trust, loaded just after activation), and
 * `require('./host/panel/parts')` one of dist/panel.js (the panel's view and state, loaded when the
 * view first resolves): plain requires, left as written (no module-interop helpers, which were a
 * good part of the activation bundle's size), so VS Code's module loader resolves 'vscode'.
 */
const LAZY_FROM_EXTENSION = {
  './host/composition': './host.js',
  './host/essentials': './essentials.js',
  './host/panel/parts': './panel.js',
};
const lazyHostPlugin = {
  name: 'lazy-host',
  setup(build) {
    build.onResolve({ filter: /^\.\/host\/(composition|essentials|panel\/parts)$/ }, (args) => {
      if (!args.importer.endsWith('extension.ts')) return undefined;
      // A static import would load the bundle at activation; only require() calls are made lazy.
      if (args.kind !== 'require-call') throw new Error(`src/extension.ts must require() ${args.path}, not import it`);
      return { path: LAZY_FROM_EXTENSION[args.path], external: true };
    });
  },
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

/**
 * The OpenAI-compatible client and the `openai` SDK are a bundle of their own, dist/openai.js,
 * required by dist/host.js with the first session that needs it (src/host/session/engine.ts
 * imports it lazily), so opening the panel does not parse them. The client's imports of the
 * engine (`src/core/**`, e.g. ModelError) are not bundled twice: dist/openai.js reads them from
 * dist/engine.js's `__planwiseShared` table, so both files share one module instance (and
 * `instanceof ModelError` holds across them). `sharedCore` collects that table while openai.js is
 * built; the engine's entry then exports it.
 */
// Real paths: esbuild resolves symlinks, and a staging folder (bench/bundle.mjs) links src/ in.
const SRC_ROOT = path.dirname(realpathSync('src'));
const OPENAI_CLIENT = realpathSync('src/node/openaiModelClient.ts');
const CORE_DIR = realpathSync('src/core') + path.sep;
const sharedCore = new Set();
const openaiSharedCorePlugin = {
  name: 'openai-shared-core',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.namespace === 'shared-core' || args.pluginData?.inner) return undefined;
      const r = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: { inner: true },
      });
      if (r.errors.length > 0 || !r.path.startsWith(CORE_DIR)) return undefined;
      const key = path.relative(SRC_ROOT, r.path).split(path.sep).join('/');
      sharedCore.add(key);
      return { path: key, namespace: 'shared-core' };
    });
    build.onLoad({ filter: /.*/, namespace: 'shared-core' }, (args) => ({
      contents: `module.exports = require('./engine.js').__planwiseShared[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/engine\.js$/, namespace: 'shared-core' }, () => ({
      path: './engine.js',
      external: true,
    }));
  },
};
/** In dist/host.js, every import of the OpenAI client becomes `require('./openai.js')`. */
const lazyOpenaiPlugin = {
  name: 'lazy-openai',
  setup(build) {
    build.onResolve({ filter: /openaiModelClient$/ }, async (args) => {
      if (args.namespace === 'lazy-openai' || args.pluginData?.inner) return undefined;
      const r = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: { inner: true },
      });
      return r.path === OPENAI_CLIENT ? { path: 'openai', namespace: 'lazy-openai' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-openai' }, () => ({
      contents: "module.exports = require('./openai.js');",
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/openai\.js$/, namespace: 'lazy-openai' }, () => ({
      path: './openai.js',
      external: true,
    }));
  },
};
/**
 * The MCP client and the MCP SDK are a bundle of their own, dist/mcp.js, required by dist/host.js
 * only for a session with MCP tools allowed (src/host/session/engine.ts imports it lazily). It
 * imports the engine's types only, so nothing of the engine is bundled into it.
 */
const MCP_CLIENT = realpathSync('src/node/mcpClient.ts');
/** Imports of the MCP client become `require(file)` (dist/mcp.js, as seen from the bundle's folder). */
const lazyMcpPlugin = (file) => ({
  name: 'lazy-mcp',
  setup(build) {
    build.onResolve({ filter: /mcpClient$/ }, async (args) => {
      if (args.namespace === 'lazy-mcp' || args.pluginData?.inner) return undefined;
      const r = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: { inner: true },
      });
      return r.path === MCP_CLIENT ? { path: 'mcp', namespace: 'lazy-mcp' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-mcp' }, () => ({
      contents: `module.exports = require(${JSON.stringify(file)});`,
      loader: 'js',
    }));
    build.onResolve({ filter: /mcp\.js$/, namespace: 'lazy-mcp' }, () => ({ path: file, external: true }));
  },
});
/**
 * The engine, dist/engine.js: everything `src/core/index.ts` exports (session, runloop, tools,
 * gate, plan validator, zod schemas), and the engine modules dist/openai.js reads from it.
 */
function engineEntry() {
  const keys = [...sharedCore].sort();
  const lines = keys.map((k, i) => `import * as shared${i} from './${k}';`);
  lines.push("export * from './src/core/index';");
  lines.push(
    `export const __planwiseShared = { ${keys.map((k, i) => `${JSON.stringify(k)}: shared${i}`).join(', ')} };`,
  );
  return { contents: lines.join('\n'), resolveDir: path.resolve('.'), sourcefile: 'engine-entry.ts', loader: 'ts' };
}

/**
 * In dist/host.js, the host's imports of `src/core/index.ts` become one small module whose exports
 * are getters: the first read of one requires dist/engine.js, so the panel can open (provider, view
 * model, protocol) without the engine, which loads with the first session, a plan file's lenses
 * or a command that needs it. A few exports are plain values or pure functions the host reads when
 * it is composed or the panel opens (plan file names, the exec environment, settings defaults);
 * those are bundled into dist/host.js itself (`LIGHT_CORE`, tree-shaken to what they need), and
 * are never classes, so no `instanceof` can tell the two copies apart. test/e2e/firstPaint.e2e.ts
 * asserts which bundles an idle panel loads.
 */
const CORE_INDEX = realpathSync('src/core/index.ts');
const LIGHT_CORE = [
  'DEFAULT_BUDGETS',
  'DEFAULT_INSTRUCTIONS_MAX_BYTES',
  'Emitter',
  'DEFAULT_PLANS_DIR',
  'INSTRUCTION_SOURCES',
  'EXEC_ENV',
  'globToRegExpSource',
  'historyRevisions',
  'isPlanFileName',
  'listPlanFiles',
  'planPaths',
  'revisionFileName',
  'revisionOf',
  'stripTrackerBlock',
];
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
function lazyEnginePlugin(exportNames) {
  const light = LIGHT_CORE.filter((n) => exportNames.includes(n));
  const missing = LIGHT_CORE.filter((n) => !exportNames.includes(n));
  if (missing.length > 0)
    throw new Error(`esbuild.mjs LIGHT_CORE names what src/core/index.ts does not export: ${missing}`);
  const lazy = exportNames.filter((n) => !light.includes(n));
  return {
    name: 'lazy-engine',
    setup(build) {
      build.onResolve({ filter: /core\/index$/ }, async (args) => {
        if (args.pluginData?.inner || args.namespace === 'lazy-engine') return undefined;
        const r = await build.resolve(args.path, {
          resolveDir: args.resolveDir,
          kind: args.kind,
          pluginData: { inner: true },
        });
        return r.path === CORE_INDEX ? { path: 'engine', namespace: 'lazy-engine' } : undefined;
      });
      build.onResolve({ filter: /^light-core$/, namespace: 'lazy-engine' }, () => ({
        path: 'light-core',
        namespace: 'lazy-engine-light',
      }));
      build.onLoad({ filter: /.*/, namespace: 'lazy-engine-light' }, () => ({
        contents: `export { ${light.join(', ')} } from ${JSON.stringify(CORE_INDEX)};`,
        resolveDir: path.dirname(CORE_INDEX),
        loader: 'ts',
      }));
      build.onLoad({ filter: /.*/, namespace: 'lazy-engine' }, () => ({
        contents: [
          "const light = require('light-core');",
          'let engine;',
          "const load = () => engine || (engine = require('./engine.js'));",
          "Object.defineProperty(exports, '__esModule', { value: true });",
          `for (const k of ${JSON.stringify(light)}) Object.defineProperty(exports, k, { enumerable: true, get: () => light[k] });`,
          `for (const k of ${JSON.stringify(lazy)}) Object.defineProperty(exports, k, { enumerable: true, get: () => load()[k] });`,
        ].join('\n'),
        loader: 'js',
      }));
      build.onResolve({ filter: /^\.\/engine\.js$/, namespace: 'lazy-engine' }, () => ({
        path: './engine.js',
        external: true,
      }));
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

const configs = [
  // Activation loads only dist/extension.js. The host's composition (panel, commands, lenses) is a
  // second file, dist/host.js, required on first use: a cheap activate() parses a small file. The
  // engine (dist/engine.js) and the model client (dist/openai.js) load later still.
  {
    ...node,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    // No vscodeApiPlugin: src/extension.ts takes 'vscode' by `import vscode = require('vscode')`,
    // which copies nothing.
    plugins: [lazyHostPlugin],
  },
  // Settings, key store, log, trust, the commands that need no host and the plan lenses: loaded by
  // dist/extension.js just after activation.
  {
    ...node,
    entryPoints: ['src/host/essentials.ts'],
    outfile: 'dist/essentials.js',
    external: ['vscode'],
    plugins: [vscodeApiPlugin],
  },
  // The panel's view provider, hub and page: loaded by dist/extension.js when the view first resolves.
  {
    ...node,
    entryPoints: ['src/host/panel/parts.ts'],
    outfile: 'dist/panel.js',
    external: ['vscode'],
    plugins: [vscodeApiPlugin],
  },
  {
    ...node,
    entryPoints: ['src/host/composition.ts'],
    outfile: 'dist/host.js',
    external: ['vscode'],
    plugins: [vscodeApiPlugin, lazyOpenaiPlugin, lazyMcpPlugin('./mcp.js'), lazyEnginePlugin(await coreExportNames())],
  },
  // The MCP client and SDK: loaded by dist/host.js (and dist/cli/session.js) with the first session
  // that reaches an MCP server.
  { ...node, entryPoints: [MCP_CLIENT], outfile: 'dist/mcp.js' },
  // The engine: loaded by dist/host.js on first use (see lazyEnginePlugin).
  { ...node, stdin: engineEntry, outfile: 'dist/engine.js' },
  // The CLI: its dispatcher, dist/cli.cjs, and a bundle per command in dist/cli/ (scripts/cliBuild.mjs).
  // The CLI's session bundle requires the same dist/mcp.js on first use: bundled into it, the MCP
  // SDK's lazily evaluated modules would share zod's with the eager ones.
  ...cliBuilds(node).map((c) =>
    c.outdir === 'dist' ? { ...c, plugins: [...(c.plugins ?? []), lazyMcpPlugin('../mcp.js')] } : c,
  ),
  // The panel's own style sheet, minified, as the host writes it into the page.
  { ...common, entryPoints: ['media/panel.css'], outfile: 'media/panel/panel.css', minify: true, sourcemap: false },
  // The panel: media/panel/main.js and the three chunks it loads after its first paint (scripts/webviewBuild.mjs).
  ...webviewBuilds({ root: '.', outdir: 'media/panel', minify: common.minify, sourcemap: common.sourcemap }).map(
    (c) => ({ ...common, ...c }),
  ),
];

const openaiConfig = {
  ...node,
  entryPoints: [OPENAI_CLIENT],
  outfile: 'dist/openai.js',
  plugins: [openaiSharedCorePlugin],
};

await writePanelStyles();
// media/panel/ holds only build output, made afresh: a bundle an older build wrote there would
// otherwise be packed into the VSIX. So would media/webview.js, the panel's single bundle before it
// was split. dist/cli.js is the CLI's dispatcher before it became dist/cli.cjs.
for (const stale of ['media/panel', 'media/webview.js', 'media/webview.js.map', 'dist/cli.js', 'dist/cli.js.map'])
  rmSync(stale, { recursive: true, force: true });
// The nearest package.json of dist/*.js: Node reads it at every start to learn the files' module
// type, and the project's own (its contributions, ~21 KB) took about 0.5 ms of `planwise
// check-command` to read and parse, and 0.3-3 ms of loading dist/extension.js in the extension
// host (the VSIX ships this file too).
mkdirSync('dist', { recursive: true });
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
// dist/openai.js first: its build collects the engine modules dist/engine.js must export.
const resolveStdin = (c) => (typeof c.stdin === 'function' ? { ...c, stdin: c.stdin() } : c);
if (watch) {
  const openai = await esbuild.context(openaiConfig);
  await openai.rebuild();
  const contexts = await Promise.all(configs.map((c) => esbuild.context(resolveStdin(c))));
  await Promise.all([openai, ...contexts].map((c) => c.watch()));
} else {
  await esbuild.build(openaiConfig);
  await Promise.all(configs.map((c) => esbuild.build(resolveStdin(c))));
}
