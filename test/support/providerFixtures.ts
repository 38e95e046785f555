/**
 * Chunk sequences in the shapes real providers stream, and request checks that fail the way the
 * real API does when a required round-trip field is missing. Each fixture names where its shape
 * comes from; the text inside is ours (short, so tests stay readable).
 */
import type { RecordedRequest } from './scriptedServer';
import { envelope, sse } from './scriptedServer';
import type { ScriptedTurn } from './scriptedServer';

type Rec = Record<string, unknown>;

const delta = (d: Rec, finish: string | null = null, model = 'scripted-model') => ({
  ...envelope([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]),
  model,
});

/** The assistant messages after the last user message: the "current turn" providers validate. */
export function currentTurnAssistants(req: RecordedRequest): Rec[] {
  const msgs = req.body.messages;
  let lastUser = -1;
  msgs.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  return msgs.slice(lastUser + 1).filter((m) => m.role === 'assistant');
}

// ---- DeepSeek thinking mode with tools ------------------------------------------------------
// Source: https://api-docs.deepseek.com/guides/thinking_mode ("Tool calls" section): in thinking
// mode `reasoning_content` streams beside `content`; "for turns that do perform tool calls, the
// reasoning_content must be fully passed back to the API in all subsequent requests … the API will
// return a 400 error". Error text as reported in anomalyco/opencode#24722 and issue 14's recording.

export const DEEPSEEK_MODEL = 'deepseek-v4-pro';
export const DEEPSEEK_MISSING = 'The reasoning_content in the thinking mode must be passed back to the API.';

export function deepseekToolTurn(reasoning: string, call: { id: string; name: string; args: Rec }): ScriptedTurn {
  const args = JSON.stringify(call.args);
  return sse.turn(
    delta({ role: 'assistant', content: null, reasoning_content: '' }, null, DEEPSEEK_MODEL),
    ...[reasoning.slice(0, 9), reasoning.slice(9)].map((r) => delta({ reasoning_content: r }, null, DEEPSEEK_MODEL)),
    delta(
      {
        tool_calls: [
          { index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: args.slice(0, 5) } },
        ],
      },
      null,
      DEEPSEEK_MODEL,
    ),
    delta({ tool_calls: [{ index: 0, function: { arguments: args.slice(5) } }] }, null, DEEPSEEK_MODEL),
    delta({ content: null }, 'tool_calls', DEEPSEEK_MODEL),
    sse.usage(120, 30),
  );
}

export function deepseekTextTurn(reasoning: string, text: string): ScriptedTurn {
  return sse.turn(
    delta({ role: 'assistant', content: null, reasoning_content: reasoning }, null, DEEPSEEK_MODEL),
    delta({ content: text }, null, DEEPSEEK_MODEL),
    delta({}, 'stop', DEEPSEEK_MODEL),
    sse.usage(200, 40),
  );
}

/** DeepSeek's check: every assistant message with tool calls carries the reasoning it was sent with. */
export function deepseekCheck(req: RecordedRequest, expected: ReadonlyMap<string, string>): ScriptedTurn | undefined {
  for (const m of req.body.messages) {
    if (m.role !== 'assistant' || !Array.isArray(m.tool_calls)) continue;
    const id = String((m.tool_calls[0] as Rec | undefined)?.id ?? '');
    if (m.reasoning_content !== expected.get(id)) {
      return sse.httpError(400, DEEPSEEK_MISSING, { type: 'invalid_request_error', code: 'invalid_request_error' });
    }
  }
  return undefined;
}

// ---- Gemini 3 thought signatures -------------------------------------------------------------
// Source: https://ai.google.dev/gemini-api/docs/thought-signatures (OpenAI compatibility): each
// function call carries `extra_content.google.thought_signature`; in parallel calls only the first
// call has one; the current turn's calls must come back with them or the API answers 400.
// Error text: discuss.ai.google.dev thread "OpenAI API compatibility broken due to thought_signature
// on gemini-3-pro-preview" (array body, `INVALID_ARGUMENT`).

export const GEMINI_MODEL = 'gemini-3-pro-preview';

export function geminiParallelCalls(
  signature: string,
  calls: readonly { id: string; name: string; args: Rec }[],
): ScriptedTurn {
  return sse.turn({
    ...envelope([
      {
        index: 0,
        delta: {
          role: 'assistant',
          tool_calls: calls.map((c, i) => ({
            ...(i === 0 ? { extra_content: { google: { thought_signature: signature } } } : {}),
            function: { arguments: JSON.stringify(c.args), name: c.name },
            id: c.id,
            type: 'function',
          })),
        },
        finish_reason: 'tool_calls',
      },
    ]),
    model: GEMINI_MODEL,
    usage: { completion_tokens: 40, prompt_tokens: 300, total_tokens: 340 },
  });
}

export function geminiMissingSignature(name: string, position: number): ScriptedTurn {
  return {
    status: 400,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([
      {
        error: {
          code: 400,
          message:
            `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, ` +
            `and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , ` +
            `position ${position}. please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
          status: 'INVALID_ARGUMENT',
        },
      },
    ]),
  };
}

/** Gemini's check: the first call of each assistant message in the current turn has its signature; no other call has one. */
export function geminiCheck(req: RecordedRequest, expected: ReadonlyMap<string, string>): ScriptedTurn | undefined {
  let position = 1;
  for (const m of currentTurnAssistants(req)) {
    const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []) as Rec[];
    for (const [i, c] of calls.entries()) {
      position++;
      const sig = ((c.extra_content as Rec | undefined)?.google as Rec | undefined)?.thought_signature;
      const want = i === 0 ? expected.get(String(c.id)) : undefined;
      if (sig !== want) return geminiMissingSignature(String((c.function as Rec).name), position);
    }
  }
  return undefined;
}

// ---- Inline and part-shaped reasoning --------------------------------------------------------

/**
 * MiniMax-M2 through its OpenAI-compatible API, without `reasoning_split`: the thinking arrives
 * inside `content` wrapped in `<think>…</think>` (vLLM's MiniMaxM2AppendThinkReasoningParser,
 * https://docs.vllm.ai/en/latest/api/vllm/reasoning/minimax_m2_reasoning_parser/, passes it on in
 * content the same way), and some gateways also copy it into `delta.reasoning` (issue 14's
 * recording). The tags are split across chunks here on purpose.
 */
export function minimaxInlineThink(thinking: string, answer: string, alsoInField: boolean): ScriptedTurn {
  const content = `<think>\n${thinking}\n</think>\n\n${answer}`;
  const cuts = [3, 11, content.indexOf('</th') + 2, content.indexOf('</think>') + 8];
  const pieces = cuts.map((c, i) => content.slice(i === 0 ? 0 : cuts[i - 1], c)).concat(content.slice(cuts.at(-1)));
  return sse.turn(
    delta({ role: 'assistant', content: '' }, null, 'MiniMax-M2'),
    ...(alsoInField ? [delta({ reasoning: thinking }, null, 'MiniMax-M2')] : []),
    ...pieces.filter(Boolean).map((p) => delta({ content: p }, null, 'MiniMax-M2')),
    delta({}, 'stop', 'MiniMax-M2'),
    sse.usage(80, 20),
  );
}

/**
 * Gemini through its OpenAI-compatible endpoint with `include_thoughts: true`
 * (https://ai.google.dev/gemini-api/docs/openai, "Thinking"): thought summaries come inside the
 * content, in `<thought>` tags, before the answer.
 */
export function geminiThoughtTags(thought: string, answer: string): ScriptedTurn {
  return sse.turn(
    delta({ role: 'assistant', content: `<thou` }, null, GEMINI_MODEL),
    delta({ content: `ght>${thought}</tho` }, null, GEMINI_MODEL),
    delta({ content: `ught>${answer}` }, null, GEMINI_MODEL),
    delta({}, 'stop', GEMINI_MODEL),
  );
}

/**
 * Mistral's magistral: `delta.content` is a list of chunks, `{type: "thinking", thinking: [{type:
 * "text", text}]}` then `{type: "text", text}` (Mistral's ThinkChunk schema, see the
 * mistral-openapi `ThinkChunk` model and braintrustdata/braintrust-sdk-javascript#1857, which
 * found these chunks silently dropped).
 */
export function magistralThinkingParts(thinking: string, answer: string): ScriptedTurn {
  return sse.turn(
    delta(
      { role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: thinking.slice(0, 6) }] }] },
      null,
      'magistral-medium-latest',
    ),
    delta(
      { content: [{ type: 'thinking', thinking: [{ type: 'text', text: thinking.slice(6) }] }] },
      null,
      'magistral-medium-latest',
    ),
    delta({ content: [{ type: 'text', text: answer }] }, null, 'magistral-medium-latest'),
    delta({}, 'stop', 'magistral-medium-latest'),
    sse.usage(60, 25),
  );
}

// ---- Errors ----------------------------------------------------------------------------------

/**
 * OpenAI's context overflow body (chathub-dev/chathub#126 quotes it whole); Azure OpenAI sends the
 * same `code`. vLLM, Ollama and llama.cpp word it differently (see `contextOverflowBodies`).
 */
export function openaiContextLengthExceeded(max: number, got: number): ScriptedTurn {
  return sse.httpError(
    400,
    `This model's maximum context length is ${max} tokens. However, your messages resulted in ${got} tokens. Please reduce the length of the messages.`,
    { type: 'invalid_request_error', code: 'context_length_exceeded' },
  );
}

/** The wordings of other servers, as their users quote them. */
export const contextOverflowBodies: readonly {
  readonly server: string;
  readonly status: number;
  readonly body: string;
}[] = [
  {
    // vLLM's OpenAI server (ruipeterpan/specreason#4).
    server: 'vLLM',
    status: 400,
    body: JSON.stringify({
      object: 'error',
      message:
        "This model's maximum context length is 8192 tokens. However, you requested 8203 tokens (7691 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
      type: 'BadRequestError',
      param: null,
      code: 400,
    }),
  },
  {
    // Ollama's OpenAI-compatible endpoint.
    server: 'Ollama',
    status: 400,
    body: JSON.stringify({
      error: {
        message: 'prompt too long; exceeded max context length by 4021 tokens',
        type: 'api_error',
        param: null,
        code: null,
      },
    }),
  },
  {
    // llama.cpp's server.
    server: 'llama.cpp',
    status: 400,
    body: JSON.stringify({
      error: {
        code: 400,
        message: 'the request exceeds the available context size, try increasing it',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 9100,
        n_ctx: 8192,
      },
    }),
  },
  {
    // Azure OpenAI: OpenAI's code, its own wording.
    server: 'Azure OpenAI',
    status: 400,
    body: JSON.stringify({
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    }),
  },
];

/** Gemini's 400 for a bad key (the OpenAI-compatible endpoint answers 400, not 401). */
export const geminiInvalidKey = (): ScriptedTurn => ({
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify([
    {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
        ],
      },
    },
  ]),
});

// ---- Groq: sends `reasoning`, refuses it back ------------------------------------------------
// Groq's reasoning models stream their thinking in `delta.reasoning` (reasoning_format "parsed"),
// and its API answers 400 when an assistant message carries it back; the wording as quoted in
// public code (`'messages.2' : for 'role:assistant' the following must be satisfied[('messages.2' :
// property 'reasoning' is unsupported, did you mean 'role'?)]`).

export const GROQ_MODEL = 'qwen/qwen3-32b';

export function groqToolTurn(reasoning: string, call: { id: string; name: string; args: Rec }): ScriptedTurn {
  return sse.turn(
    delta({ role: 'assistant', reasoning }, null, GROQ_MODEL),
    delta(
      {
        tool_calls: [
          {
            id: call.id,
            type: 'function',
            index: 0,
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          },
        ],
      },
      null,
      GROQ_MODEL,
    ),
    delta({}, 'tool_calls', GROQ_MODEL),
  );
}

/** Groq's check: no assistant message may carry `reasoning`. */
export function groqCheck(req: RecordedRequest): ScriptedTurn | undefined {
  const at = req.body.messages.findIndex((m) => m.role === 'assistant' && 'reasoning' in m);
  if (at < 0) return undefined;
  return sse.httpError(
    400,
    `'messages.${at}' : for 'role:assistant' the following must be satisfied[('messages.${at}' : property 'reasoning' is unsupported, did you mean 'role'?)]`,
    { type: 'invalid_request_error' },
  );
}
