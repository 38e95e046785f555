/**
 * A loopback HTTP server for the page tests: the harness page (with a fresh CSP nonce per
 * request), the built bundle and CSS from media/, and a `/pwned` trap that counts requests an
 * injected script might make.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

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
export const THEMES = { dark: 'dark', light: 'light', hc: 'high-contrast' } as const;
export type Theme = keyof typeof THEMES;

export interface PageServer {
  origin: string;
  /** Requests to /pwned so far. */
  trapHits(): number;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  let hits = 0;
  let origin = '';
  const template = await readFile(join(__dirname, 'harness', 'index.html'), 'utf8');
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
        const nonce = randomBytes(16).toString('base64');
        const styleNonce = randomBytes(16).toString('base64');
        const html = template
          .replaceAll('{{NONCE}}', nonce)
          .replaceAll('{{STYLE_NONCE}}', styleNonce)
          .replaceAll('{{ORIGIN}}', origin)
          .replaceAll('{{THEME}}', theme)
          .replaceAll('{{THEME_CLASS}}', THEMES[theme]);
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
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
