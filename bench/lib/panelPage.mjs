// The page and the data of the panel benchmark (bench/panel.mjs): the webview bundle built the way
// the extension ships it, served on loopback in the host's own HTML under its strict CSP, and a
// generated transcript of any length.
import * as esbuild from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadTs, repoRoot } from './load.mjs';
import { PANEL_ENTRY, webviewBuild } from '../../scripts/webviewBuild.mjs';

/**
 * Bundles the panel as esbuild.mjs does (scripts/webviewBuild.mjs: the entry and its three chunks,
 * minified as in `--production`, unless `readable` for profiling) into a temporary folder, so the
 * checkout's media/panel is left alone. Returns the folder and a cleanup function.
 */
export async function buildWebview({ readable = false } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'planwise-bench-panel-'));
  await esbuild.build({
    ...webviewBuild({ root: repoRoot, outdir: dir, minify: !readable, sourcemap: false }),
    logLevel: 'silent',
  });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf' };

/**
 * Serves the panel page (the host's `renderPanelHtml`, fresh nonces per load, dark theme), the
 * panel's bundles (from `bundleDir`) at /media/panel/, codicons, media/ and the page tests' theme
 * sheets. Returns `{ origin, close }`.
 */
export async function servePanel(bundleDir) {
  const { renderPanelHtml } = await loadTs('panel-html', "export { renderPanelHtml } from './src/protocol/panelHtml';");
  // Codicons come from their package, as esbuild.mjs copies them, so no earlier build is needed.
  const roots = {
    '/media/panel/': bundleDir,
    '/media/codicons/': path.join(repoRoot, 'node_modules', '@vscode', 'codicons', 'dist'),
    '/media/': path.join(repoRoot, 'media'),
    '/harness/': path.join(repoRoot, 'test', 'webview', 'harness'),
  };
  let origin = '';
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/') {
        const html = renderPanelHtml({
          cspSource: origin,
          scriptNonce: randomBytes(16).toString('base64'),
          styleNonce: randomBytes(16).toString('base64'),
          scriptUri: `/media/panel/${PANEL_ENTRY}`,
          styleUris: ['/harness/theme-dark.css', '/media/codicons/codicon.css', '/media/panel.css'],
        }).replace('<body>', '<body class="vscode-dark">');
        res.writeHead(200, { 'content-type': 'text/html' }).end(html);
        return;
      }
      let file;
      const prefix = Object.keys(roots).find((p) => url.pathname.startsWith(p));
      const candidate =
        prefix && path.normalize(path.join(roots[prefix], decodeURIComponent(url.pathname.slice(prefix.length))));
      if (candidate && candidate.startsWith(roots[prefix] + path.sep)) file = candidate;
      if (file) {
        try {
          const body = await readFile(file);
          res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
          return;
        } catch {
          // 404 below
        }
      }
      res.writeHead(404).end();
    })();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, close: () => new Promise((ok) => server.close(ok)) };
}

export const WORDS =
  'the router limiter request bucket token refill config redis route handler test plan step file'.split(' ');

function paragraph(i) {
  return `Step ${i}: read \`src/mod${i % 97}/file${i}.ts:${(i % 300) + 1}\` and **${WORDS[i % WORDS.length]}** the ${WORDS[(i * 7) % WORDS.length]}.\n\n- ${WORDS[(i * 3) % WORDS.length]} handling\n- see src/a${i}.ts`;
}

/** Item `i` of the generated transcript: the kinds in turn, as a planning session produces them. */
function item(i) {
  switch (i % 6) {
    case 0:
      return { id: `i${i}`, kind: 'user', text: `Please check ${WORDS[i % WORDS.length]} number ${i}` };
    case 1:
      return { id: `i${i}`, kind: 'assistant', text: paragraph(i), streaming: false };
    case 2:
      return {
        id: `i${i}`,
        kind: 'tool_call',
        callId: `c${i}`,
        name: 'read_file',
        title: `Read src/f${i}.ts`,
        subject: `src/f${i}.ts`,
        argsSummary: `src/f${i}.ts`,
        verdict: { allowed: i % 12 !== 2, reason: 'read-only' },
      };
    case 3:
      return {
        id: `i${i}`,
        kind: 'tool_result',
        callId: `c${i}`,
        ok: true,
        bytes: 1000 + i,
        preview: `line ${i}\n`.repeat(5),
      };
    case 4:
      return { id: `i${i}`, kind: 'thinking', text: `Considering ${WORDS[i % WORDS.length]}`, streaming: false };
    default:
      return { id: `i${i}`, kind: 'notice', level: 'info', text: `Note ${i}` };
  }
}

/** The host's view state with an `items`-long transcript, mid-planning. */
export function panelState(items) {
  return {
    lifecycle: { state: 'planning', mode: 'plan', busy: true },
    flags: { hasApiKey: true, trusted: true },
    transcript: Array.from({ length: items }, (_, i) => item(i)),
    tracker: null,
    budget: {
      toolCalls: { used: 40, max: 120 },
      loops: { used: 20, max: 60 },
      previewBytes: { used: 40_000, max: 98_304 },
      blockedCalls: { consecutive: 0, total: 1, fuse: 32 },
      tokens: { input: 90_000, output: 12_000, cap: 200_000 },
      contextPercent: 45,
    },
    gate: null,
    interview: null,
    enterPlanning: null,
    grantMore: null,
    handoff: null,
    notices: [],
  };
}
