// The scripted OpenAI-compatible server (test/support/scriptedServer.ts) in a child process of its
// own, so the loop being measured shares its event loop with nothing else, as with a remote model.
// Driven over IPC by `startScriptedServer` (serverClient.mjs). Besides answering, it records a digest
// of every request's prefix (the system message and the tools array) for the prefix-stability figure;
// it keeps only the last request body (for `requestDigest`), so memory stays flat over long runs.
import { createHash } from 'node:crypto';
import { loadTs } from './load.mjs';
import { startLockstep } from './lockstepServer.mjs';

const mod = await loadTs('scripted-server', `export { ScriptedServer, sse } from './test/support/scriptedServer';`);
const { ScriptedServer, sse } = mod;

let server;
let stats;
let lockstep;
/** The raw body of the latest chat request: in a tool loop it holds the whole thread. */
let lastBody = '';

function resetStats() {
  stats = {
    requests: 0,
    identical: 0,
    first: undefined,
    differing: [],
    withoutTools: 0,
    toolChoiceNone: 0,
    bodyBytes: 0,
    lastBodyBytes: 0,
    serverMs: 0,
  };
  lastBody = '';
}

/** Records whether this request's prefix is byte-identical (as serialised JSON) to the first request's. */
function notePrefix(body) {
  const system = JSON.stringify(body.messages?.[0] ?? null);
  const tools = JSON.stringify(body.tools ?? null);
  if (body.tools === undefined) stats.withoutTools++;
  if (body.tool_choice === 'none') stats.toolChoiceNone++;
  if (stats.first === undefined) stats.first = { system, tools };
  const sameSystem = system === stats.first.system;
  const sameTools = tools === stats.first.tools;
  if (sameSystem && sameTools) stats.identical++;
  else if (stats.differing.length < 20) {
    stats.differing.push({
      n: stats.requests,
      system: sameSystem ? 'same' : 'changed',
      tools: sameTools ? 'same' : 'changed',
    });
  }
  stats.requests++;
}

/**
 * `toolLoop`: request k < turns asks for read_file of src/f<k mod files>.ts; then `final`.
 * `calls`: request k < calls.length asks for the one tool call `calls[k]` (`{ name, args }`); then `final`.
 * `planning`: each request with tools on offer takes the next of `steps` (`{ tools: [...] }` or
 * `{ text }`); a tool-free request (a synthesis pass) gets `final` without taking a step, and so
 * does any request once the steps run out.
 */
function scriptFor(scenario) {
  let next = 0;
  return (record) => {
    const k = stats.requests;
    notePrefix(record.body);
    stats.bodyBytes += Buffer.byteLength(record.rawBody);
    stats.lastBodyBytes = Buffer.byteLength(record.rawBody);
    lastBody = record.rawBody;
    server.requests.length = 0; // no request bodies are kept: memory stays flat over 1,000 turns
    const toolFree = record.body.tools === undefined || record.body.tool_choice === 'none';
    if (scenario.kind === 'calls') {
      if (k >= scenario.calls.length) return sse.textTurn(scenario.final);
      const c = scenario.calls[k];
      return sse.toolTurn([{ id: `call_${k}`, name: c.name, args: c.args }]);
    }
    if (scenario.kind === 'toolLoop') {
      if (k >= scenario.turns) return sse.textTurn(scenario.final);
      return sse.toolTurn([{ id: `call_${k}`, name: 'read_file', args: { path: `src/f${k % scenario.files}.ts` } }]);
    }
    if (toolFree) return sse.textTurn(scenario.final);
    const step = scenario.steps[next++];
    if (step === undefined) return sse.textTurn(scenario.final);
    if (step.text !== undefined) return sse.textTurn(step.text);
    return sse.toolTurn(step.tools.map((t, i) => ({ id: `call_${k}_${i}`, name: t.name, args: t.args })));
  };
}

process.on('message', async (msg) => {
  try {
    if (msg.cmd === 'start') {
      await server?.close();
      resetStats();
      server = await ScriptedServer.start(scriptFor(msg.scenario));
      // Time from a request's arrival to its last byte sent: the server's share of each round trip.
      server.server.on('request', (_req, res) => {
        const start = performance.now();
        res.on('finish', () => (stats.serverMs += performance.now() - start));
      });
      process.send({ ok: true, baseURL: server.baseURL });
    } else if (msg.cmd === 'lockstep') {
      await lockstep?.close();
      lockstep = await startLockstep(msg.scenario, sse);
      process.send({ ok: true, baseURLs: lockstep.baseURLs });
    } else if (msg.cmd === 'lockstepStats') {
      process.send({ ok: true, stats: lockstep.stats() });
    } else if (msg.cmd === 'stats') {
      const { first: _first, ...rest } = stats;
      // SHA-256 of the last request, so two clients' runs can be shown to send the same requests.
      const requestDigest = createHash('sha256').update(lastBody).digest('hex');
      process.send({ ok: true, stats: { ...rest, requestDigest, exhausted: server?.exhausted.length ?? 0 } });
    } else if (msg.cmd === 'stop') {
      await server?.close();
      await lockstep?.close();
      process.send({ ok: true });
      process.disconnect();
    }
  } catch (err) {
    process.send({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
process.send({ ok: true, ready: true });
