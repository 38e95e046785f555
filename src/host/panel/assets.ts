/**
 * What the host writes into the panel's page (`renderPanelHtml`), read from media/ as esbuild.mjs
 * builds it: the codicons' glyph table (media/codicons/glyphs.css: codicon.css without its
 * `@font-face`, only the glyphs the panel names), the panel's own sheet (media/panel/panel.css,
 * minified) and the panel's entry module (media/panel/main.js). Read at every resolve, so a
 * rebuild (`npm run watch`) shows on the next open. The three files are small and read
 * synchronously: the thread pool, which other extensions share, can keep an asynchronous read
 * waiting behind their work while the panel starts.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface PanelAssets {
  /** media/codicons/glyphs.css. */
  readonly glyphs: string;
  /** media/panel/panel.css (media/panel.css, minified). */
  readonly panel: string;
  /** media/panel/main.js, the panel's entry module. */
  readonly script: string;
}

export function readPanelAssets(mediaDir: string): PanelAssets {
  const read = (...parts: string[]) => readFileSync(path.join(mediaDir, ...parts), 'utf8');
  return {
    glyphs: read('codicons', 'glyphs.css'),
    panel: read('panel', 'panel.css'),
    script: read('panel', 'main.js'),
  };
}

/** The codicons' `@font-face`, as codicon.css has it, with the font's webview URI. */
export function codiconFontFace(fontUri: string): string {
  if (/["\\\n<]/.test(fontUri)) throw new Error(`The codicon font's URI '${fontUri}' cannot be written into CSS.`);
  return `@font-face {\n  font-family: "codicon";\n  font-display: block;\n  src: url("${fontUri}") format("truetype");\n}`;
}

/** The page's style sheets, in cascade order: the font, the glyphs, then the panel's (which overrides them). */
export function panelStyles(assets: PanelAssets, fontUri: string): string[] {
  return [`${codiconFontFace(fontUri)}\n${assets.glyphs}`, assets.panel];
}
