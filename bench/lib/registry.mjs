// The figures of `npm run bench`, in table order: what each measures, its goal, and how it runs.
import { activation, firstPaint, firstRequest, gate, panel, planStore } from './external.mjs';
import { runFigureScript } from './producers.mjs';

const script = (file, id, options) => () => runFigureScript(file, id, options);

export const FIGURES = [
  {
    id: 'bundle',
    title: 'Minified bundles (extension, CLI, webview) and VSIX',
    goal: 'dist/extension.js ≤ 40 KB',
    method: 'production build + vsce package in a staging folder; bytes on disk, gzip via node:zlib',
    run: script('bench/bundle.mjs', 'bundle', { timeoutMs: 400_000 }),
  },
  {
    id: 'activation',
    title: '`activate()` in the real VS Code of the e2e harness, against an empty extension',
    goal: '≤ 2× the empty extension (medians of 9 starts)',
    method:
      'read from the e2e harness output (Running Extensions activation times of both, each activated by a command)',
    run: activation,
  },
  {
    id: 'prompt',
    title: 'Prompt overhead: system prompt + tool schemas (o200k tokens)',
    goal: '≤ 2,000 planning',
    method: 'toRequestBody of the system message and tools, counted with gpt-tokenizer o200k_base',
    run: script('bench/promptOverhead.mjs', 'prompt', { timeoutMs: 120_000 }),
  },
  {
    id: 'prefix',
    title: 'Requests whose prefix (system + tools) is byte-identical to the first',
    goal: '100%',
    method: 'scripted 2-turn planning session (createSession) incl. a synthesis pass; serialised prefix compared',
    run: script('bench/runloop.mjs', 'prefix', { timeoutMs: 180_000 }),
  },
  {
    id: 'runloop',
    title: 'Runloop overhead: 1,000 tool-call turns vs a bare openai SDK loop',
    goal: '≤ 1.05× (wall)',
    method:
      'both sessions in lockstep, turn by turn, each client in its own process; median over 5 rounds of busy-time ratios',
    run: script('bench/runloop.mjs', 'runloop', { timeoutMs: 600_000 }),
  },
  {
    id: 'gate',
    title: 'Read-only gate throughput',
    goal: '≥ 80k commands/s',
    method: 'bench/gate.mjs (the gate’s own benchmark)',
    run: gate,
  },
  {
    id: 'codeSearch',
    title: '`code_search` vs raw `rg` on a generated 50,000-file tree',
    goal: '≤ 1.2×',
    method: 'median of 9 interleaved runs each, after a warm-up; a rare pattern and a no-match pattern',
    run: script('bench/codeSearch.mjs', 'codeSearch', { timeoutMs: 600_000 }),
  },
  {
    id: 'panel',
    title: 'Panel in Chromium: 5,000 items + streaming 1,000 tokens/s',
    goal: 'p95 frame ≤ 16 ms; heap reported',
    method: 'bench/panel.mjs (the panel’s own benchmark in Chromium)',
    run: panel,
  },
  {
    id: 'hostMemory',
    title: 'Host memory after a 10,000-event session',
    goal: 'reported; bounded',
    method: 'EventBus → archive + EventTranslator/PanelHub; heapUsed after forced GC',
    run: script('bench/hostMemory.mjs', 'hostMemory', { nodeArgs: ['--expose-gc'], timeoutMs: 300_000 }),
  },
  {
    id: 'planStore',
    title: 'Plan-store crash loop (SIGKILL during writes)',
    goal: '0 torn or invalid files',
    method: 'bench/planStoreCrash.mjs if present, else the plan store crash test (200 SIGKILLs)',
    run: planStore,
  },
  {
    id: 'cli',
    title: 'CLI cold start: `planwise --version` and `planwise check-command -- ls` vs bare `node -e 0`',
    goal: '≤ 1.25× bare Node',
    method: 'production build in a staging folder; whole processes, interleaved rounds; median of per-round ratios',
    run: script('bench/cliStart.mjs', 'cli', { timeoutMs: 300_000 }),
  },
  {
    id: 'firstRequest',
    title: 'Time to first request in the real VS Code: task submitted → first byte at the scripted server',
    goal: 'warm ≤ 50 ms of Planwise’s own work',
    method:
      'read from the e2e harness output (test/e2e/firstPaint.e2e.ts: cold and warm session, bundle loads recorded)',
    run: firstRequest,
  },
  {
    id: 'peers',
    title: 'Peers side by side: prompt overhead, tools, first request, `--version`, one-turn peak RSS',
    goal: 'reported; Planwise’s prompt the smallest',
    method:
      'pinned peers installed on demand into .bench-cache/peers; one headless plan-mode turn each against a scripted server in its wire format',
    run: script('bench/peers.mjs', 'peers', { timeoutMs: 900_000 }),
  },
  {
    id: 'firstPaint',
    title:
      'Panel first paint in the real VS Code, marked in the webview: view resolved → first paint of the host’s snapshot, vs an empty webview view',
    goal: '≤ 2× the empty webview view',
    method: 'read from the e2e harness output (test/e2e/firstPaint.e2e.ts, the webview-probe fixture as the floor)',
    run: firstPaint,
  },
  {
    id: 'scale',
    title: 'Planning in a generated 100,000-file workspace: list_files, code_search, the gate with a glob, host memory',
    goal: 'list_files and code_search ≤ 1.2× their floors; memory reported',
    method:
      'bench/scale.mjs: each part interleaved with its floor (a bare readdir walk, raw rg, bash expanding the glob); heap after 200 tool calls of a scripted session',
    run: script('bench/scale.mjs', 'scale', { timeoutMs: 900_000 }),
  },
];
