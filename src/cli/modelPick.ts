/**
 * `planwise plan` with no --model and no PLANWISE_MODEL: ask the endpoint which models it serves
 * (`GET /models`, one short request) and plan with one of them, preferring a coding model. When no
 * server answers, say in two lines how to point the CLI at one.
 */
import { connectionReason } from '../node/openaiModelErrors';
import { parenthetical } from '../node/messageText';

export type ModelPick = { readonly model: string; readonly offered: number } | { readonly error: string };

const HOW_TO =
  'Start a local server with a model (ollama serve, then ollama pull qwen2.5-coder:7b), or point the CLI at one: ' +
  'OPENAI_BASE_URL=… OPENAI_API_KEY=… PLANWISE_MODEL=… (or --base-url and --model).';

export async function pickModel(
  baseURL: string,
  apiKey: string | undefined,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<ModelPick> {
  const doFetch = options.fetch ?? fetch;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 5000);
  let ids: string[];
  try {
    const response = await doFetch(`${baseURL}/models`, {
      headers: { Accept: 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
      signal: controller.signal,
    });
    if (!response.ok) {
      return {
        error: `the model server at ${baseURL} answered ${response.status} to its model list.\n${HOW_TO}`,
      };
    }
    const body = (await response.json()) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] };
    ids = [...(body.data ?? []).map((m) => m.id), ...(body.models ?? []).map((m) => m.name)].filter(
      (id): id is string => typeof id === 'string' && id !== '',
    );
  } catch (err) {
    const why = controller.signal.aborted ? 'no answer within 5 s' : parenthetical(connectionReason(err));
    return { error: `no model server answered at ${baseURL} (${why}).\n${HOW_TO}` };
  } finally {
    clearTimeout(timer);
  }
  if (ids.length === 0) return { error: `the model server at ${baseURL} lists no models.\n${HOW_TO}` };
  const model = ids.find((id) => /coder|code/i.test(id)) ?? ids[0]!;
  return { model, offered: ids.length };
}
