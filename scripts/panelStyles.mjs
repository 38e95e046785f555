// The codicons' glyph rules the panel needs, for the style sheet the host writes into the panel's
// page (src/host/panel/assets.ts). codicon.css names about 650 glyphs; the panel shows a few
// dozen, and every byte of the page is parsed twice on the workbench's main thread before the
// panel paints (once by VS Code's webview loader, once for real). The panel names a glyph only as
// a string literal (`<Icon name="check" />`, a table of icons) or as `codicon-<name>`, so the
// glyphs kept are those whose names appear that way in webview/; a name that matches an ordinary
// word keeps its glyph needlessly, which is harmless. The page test in Chromium holds that every
// glyph the panel renders has its rule.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One glyph rule as codicon.css writes it, one per line. */
const GLYPH_RULE = /^\.codicon-([a-z0-9-]+):before \{ content: "\\[0-9a-f]{4}" \}$/;

/** Every .ts/.tsx file under `dir`. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The glyph names `text` may use: quoted words and `codicon-` classes. */
function namesIn(text) {
  const names = new Set();
  for (const m of text.matchAll(/['"`]([a-z0-9]+(?:-[a-z0-9]+)*)['"`]/g)) names.add(m[1]);
  for (const m of text.matchAll(/codicon-([a-z0-9]+(?:-[a-z0-9]+)*)/g)) names.add(m[1]);
  return names;
}

/**
 * `glyphsCss` (codicon.css without its @font-face) with only the glyph rules whose names the
 * panel's sources use; the other rules (the glyph font, the spin modifiers) are kept whole.
 * Throws if codicon.css no longer writes its glyphs one rule per line.
 */
export function codiconSubset(glyphsCss, { root }) {
  const used = new Set();
  for (const file of sources(path.join(root, 'webview')))
    for (const n of namesIn(readFileSync(file, 'utf8'))) used.add(n);
  for (const n of namesIn(readFileSync(path.join(root, 'media', 'panel.css'), 'utf8'))) used.add(n);
  let glyphs = 0;
  const kept = glyphsCss.split('\n').filter((line) => {
    const m = GLYPH_RULE.exec(line.trim());
    if (!m) return true;
    glyphs += 1;
    return used.has(m[1]);
  });
  if (glyphs < 100) {
    throw new Error(
      `scripts/panelStyles.mjs: @vscode/codicons changed its style sheet: found ${glyphs} glyph rules written as '.codicon-<name>:before { content: "\\\\xxxx" }', one per line.`,
    );
  }
  return kept.join('\n');
}
