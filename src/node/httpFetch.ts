/**
 * A `fetch` over `node:http`/`node:https` with no timeouts of its own. Node's built-in fetch
 * (undici) gives up on its own after 300 s without headers or between body bytes, before the
 * timeouts Planwise enforces and names (first byte, idle stream); the person could not raise it.
 * This one waits as long as the caller's AbortSignal lets it, and Planwise's timers abort it.
 *
 * Enough of fetch for the `openai` SDK: string or byte bodies, any method, the response body as a
 * web stream, gzip/deflate/br decoded, connection errors with their Node `code` kept on the
 * rejection (so "connection refused" stays nameable), aborts as `AbortError`. No redirects (an API
 * root does not redirect). Other bodies (FormData, streams) go to the global fetch.
 *
 * Why not undici's `Agent` with `headersTimeout: 0`: bundled, undici is about 0.5 MB minified, as
 * big as the whole extension; `node:http` is already there (and VS Code's proxy support hooks it).
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error('The operation was aborted.');
  err.name = 'AbortError';
  return err;
}

function decoded(res: http.IncomingMessage): { stream: Readable; decodedFrom?: string } {
  const enc = String(res.headers['content-encoding'] ?? '')
    .toLowerCase()
    .trim();
  if (enc === 'gzip' || enc === 'x-gzip') return { stream: res.pipe(zlib.createGunzip()), decodedFrom: enc };
  if (enc === 'deflate') return { stream: res.pipe(zlib.createInflate()), decodedFrom: enc };
  if (enc === 'br') return { stream: res.pipe(zlib.createBrotliDecompress()), decodedFrom: enc };
  return { stream: res };
}

export interface HttpFetchOptions {
  /** Keep connections open between requests (default true): a tool loop makes many. */
  readonly keepAlive?: boolean;
}

export function createHttpFetch(options: HttpFetchOptions = {}): typeof fetch {
  const keepAlive = options.keepAlive ?? true;
  const agents = { http: new http.Agent({ keepAlive }), https: new https.Agent({ keepAlive }) };
  const httpFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const body = init.body;
    if (input instanceof Request || (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))) {
      return globalThis.fetch(input, init);
    }
    const url = new URL(input instanceof URL ? input.href : input);
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, key) => (headers[key] = value));
      headers['accept-encoding'] ??= 'gzip, deflate, br';
      const secure = url.protocol === 'https:';
      const req = (secure ? https : http).request(
        url,
        { method: (init.method ?? 'GET').toUpperCase(), headers, agent: secure ? agents.https : agents.http },
        (res) => {
          const status = res.statusCode ?? 0;
          const { stream, decodedFrom } = decoded(res);
          const out = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          if (decodedFrom) {
            out.delete('content-encoding');
            out.delete('content-length');
          }
          if (stream !== res) res.on('error', (err) => stream.destroy(err));
          const empty = status === 204 || status === 304 || init.method?.toUpperCase() === 'HEAD';
          if (empty) res.resume();
          const webBody = empty ? null : (Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>);
          try {
            resolve(new Response(webBody, { status, statusText: res.statusMessage ?? '', headers: out }));
          } catch (err) {
            res.destroy();
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        },
      );
      const onAbort = () => req.destroy(abortError(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => signal?.removeEventListener('abort', onAbort));
      req.on('error', (err) => reject(err));
      req.end(body ?? undefined);
    });
  };
  return httpFetch as typeof fetch;
}
