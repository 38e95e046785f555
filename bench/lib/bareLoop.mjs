// The baseline for the runloop figure: the smallest agent loop a person would write with the bare
// `openai` SDK. It streams each completion, gathers the tool calls by index, runs read_file as one
// plain `fs.readFile` of the same file, appends the result and asks again until the model answers
// without tools.
//
// So that the two sides differ only in what the loop does, the bare loop sends the same requests
// as Planwise byte for byte: the same body key order, `content: null` beside tool calls, and the
// file's text in the shape Planwise's read_file returns it (a `<path> lines 1-N of N` header, then
// `<n>\t<line>`). Without that, Planwise's numbered lines alone make its requests ~12% larger, a
// difference in what the model is shown rather than in the loop. `runloop.mjs` checks the match
// (`requestDigest` of the last request, which holds the whole thread).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import OpenAI from 'openai';

/** The file's text as Planwise's read_file shows a file that fits in one page. */
function numbered(shownPath, text) {
  const lines = text === '' ? [] : text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return `${shownPath} is empty (0 lines)`;
  const body = lines.map((line, i) => `${i + 1}\t${line}`).join('\n');
  return `${shownPath} lines 1-${lines.length} of ${lines.length}\n${body}`;
}

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
      stream: true,
      stream_options: { include_usage: true },
      tools: sdkTools,
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
    if (calls.length === 0) return { messages: messages.length + 1 };
    messages.push({ role: 'assistant', content: content === '' ? null : content, tool_calls: calls });
    for (const call of calls) {
      let result;
      try {
        const args = JSON.parse(call.function.arguments);
        result = numbered(args.path, await readFile(path.join(workspace, args.path), 'utf8'));
      } catch (err) {
        result = `error: ${err.message}`;
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
  }
}
