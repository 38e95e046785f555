// How the panel's code is bundled, shared by esbuild.mjs, the panel benchmark (bench/lib/panelPage.mjs)
// and the test that holds the split (test/arch/panelChunks.test.ts).
//
// Four ES modules in media/panel/. main.js holds what the panel's first paint needs (Preact, the
// components, the store); the three chunks it imports right after that paint are toolkit.js, the
// UI toolkit and FAST under it (webview/ui/toolkitChunk.ts: the buttons are drawn by CSS until it
// defines them), check.js, the protocol's schemas with zod (webview/check.ts), and markdown.js, the
// markdown renderer with marked and DOMPurify (webview/markdownChunk.ts). The page loads main.js as a
// nonce'd module script, and the chunks it imports are fetched with its nonce
// (src/protocol/panelHtml.ts).
//
// Each is a bundle of its own (four entry points of one build), not esbuild's code splitting: splitting put the few modules main.js
// shares with a chunk (the provider presets, the file-reference linker, esbuild's export helper)
// into small shared chunks that main.js imports statically, and every one of them is one more
// fetch, one after another, before the first paint. Instead a module may be in both main.js and a
// chunk, and then it is copied; only modules without state may be (PANEL_SHARED_MODULES, held by
// the test), so no copy can disagree with the other.
import path from 'node:path';

/** The entry's file name inside the output folder. */
export const PANEL_ENTRY = 'main.js';

/** Each chunk: its source, and its file, which main.tsx imports by that name. */
export const PANEL_CHUNKS = {
  toolkit: { source: 'webview/ui/toolkitChunk.ts', file: 'toolkit.js' },
  check: { source: 'webview/check.ts', file: 'check.js' },
  markdown: { source: 'webview/markdownChunk.ts', file: 'markdown.js' },
};

/** Modules that may be copied into main.js and a chunk: constants and pure functions only. */
export const PANEL_SHARED_MODULES = ['src/protocol/presets.ts', 'webview/fileRefs.ts'];

/** esbuild options for the panel's four bundles, written into `outdir`: one build, four entry points. */
export function webviewBuild({ root, outdir, minify, sourcemap, metafile = false }) {
  const entryPoints = { [path.parse(PANEL_ENTRY).name]: path.join(root, 'webview', 'main.tsx') };
  for (const c of Object.values(PANEL_CHUNKS)) entryPoints[path.parse(c.file).name] = path.join(root, c.source);
  return {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify,
    sourcemap,
    metafile,
    legalComments: 'none',
    entryPoints,
    outdir,
  };
}
