// The runloop figure's server: two clients run the same scripted tool loop in lockstep, one turn
// each in turn, so that whatever else the machine is doing falls on both alike.
//
// Each client has its own base URL (`/planwise/v1`, `/bare/v1`) and gets the toolLoop script:
// request k < turns asks for read_file of src/f<k mod files>.ts, request `turns` gets `final`. Only
// one party is busy at any moment: the server answering one side's request, or that side working
// on the answer (its tool call, its next request). A side's next request is held until the other
// side has sent its own next request (or has finished), so the turns alternate A, B, A, B, ...
//
// A side's time is what it was busy: from the release of each of its requests to the arrival of
// its next one (the answer as sent and read, then the client's own work, upload included). Time
// spent held while the other side works is not counted. Its last turn ends with the final answer
// (the session-end work after it is not timed).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

export const SIDES = ['planwise', 'bare'];

/** The SSE pieces of one scripted turn, as the scripted server sends them. */
function pieces(turn) {
  return [...turn.chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'];
}

const write = (res, piece) => new Promise((resolve) => res.write(piece, () => resolve()));

/**
 * Starts a lockstep server for `scenario` ({ turns, files, final, first }) on 127.0.0.1, with the
 * chunk builders `sse` of the scripted server. Resolves with its base URLs, its statistics and close.
 */
export async function startLockstep(scenario, sse) {
  const now = () => performance.now();
  const side = Object.fromEntries(
    SIDES.map((s) => [
      s,
      { arrived: 0, answered: 0, busyMs: 0, releasedAt: 0, done: false, held: undefined, bytes: 0, last: '' },
    ]),
  );
  const other = (s) => (s === SIDES[0] ? SIDES[1] : SIDES[0]);
  let turnOf = scenario.first ?? SIDES[0];

  const release = (s) => {
    const me = side[s];
    const held = me.held;
    if (held === undefined) return;
    me.held = undefined;
    me.releasedAt = now();
    held();
  };
  /** The side whose turn it is may go; a side whose partner has finished always may. */
  const pump = () => {
    if (side[turnOf].done) turnOf = other(turnOf);
    release(turnOf);
  };

  const answer = async (s, k, res) => {
    const turn =
      k >= scenario.turns
        ? sse.textTurn(scenario.final)
        : sse.toolTurn([{ id: `call_${k}`, name: 'read_file', args: { path: `src/f${k % scenario.files}.ts` } }]);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.flushHeaders();
    for (const piece of pieces(turn)) await write(res, piece);
    res.end();
    await new Promise((resolve) => (res.writableFinished ? resolve() : res.once('finish', resolve)));
    const me = side[s];
    me.answered++;
    if (k >= scenario.turns) {
      me.busyMs += now() - me.releasedAt;
      me.done = true;
      turnOf = other(s);
      pump();
    }
  };

  const server = createServer(async (req, res) => {
    const s = SIDES.find((x) => req.url === `/${x}/v1/chat/completions`);
    const parts = [];
    for await (const part of req) parts.push(part);
    if (s === undefined || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `lockstep server: no route for ${req.method} ${req.url}` } }));
      return;
    }
    const me = side[s];
    const body = Buffer.concat(parts);
    me.bytes += body.length;
    me.last = body;
    const k = me.arrived++;
    if (k > 0) {
      // The answer before this request, and the client's work on it, end here.
      me.busyMs += now() - me.releasedAt;
      if (turnOf === s) turnOf = other(s);
    }
    await new Promise((resolve) => {
      me.held = resolve;
      pump();
    });
    await answer(s, k, res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const root = `http://127.0.0.1:${server.address().port}`;
  return {
    baseURLs: Object.fromEntries(SIDES.map((s) => [s, `${root}/${s}/v1`])),
    stats: () =>
      Object.fromEntries(
        SIDES.map((s) => [
          s,
          {
            requests: side[s].answered,
            busyMs: side[s].busyMs,
            requestBytes: side[s].bytes,
            requestDigest: createHash('sha256').update(side[s].last).digest('hex'),
          },
        ]),
      ),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
