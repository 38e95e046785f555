/**
 * The fetch the `openai` SDK is given. Around the transport (`httpFetch`, no timeouts of its own)
 * it feeds the request's `RequestWatch` (headers, every body byte), notes whether a streamed body
 * ended with `data: [DONE]`, turns a plain JSON completion (an endpoint that ignored `stream: true`)
 * into a one-event stream, and reshapes error bodies the SDK cannot read (Gemini's array body,
 * vLLM's `{"object":"error","message"}`) into OpenAI's `{"error": {...}}`, so the provider's own
 * words reach the person.
 */
import type { RequestWatch } from './requestWatch';

const DONE_TAIL_BYTES = 64;

/** What the wrapper learned about one streamed response. */
export interface ResponseNotes {
  sawDone: boolean;
}

/** The per-request options the client passes through the SDK's `fetchOptions`. */
export interface WatchedInit extends RequestInit {
  planwiseWatch?: RequestWatch;
}

/** `{"error": {...}}` from the error bodies providers really send; undefined when it is already that or not JSON. */
export function normalizedErrorBody(text: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(v) && v.length > 0 && typeof v[0] === 'object' && v[0] !== null && 'error' in v[0]) {
    return JSON.stringify(v[0]);
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && !('error' in v) && 'message' in v) {
    return JSON.stringify({ error: v });
  }
  if (typeof v === 'object' && v !== null && 'error' in v && typeof (v as { error: unknown }).error === 'string') {
    return JSON.stringify({ error: { message: (v as { error: string }).error } });
  }
  return undefined;
}

export function streamFetch(
  inner: typeof fetch,
  notes: WeakMap<Response, ResponseNotes>,
  log: (line: string) => void,
  baseURL: string,
): typeof fetch {
  return (async (input: string | URL | Request, init?: WatchedInit) => {
    const watch = init?.planwiseWatch;
    let passed: RequestInit | undefined = init;
    if (init && 'planwiseWatch' in init) {
      const { planwiseWatch: _, ...rest } = init;
      passed = rest;
    }
    const response = await inner(input, passed);
    watch?.onHeaders();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const isChat = init?.method === 'POST' && /\/chat\/completions\/?$/.test(url);
    const headers = new Headers(response.headers);
    const rewrap = (body: BodyInit | null) =>
      new Response(body, { status: response.status, statusText: response.statusText, headers });
    if (!response.ok) {
      if (!/json/i.test(response.headers.get('content-type') ?? '') || !response.body) return response;
      const text = await response.text();
      return rewrap(normalizedErrorBody(text) ?? text);
    }
    if (!response.body || !isChat) return response;
    const noted: ResponseNotes = { sawDone: false };
    let body: ReadableStream<Uint8Array>;
    if (/^application\/(.+\+)?json/i.test(response.headers.get('content-type') ?? '')) {
      log(`${baseURL} answered with one JSON completion instead of a stream; reading it as one`);
      const text = await response.text();
      watch?.onBytes(Math.max(1, text.length));
      headers.set('content-type', 'text/event-stream');
      body = new Response(`data: ${text.replace(/\r?\n/g, ' ')}\n\ndata: [DONE]\n\n`).body!;
    } else {
      // One pulling stream over the body's reader: lighter per chunk than piping through a
      // TransformStream, which sets up a pipe and a second stream for every request.
      const reader = response.body.getReader();
      let tail = new Uint8Array(0);
      body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) {
            noted.sawDone = /(^|\n)data:\s?\[DONE\]\s*$/.test(new TextDecoder().decode(tail));
            controller.close();
            return;
          }
          watch?.onBytes(value.length);
          if (value.length >= DONE_TAIL_BYTES) {
            tail = value.slice(-DONE_TAIL_BYTES);
          } else {
            const joined = new Uint8Array(tail.length + value.length);
            joined.set(tail);
            joined.set(value, tail.length);
            tail = joined.slice(-DONE_TAIL_BYTES);
          }
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
    }
    const wrapped = rewrap(body);
    notes.set(wrapped, noted);
    return wrapped;
  }) as typeof fetch;
}
