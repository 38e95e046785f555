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
import { ModelError } from '../core/api/ports';
import { clause, parenthetical, sentence } from './messageText';
import type { FiredTimeout } from './requestWatch';

/** What an error message needs to name. */
export interface ErrorContext {
  readonly baseURL: string;
  readonly model: string;
  readonly hasApiKey: boolean;
  /** What the host tells the person to do about a rejected or missing key (a setting, a variable). */
  readonly authAdvice?: string;
}

/** The longest `Retry-After` Planwise waits out; a server asking for more gets a clear message instead. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** How to raise each timeout, in both hosts. */
export const TIMEOUT_SETTINGS = {
  'first-byte': 'planwise.request.firstByteTimeoutSeconds (CLI: --first-byte-timeout SECONDS)',
  idle: 'planwise.request.idleTimeoutSeconds (CLI: --idle-timeout SECONDS)',
} as const;

/** Says which timeout fired, after how long, what had arrived, and which setting raises it. */
export function timeoutError(fired: FiredTimeout, ctx: ErrorContext): ModelError {
  const who = `The model '${ctx.model}' at ${ctx.baseURL}`;
  const limit = formatDuration(fired.limitMs);
  if (fired.kind === 'first-byte') {
    const what =
      fired.headersAfterMs === undefined
        ? `did not answer within ${limit} (no response at all)`
        : `sent response headers after ${formatDuration(fired.headersAfterMs)} but no data within ${limit}`;
    return new ModelError(
      'timeout',
      `${who} ${what}: the first-byte timeout fired. A large local model can take minutes to load; ` +
        `to wait longer, raise ${TIMEOUT_SETTINGS['first-byte']}.`,
    );
  }
  return new ModelError(
    'timeout',
    `${who} stopped sending in the middle of its answer: nothing for ${limit} after ${fired.bytes} bytes, so the idle-stream timeout fired. ` +
      `Try again; to wait longer between chunks, raise ${TIMEOUT_SETTINGS.idle}.`,
  );
}

/** The wordings of a request that did not fit the context window (OpenAI/Azure, vLLM, Ollama, llama.cpp, others). */
const CONTEXT_OVERFLOW =
  /context_length_exceeded|maximum context length|exceeded max context length|exceeds the available context size|exceed_context_size_error|context window exceeds|prompt is too long|input is too long for|too large for model with|longer than the model's context length|reduce the length of the messages/i;

export function isContextOverflow(text: string): boolean {
  return CONTEXT_OVERFLOW.test(text);
}

/** A 400 whose body says the key is wrong (Gemini's API_KEY_INVALID, OpenAI-style gateways). */
const INVALID_KEY = /API_KEY_INVALID|invalid_api_key|Incorrect API key|API key not valid|invalid x-api-key/i;

/** The whole error body as text, for pattern checks (code, type and message, wherever they are). */
function bodyText(err: APIError): string {
  const parts = [
    err.message,
    typeof err.code === 'string' ? err.code : '',
    typeof err.type === 'string' ? err.type : '',
  ];
  try {
    parts.push(JSON.stringify(err.error ?? ''));
  } catch {
    // a body that cannot be stringified adds nothing
  }
  return parts.join(' ');
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
  return visit(err) ?? (clause(deepest) || 'the connection failed');
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
  /** The server's requested wait (retry-after-ms / retry-after), when it gave one. */
  readonly afterMs?: number;
  /** What failed, for the retry event and the log, e.g. `the endpoint answered 429`. */
  readonly reason?: string;
}

/**
 * The server's requested wait: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date
 * (a date in the past means now). Undefined when it gave none that can be read.
 */
export function retryAfterMs(headers: Headers | undefined, now: () => number = Date.now): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(raw) - now();
  if (!Number.isFinite(wait)) return undefined;
  return Math.max(0, wait);
}

/** `2 s`, `2 min`, `90 s`: a wait as the person reads it. */
export function formatWait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}

/**
 * Retry 408/409/429/5xx and connection failures (not timeouts); the server's `x-should-retry`
 * header wins. A server asking to wait longer than `MAX_RETRY_AFTER_MS` is not retried: the
 * person is told to come back later.
 */
export function retryAdvice(err: unknown, now: () => number = Date.now): RetryAdvice {
  if (err instanceof APIUserAbortError || err instanceof APIConnectionTimeoutError) return { retry: false };
  if (err instanceof APIConnectionError)
    return { retry: true, reason: `the endpoint could not be reached (${parenthetical(connectionReason(err))})` };
  if (!(err instanceof APIError) || err.status === undefined) return { retry: false };
  const header = err.headers?.get('x-should-retry');
  const retry =
    header === 'true' ? true : header === 'false' ? false : [408, 409, 429].includes(err.status) || err.status >= 500;
  if (!retry) return { retry };
  const afterMs = retryAfterMs(err.headers, now);
  const reason =
    `the endpoint answered ${err.status}` + (afterMs !== undefined ? ` and asked to wait ${formatWait(afterMs)}` : '');
  if (afterMs !== undefined && afterMs > MAX_RETRY_AFTER_MS) return { retry: false, afterMs, reason };
  return afterMs === undefined ? { retry, reason } : { retry, afterMs, reason };
}

/** Maps a failure before the stream started (after any retries) to a `ModelError`. */
export function requestError(err: unknown, ctx: ErrorContext, attempts: number): ModelError {
  const { baseURL, model } = ctx;
  const tries = attempts > 1 ? ` (tried ${attempts} times)` : '';
  if (err instanceof ModelError) return err;
  if (err instanceof APIUserAbortError) return abortedError();
  if (err instanceof APIConnectionError) {
    return new ModelError(
      'unreachable',
      `Cannot reach the model '${model}' at ${baseURL}: ${connectionReason(err)}${tries}. ` +
        'Check the base URL setting and that the server is running.',
    );
  }
  if (!(err instanceof APIError)) {
    const text = err instanceof Error ? err.message : String(err);
    return new ModelError(
      'server',
      `The request to the model '${model}' at ${baseURL} failed: ${sentence(clause(text))}`,
    );
  }
  const status = err.status;
  // The provider's words sit inside our parentheses: flat, without their own final full stop.
  const said = parenthetical(providerMessage(err)) || 'no details given';
  if (status === 400 || status === 413) {
    const text = bodyText(err);
    if (isContextOverflow(text)) {
      return new ModelError(
        'context_length',
        `The request to the model '${model}' at ${baseURL} did not fit its context window (${status}: ${said}).`,
        status,
      );
    }
    if (INVALID_KEY.test(text)) {
      return new ModelError(
        'auth',
        `The model endpoint ${baseURL} rejected the API key (${status}: ${said}). ${ctx.authAdvice ?? 'Set the API key for this endpoint and try again.'}`,
        status,
      );
    }
  }
  if (err instanceof AuthenticationError) {
    const why = ctx.hasApiKey ? 'rejected the API key' : 'requires an API key and none is set';
    return new ModelError(
      'auth',
      `The model endpoint ${baseURL} ${why} (401: ${said}). ${ctx.authAdvice ?? 'Set the API key for this endpoint and try again.'}`,
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
  const asked = retryAfterMs(err.headers);
  if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
    return new ModelError(
      status === 429 ? 'rate_limited' : 'server',
      `The model endpoint ${baseURL} answered ${status} (${said}) and asked to wait ${formatWait(asked)}, ` +
        `longer than Planwise waits (${formatWait(MAX_RETRY_AFTER_MS)}). Try again after that.`,
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
    const said = parenthetical(providerMessage(err)) || 'no details given';
    return new ModelError(
      isContextOverflow(bodyText(err)) ? 'context_length' : 'stream',
      `The model provider reported an error mid-stream (model '${ctx.model}' at ${ctx.baseURL}): ${said}.`,
    );
  }
  if (err instanceof SyntaxError) {
    return new ModelError(
      'stream',
      `The model stream from ${ctx.baseURL} contained a data line that is not JSON (${parenthetical(err.message)}). ` +
        'The endpoint may not be OpenAI-compatible, or a proxy altered the stream.',
    );
  }
  return undefined;
}
