// Figure: Planwise and its peers side by side, from the same run.
//
// Method: each peer is installed on demand from npm, at a pinned version, into the git-ignored
// .bench-cache/peers/ (never a dependency of Planwise). Each agent, Planwise included, runs one
// headless turn in its plan or read-only mode with the same one-line task, in a fresh HOME and a
// small temporary workspace, against a scripted local server speaking its wire format
// (bench/lib/peerServer.mjs: OpenAI chat, Gemini streamGenerateContent, the Responses API), which
// answers every model request with one short text. From the first model request that offers tools:
// the prompt overhead (system prompt + tool schemas as sent, in o200k tokens, gpt-tokenizer), the
// number of tools and the request's body bytes. Also: `--version` wall time (median of 5) and the
// peak RSS of the one-turn run (GNU time's maximum resident set size). An agent that cannot be
// driven is shown as `not measured: <reason>`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { figureMain, log, measured, oneLine } from './lib/figure.mjs';
import { repoRoot } from './lib/load.mjs';
import { stagedProductionBuild } from './lib/stage.mjs';
import { startPeerServer } from './lib/peerServer.mjs';
import { formatCount, median, round } from './lib/stats.mjs';

const TASK = 'Explain in two sentences what README.md says. Make no changes.';
const CACHE = path.join(repoRoot, '.bench-cache', 'peers');
const RUN_TIMEOUT_MS = 120_000;

/** The peers, pinned. `args`/`env` drive one headless turn in plan / read-only mode. */
export const PEERS = [
  {
    id: 'qwen',
    name: 'Qwen Code',
    pkg: '@qwen-code/qwen-code',
    version: '0.24.4',
    bin: 'qwen',
    wire: 'openai-chat',
    args: (url) => [
      '-p',
      TASK,
      '--approval-mode',
      'plan',
      '--auth-type',
      'openai',
      '--openai-base-url',
      `${url}/v1`,
      '--openai-api-key',
      'bench',
      '--model',
      'bench',
    ],
    env: () => ({}),
    how: '`qwen -p <task> --approval-mode plan --auth-type openai --openai-base-url <server>/v1 --model bench`',
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    wire: 'gemini',
    args: () => ['-p', TASK, '--approval-mode', 'plan'],
    env: (url) => ({ GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: url }),
    // A fresh HOME has no auth choice and no folder trust: the API key, and trust off (so plan mode holds).
    setup: (home) => {
      mkdirSync(path.join(home, '.gemini'), { recursive: true });
      writeFileSync(
        path.join(home, '.gemini', 'settings.json'),
        JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } } }),
      );
    },
    how: '`gemini -p <task> --approval-mode plan` with GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL=<server>, auth gemini-api-key and folder trust off in ~/.gemini/settings.json',
  },
  {
    id: 'codex',
    name: 'Codex',
    pkg: '@openai/codex',
    version: '0.171.0',
    bin: 'codex',
    wire: 'responses',
    args: (url) => [
      'exec',
      '--sandbox',
      'read-only',
      '--skip-git-repo-check',
      '-c',
      'model_provider="bench"',
      '-c',
      `model_providers.bench={ name = "bench", base_url = "${url}/v1", wire_api = "responses", env_key = "BENCH_API_KEY" }`,
      '-m',
      'bench',
      TASK,
    ],
    env: () => ({ BENCH_API_KEY: 'bench' }),
    how: '`codex exec --sandbox read-only` with a custom model provider (`wire_api = "responses"`, base_url <server>/v1)',
  },
  {
    id: 'cline',
    name: 'Cline CLI',
    pkg: 'cline',
    version: '3.0.65',
    bin: 'cline',
    wire: 'openai-chat',
    args: () => ['--plan', '--json', TASK],
    env: () => ({}),
    // The provider is configured by its own `auth` command, into the fresh HOME's ~/.cline.
    prepare: async ({ bin, url, env, cwd }) => {
      const r = await runProcess(bin, ['auth', '-p', 'openai', '-k', 'bench', '-m', 'bench', '-b', `${url}/v1`], {
        env,
        cwd,
        timeoutMs: 60_000,
      });
      if (r.code !== 0) return `cline auth exited ${r.code}: ${oneLine(r.err || r.out || '')}`;
      return undefined;
    },
    how: '`cline auth -p openai -k bench -m bench -b <server>/v1` (the openai-compatible provider), then `cline --plan --json <task>`',
  },
];

const tokens = (text) => (text ? encode(text).length : 0);
const textOf = (content) =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => p?.text ?? '').join('\n') : '';

/** System prompt, tool schemas and tool count of one model request, by wire format. */
function promptOf(wire, body) {
  if (wire === 'openai-chat') {
    const system = (body.messages ?? [])
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => textOf(m.content));
    return { system: system.join('\n'), tools: JSON.stringify(body.tools ?? []), toolCount: (body.tools ?? []).length };
  }
  if (wire === 'gemini') {
    const system = textOf(body.systemInstruction?.parts ?? body.system_instruction?.parts ?? []);
    const decls = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? t.function_declarations ?? []);
    return { system, tools: JSON.stringify(body.tools ?? []), toolCount: decls.length };
  }
  const input = Array.isArray(body.input) ? body.input : [];
  const system = [
    body.instructions ?? '',
    ...input.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content)),
  ];
  return {
    system: system.filter(Boolean).join('\n'),
    tools: JSON.stringify(body.tools ?? []),
    toolCount: (body.tools ?? []).length,
  };
}

const MODEL_PATH = {
  'openai-chat': /\/chat\/completions/,
  gemini: /:(stream)?[gG]enerateContent/,
  responses: /\/responses/,
};

function install(peer) {
  const dir = path.join(CACHE, `${peer.pkg.replace(/[@/]/g, '_')}_${peer.version}`);
  const bin = path.join(dir, 'node_modules', '.bin', peer.bin);
  if (existsSync(bin)) return { bin };
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  log(`peers: installing ${peer.pkg}@${peer.version} into ${path.relative(repoRoot, dir)}`);
  const r = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${peer.pkg}@${peer.version}`],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  if (r.status !== 0 || !existsSync(bin))
    return {
      error: `npm install ${peer.pkg}@${peer.version} failed: ${oneLine(r.stderr || r.stdout || String(r.status))}`,
    };
  return { bin };
}

/**
 * Runs a command as a whole process, in a process group of its own; wall ms, exit code, output and
 * (with GNU time) peak RSS. When it ends, whatever it left running in its group is killed: Cline's
 * CLI left a process behind that kept a core busy through the figures measured after it.
 */
function runProcess(cmd, args, { env, cwd, timeoutMs = RUN_TIMEOUT_MS, peak = false }) {
  return new Promise((resolve) => {
    const timeFile = peak ? path.join(mkdtempSync(path.join(os.tmpdir(), 'planwise-peer-time-')), 'time') : undefined;
    const [c, a] = peak ? ['/usr/bin/time', ['-f', '%M', '-o', timeFile, cmd, ...args]] : [cmd, args];
    const start = process.hrtime.bigint();
    const child = spawn(c, a, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, ms: 0, out, err: String(e), timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // nothing was left
      }
      let peakKiB;
      if (timeFile) {
        const m = /(\d+)\s*$/.exec(existsSync(timeFile) ? readFileSync(timeFile, 'utf8') : '');
        peakKiB = m ? Number(m[1]) : undefined;
        rmSync(path.dirname(timeFile), { recursive: true, force: true });
      }
      resolve({ code, ms, out, err, timedOut, peakKiB });
    });
  });
}

function workspace() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'planwise-peer-ws-'));
  writeFileSync(path.join(dir, 'README.md'), '# Greeter\n\nPrints a greeting. Run `node greet.js`.\n');
  writeFileSync(path.join(dir, 'greet.js'), "console.log('hi');\n");
  spawnSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

async function measureAgent({ name, version, wire, how, bin, binArgs = [], args, env, setup, prepare }) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'planwise-peer-home-'));
  setup?.(home);
  const ws = workspace();
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: home, TERM: 'dumb', NO_COLOR: '1', CI: '1' };
  try {
    const versions = [];
    for (let i = 0; i < 6; i++) {
      const r = await runProcess(bin, [...binArgs, '--version'], { env: baseEnv, cwd: ws, timeoutMs: 60_000 });
      if (r.code !== 0) return { name, version, how, reason: `--version exited ${r.code}: ${oneLine(r.err || r.out)}` };
      if (i > 0) versions.push(r.ms); // the first run warms the file cache
    }
    const server = await startPeerServer();
    let run;
    try {
      const refused = await prepare?.({ bin, url: server.url, env: { ...baseEnv, ...env(server.url) }, cwd: ws });
      if (refused) return { name, version, how, reason: refused };
      run = await runProcess(bin, [...binArgs, ...args(server.url)], {
        env: { ...baseEnv, ...env(server.url) },
        cwd: ws,
        peak: true,
      });
    } finally {
      await server.close();
    }
    const model = server.requests.filter((r) => r.method === 'POST' && MODEL_PATH[wire].test(r.path) && r.body);
    const first = model.find((r) => (promptOf(wire, r.body).toolCount ?? 0) > 0) ?? model[0];
    const base = {
      name,
      version,
      how,
      versionMs: round(median(versions), 1),
      peakMiB: run.peakKiB ? round(run.peakKiB / 1024, 1) : undefined,
    };
    const others = server.requests.filter((r) => !model.includes(r)).map((r) => `${r.method} ${r.path.split('?')[0]}`);
    if (!first) {
      const why = run.timedOut
        ? `no model request within ${RUN_TIMEOUT_MS / 1000} s`
        : `exited ${run.code} without a model request`;
      return {
        ...base,
        reason: `${why} (other requests: ${others.slice(0, 4).join(', ') || 'none'}; ${oneLine((run.err || run.out).slice(-200))})`,
      };
    }
    const p = promptOf(wire, first.body);
    return {
      ...base,
      systemTokens: tokens(p.system),
      toolTokens: tokens(p.tools),
      promptTokens: tokens(p.system) + tokens(p.tools),
      toolCount: p.toolCount,
      firstRequestBytes: first.bytes,
      modelRequests: model.length,
      otherRequests: others,
      exit: run.timedOut ? 'timeout' : run.code,
    };
  } finally {
    killLeftovers(home);
    rmSync(home, { recursive: true, force: true });
    rmSync(ws, { recursive: true, force: true });
  }
}

/**
 * Kills what an agent left running with its HOME, `home` (each agent has one of its own): Cline's
 * CLI starts a hub daemon in a session of its own, out of reach of its process group, which kept
 * running through the figures measured after this one. Linux (/proc); elsewhere nothing is found.
 */
function killLeftovers(home) {
  const mark = `\0HOME=${home}\0`;
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      if (`\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(mark)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
}

function row(a) {
  if (a.reason) return `${a.name} ${a.version}: not measured: ${a.reason}`;
  return (
    `${a.name} ${a.version}: ${formatCount(a.promptTokens)} tokens (system ${formatCount(a.systemTokens)} + ${a.toolCount} tools ` +
    `${formatCount(a.toolTokens)}), first request ${formatCount(a.firstRequestBytes)} B, --version ${a.versionMs} ms, peak ${a.peakMiB ?? '?'} MiB`
  );
}

async function peers() {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const stage = stagedProductionBuild('planwise-bench-peers-');
  const agents = [];
  try {
    agents.push(
      await measureAgent({
        name: 'Planwise',
        version: pkg.version,
        wire: 'openai-chat',
        how: '`planwise plan <task> --non-interactive --base-url <server>/v1 --model bench`',
        bin: process.execPath,
        binArgs: [path.join(stage, 'dist', 'cli.cjs')],
        args: (url) => ['plan', TASK, '--non-interactive', '--base-url', `${url}/v1`, '--model', 'bench'],
        env: () => ({ PLANWISE_MODEL_RETRIES: '0' }),
      }),
    );
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  for (const peer of PEERS) {
    const installed = install(peer);
    if (installed.error) {
      agents.push({ name: peer.name, version: peer.version, how: peer.how, reason: installed.error });
      continue;
    }
    log(`peers: ${peer.name} ${peer.version}`);
    agents.push(await measureAgent({ ...peer, bin: installed.bin }));
  }
  for (const a of agents) log(`peers: ${row(a)}`);
  const planwise = agents[0];
  const measuredPeers = agents.slice(1).filter((a) => !a.reason);
  const value = agents.map(row).join('; ');
  // Met: Planwise's prompt is the smallest of those measured.
  const met = planwise.reason ? null : measuredPeers.every((a) => planwise.promptTokens <= a.promptTokens);
  return measured(value, met, { task: TASK, tokenizer: 'o200k_base (gpt-tokenizer)', agents });
}

await figureMain({ peers });
