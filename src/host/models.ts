/**
 * The models an OpenAI-compatible server offers (`GET {baseUrl}/models`), for "Select Model".
 * Uses `fetch` directly so picking a model does not load the SDK. The key travels only in the
 * Authorization header and never appears in an error message.
 */

export interface ModelListing {
  readonly ids: string[];
}

export async function listModels(
  baseUrl: string,
  apiKey: string | undefined,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<ModelListing> {
  const doFetch = options.fetch ?? fetch;
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10_000);
  let response: Response;
  try {
    response = await doFetch(url, {
      headers: { Accept: 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
      signal: controller.signal,
    });
  } catch (err) {
    const why = controller.signal.aborted
      ? 'no answer within the time limit'
      : err instanceof Error
        ? err.message
        : String(err);
    throw new Error(`Could not reach ${url}: ${why}. Check planwise.baseUrl and that the server runs.`);
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 401 || response.status === 403) {
    throw new KeyRefusedError(
      `${url} refused the request (HTTP ${response.status}): set a valid key with "Planwise: Set API Key".`,
    );
  }
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}; type the model name instead.`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new Error(`${url} did not answer with JSON; type the model name instead.`);
  }
  const data =
    (body as { data?: unknown; models?: unknown } | null)?.data ?? (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(data)) throw new Error(`${url} answered without a model list; type the model name instead.`);
  const ids = data
    .map((m) =>
      typeof m === 'string'
        ? m
        : ((m as { id?: unknown; name?: unknown } | null)?.id ?? (m as { name?: unknown } | null)?.name),
    )
    .filter((id): id is string => typeof id === 'string' && id !== '');
  return { ids: [...new Set(ids)].sort((a, b) => a.localeCompare(b)) };
}

/** The endpoint refused the model list for want of a valid key (HTTP 401 or 403). */
export class KeyRefusedError extends Error {
  override readonly name = 'KeyRefusedError';
}
