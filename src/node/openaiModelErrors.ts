/**
 * Turns `openai` SDK and transport failures into `ModelError`s whose messages say what happened
 * and what to do, and decides which failures are worth a retry.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { ModelError } from '../core/agent/model';

/** What an error message needs to name. */
export interface ErrorContext {
  readonly baseURL: string;
  readonly model: string;
  readonly hasApiKey: boolean;
  readonly timeoutMs: number;
}

export const abortedError = (): ModelError => new ModelError('aborted', 'The model request was cancelled.');

/** `300ms`, `2s`, `1.5s`, `10min`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}min`;
  return `${Number((ms / 1000).toFixed(1))}s`;
}

const CONNECTION_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved (DNS lookup failed)',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the server closed the connection',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate does not match the host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the TLS handshake failed (is it an http:// server behind an https:// URL?)',
  EPROTO: 'the TLS handshake failed (is it an http:// server behind an https:// URL?)',
};

/** The most specific `code`/message found along an error's `cause` chain (and inside AggregateErrors). */
export function connectionReason(err: unknown): string {
  let deepest = '';
  const seen = new Set<unknown>();
  const visit = (e: unknown): string | undefined => {
    if (typeof e !== 'object' || e === null || seen.has(e)) return undefined;
    seen.add(e);
    const rec = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof rec.code === 'string' && CONNECTION_REASONS[rec.code]) return CONNECTION_REASONS[rec.code];
    if (rec.message === 'bad port') {
      return 'fetch refuses to connect to this port (it is on the blocked-ports list); run the server on another port';
    }
    if (typeof rec.message === 'string' && rec.message && !/^(fetch failed|connection error\.?)$/i.test(rec.message)) {
      deepest = typeof rec.code === 'string' ? `${rec.message} (${rec.code})` : rec.message;
    }
    const inner = [rec.cause, ...(Array.isArray(rec.errors) ? rec.errors : [])];
    for (const i of inner) {
      const found = visit(i);
      if (found) return found;
    }
    return undefined;
  };
  return visit(err) ?? (deepest || 'the connection failed');
}

/** The provider's own words from an API error, without the SDK's status prefix. */
export function providerMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | string | undefined;
  if (typeof body === 'string' && body) return body;
  if (body && typeof body === 'object' && typeof body.message === 'string' && body.message) return body.message;
  if (body && typeof body === 'object') return JSON.stringify(body);
  return err.message.replace(/^\d{3}\s+/, '').replace(/^\d{3} status code \(no body\)$/, 'no details given');
}

/** True for a 400 that says the endpoint does not accept `stream_options`. */
export function rejectsStreamOptions(err: unknown): boolean {
  return err instanceof APIError && err.status === 400 && /stream_options|include_usage/i.test(providerMessage(err));
}

export interface RetryAdvice {
  readonly retry: boolean;
  /** The server's requested wait (retry-after-ms / retry-after), when it gave a usable one. */
  readonly afterMs?: number;
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0 && ms <= 60_000) return ms;
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(raw) - Date.now();
  if (!Number.isFinite(wait)) return undefined;
  return wait >= 0 && wait <= 60_000 ? wait : wait < 0 ? 0 : undefined;
}

/** Retry 408/409/429/5xx and connection failures (not timeouts); the server's `x-should-retry` header wins. */
export function retryAdvice(err: unknown): RetryAdvice {
  if (err instanceof APIUserAbortError || err instanceof APIConnectionTimeoutError) return { retry: false };
  if (err instanceof APIConnectionError) return { retry: true };
  if (!(err instanceof APIError) || err.status === undefined) return { retry: false };
  const header = err.headers?.get('x-should-retry');
  const retry =
    header === 'true' ? true : header === 'false' ? false : [408, 409, 429].includes(err.status) || err.status >= 500;
  if (!retry) return { retry };
  const afterMs = retryAfterMs(err.headers);
  return afterMs === undefined ? { retry } : { retry, afterMs };
}

/** Maps a failure before the stream started (after any retries) to a `ModelError`. */
export function requestError(err: unknown, ctx: ErrorContext, attempts: number): ModelError {
  const { baseURL, model } = ctx;
  const tries = attempts > 1 ? ` (tried ${attempts} times)` : '';
  if (err instanceof ModelError) return err;
  if (err instanceof APIUserAbortError) return abortedError();
  if (err instanceof APIConnectionTimeoutError) {
    return new ModelError(
      'unreachable',
      `The model '${model}' at ${baseURL} did not answer within ${formatDuration(ctx.timeoutMs)}. ` +
        'Check that the server is running and not overloaded (a large local model can take long to load), or raise the timeout.',
    );
  }
  if (err instanceof APIConnectionError) {
    return new ModelError(
      'unreachable',
      `Cannot reach the model '${model}' at ${baseURL}: ${connectionReason(err)}${tries}. ` +
        'Check the base URL setting and that the server is running.',
    );
  }
  if (!(err instanceof APIError)) {
    const text = err instanceof Error ? err.message : String(err);
    return new ModelError('server', `The request to the model '${model}' at ${baseURL} failed: ${text}`);
  }
  const status = err.status;
  const said = providerMessage(err);
  if (err instanceof AuthenticationError) {
    const why = ctx.hasApiKey ? 'rejected the API key' : 'requires an API key and none is set';
    return new ModelError(
      'auth',
      `The model endpoint ${baseURL} ${why} (401: ${said}). Set the API key for this endpoint and try again.`,
      status,
    );
  }
  if (err instanceof PermissionDeniedError) {
    return new ModelError(
      'auth',
      `The model endpoint ${baseURL} refused access to the model '${model}' (403: ${said}). ` +
        'Check that the API key is allowed to use this model.',
      status,
    );
  }
  if (err instanceof NotFoundError) {
    return new ModelError(
      'bad_request',
      `The endpoint ${baseURL} answered 404 for the model '${model}' (${said}). ` +
        "Check the model name (the server's model list shows the valid ones) and that the base URL is the API root, usually ending in /v1.",
      status,
    );
  }
  if (err instanceof RateLimitError) {
    return new ModelError(
      'rate_limited',
      `The model endpoint ${baseURL} is rate-limiting requests (429: ${said})${tries}. Wait a little, then try again.`,
      status,
    );
  }
  if (status !== undefined && status >= 500) {
    return new ModelError(
      'server',
      `The model server at ${baseURL} failed with ${status} (${said})${tries}. Try again later or check the server's logs.`,
      status,
    );
  }
  return new ModelError(
    'bad_request',
    `The model endpoint ${baseURL} rejected the request for the model '${model}' (${status ?? 'no status'}: ${said}).`,
    status,
  );
}

/**
 * Maps a failure while reading the stream. Returns undefined for a transport failure (the
 * caller decides whether the stream had already finished).
 */
export function streamError(err: unknown, ctx: ErrorContext): ModelError | undefined {
  if (err instanceof ModelError) return err;
  if (err instanceof APIUserAbortError) return abortedError();
  if (err instanceof APIError && !(err instanceof APIConnectionError) && err.status === undefined) {
    return new ModelError(
      'stream',
      `The model provider reported an error mid-stream (model '${ctx.model}' at ${ctx.baseURL}): ${providerMessage(err)}`,
    );
  }
  if (err instanceof SyntaxError) {
    return new ModelError(
      'stream',
      `The model stream from ${ctx.baseURL} contained a data line that is not JSON (${err.message}). ` +
        'The endpoint may not be OpenAI-compatible, or a proxy altered the stream.',
    );
  }
  return undefined;
}
