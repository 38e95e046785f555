// The baseline for the runloop figure: the smallest agent loop a person would write with the bare
// `openai` SDK. It streams each completion, gathers the tool calls by index, runs read_file as a
// plain fs read, appends the results and asks again until the model answers without tools.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import OpenAI from 'openai';

export async function runBareLoop({ workspace, baseURL, system, tools, userText }) {
  const client = new OpenAI({ baseURL, apiKey: 'not-needed', maxRetries: 0 });
  const sdkTools = tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  const messages = [
    { role: 'system', content: system },
    { role: 'user', content: userText },
  ];
  for (;;) {
    const stream = await client.chat.completions.create({
      model: 'scripted-model',
      messages,
      tools: sdkTools,
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    const calls = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) content += delta.content;
      for (const tc of delta.tool_calls ?? []) {
        const call = (calls[tc.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.function.name += tc.function.name;
        if (tc.function?.arguments) call.function.arguments += tc.function.arguments;
      }
    }
    messages.push({ role: 'assistant', content, ...(calls.length ? { tool_calls: calls } : {}) });
    if (calls.length === 0) return { messages: messages.length };
    for (const call of calls) {
      let result;
      try {
        const args = JSON.parse(call.function.arguments);
        result = await readFile(path.join(workspace, args.path), 'utf8');
      } catch (err) {
        result = `error: ${err.message}`;
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
  }
}
