// Starts lib/serverProcess.mjs and talks to it: one request at a time, one answer each.
import { fork } from 'node:child_process';
import path from 'node:path';

export async function startScriptedServer() {
  const child = fork(path.join(path.dirname(new URL(import.meta.url).pathname), 'serverProcess.mjs'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = [];
  const waiting = [];
  let failure;
  child.on('message', (m) => (waiting.length ? waiting.shift().resolve(m) : replies.push(m)));
  child.on('exit', (code) => {
    failure = new Error(`the scripted server process exited (code ${code})`);
    for (const w of waiting.splice(0)) w.reject(failure);
  });
  const next = () =>
    replies.length
      ? Promise.resolve(replies.shift())
      : failure
        ? Promise.reject(failure)
        : new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  const ask = async (msg) => {
    child.send(msg);
    const reply = await next();
    if (!reply.ok) throw new Error(`scripted server: ${reply.error}`);
    return reply;
  };
  await next(); // ready
  return {
    /** Starts a fresh server for `scenario`; resolves with its base URL. */
    start: async (scenario) => (await ask({ cmd: 'start', scenario })).baseURL,
    /** Starts a fresh lockstep server (lockstepServer.mjs); resolves with `{ planwise, bare }` base URLs. */
    lockstep: async (scenario) => (await ask({ cmd: 'lockstep', scenario })).baseURLs,
    /** Per side: requests answered, time busy, request bytes and the last request's SHA-256. */
    lockstepStats: async () => (await ask({ cmd: 'lockstepStats' })).stats,
    /** Prefix statistics of the requests since the last start. */
    stats: async () => (await ask({ cmd: 'stats' })).stats,
    close: async () => {
      if (failure) return;
      await ask({ cmd: 'stop' }).catch(() => undefined);
      child.kill();
    },
  };
}
