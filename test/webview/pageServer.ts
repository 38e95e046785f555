/**
 * A loopback HTTP server for the page tests: the panel page as the host renders it
 * (`renderPanelHtml`, fresh nonces per request, the built entry module and the style sheets
 * written into the page the way the host writes them, the entry's chunks served from media/panel/) plus the theme's variables and the codicon
 * font, an optional page snapshot, and a `/pwned` trap that counts requests an injected script
 * might make.
 * The fake VS Code API comes from harness/harness.js, installed as an init script.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { readPanelAssets, panelStyles } from '../../src/host/panel/assets';
import { renderPanelHtml, type PageSnapshot } from '../../src/protocol';

const repo = resolve(__dirname, '../..');
const ROOTS: Record<string, string> = {
  '/media/': join(repo, 'media'),
  '/harness/': join(__dirname, 'harness'),
};
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
  '.html': 'text/html; charset=utf-8',
};
/** Theme name → the body class VS Code sets for it. */
export const THEMES = {
  dark: 'vscode-dark',
  light: 'vscode-light',
  hc: 'vscode-high-contrast',
  hcLight: 'vscode-high-contrast vscode-high-contrast-light',
} as const;
export type Theme = keyof typeof THEMES;

export interface PageServer {
  origin: string;
  /** Requests to /pwned so far. */
  trapHits(): number;
  /** The snapshot the next pages carry (none by default: the panel then waits for a message). */
  setPageSnapshot(snapshot: PageSnapshot | undefined): void;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  let hits = 0;
  let origin = '';
  let snapshot: PageSnapshot | undefined;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/pwned') {
        hits += 1;
        res.writeHead(204).end();
        return;
      }
      if (url.pathname === '/') {
        const theme = (url.searchParams.get('theme') ?? 'dark') as Theme;
        if (!(theme in THEMES)) {
          res.writeHead(400).end(`Unknown theme '${theme}'; use one of ${Object.keys(THEMES).join(', ')}.`);
          return;
        }
        const assets = readPanelAssets(join(repo, 'media'));
        const html = renderPanelHtml({
          cspSource: origin,
          scriptNonce: randomBytes(16).toString('base64'),
          styleNonce: randomBytes(16).toString('base64'),
          scriptUri: '/media/panel/main.js',
          // VS Code puts the theme's variables on <html>; the harness loads them as a sheet.
          styleUris: [`/harness/theme-${theme}.css`],
          styles: panelStyles(assets, `${origin}/media/codicons/codicon.ttf`),
          // The entry written into the page, as the host writes it; its chunks are fetched from /media/panel/.
          script: assets.script,
          snapshot,
          title: 'Planwise panel harness',
        });
        res.writeHead(200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-store' }).end(html);
        return;
      }
      const prefix = Object.keys(ROOTS).find((p) => url.pathname.startsWith(p));
      if (prefix) {
        const root = ROOTS[prefix]!;
        const file = normalize(join(root, decodeURIComponent(url.pathname.slice(prefix.length))));
        if (file.startsWith(root + sep)) {
          try {
            const body = await readFile(file);
            res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
            return;
          } catch {
            // fall through to 404
          }
        }
      }
      res.writeHead(404).end('not found');
    })();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    trapHits: () => hits,
    setPageSnapshot: (next) => {
      snapshot = next;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
