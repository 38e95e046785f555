/**
 * A realistic planning session as protocol operations, grouped in scenes: planning, interview,
 * gate, handoff, executing, blocked. `recordSession()` plays it through the host's ViewModel
 * and returns the exact messages a host would post; fixtures/session.json is that recording.
 */
import {
  emptyViewState,
  ViewModel,
  type Budget,
  type DeltaOp,
  type Gate,
  type HostMessage,
  type Interview,
  type Tracker,
} from '../../src/protocol';

export const budget = (toolCalls: number, contextPercent: number, spent: number): Budget => ({
  toolCalls: { used: toolCalls, max: 120 },
  loops: { used: Math.ceil(toolCalls / 2), max: 60 },
  previewBytes: { used: toolCalls * 500, max: 96 * 1024 },
  blockedCalls: { consecutive: 0, total: 1, fuse: 32 },
  tokens: { input: Math.round(spent * 0.8), output: Math.round(spent * 0.2), cap: 200_000 },
  contextPercent,
});

export const interview: Interview = {
  requestId: 'ask-1',
  questions: [
    {
      id: 'store',
      header: 'Rate-limit store',
      question: 'Where should request counts live?',
      options: [
        {
          label: 'Redis',
          description: 'Shared across instances; Redis is already in docker-compose.',
          recommended: true,
        },
        { label: 'In memory', description: 'Per process; simplest, resets on restart.' },
        { label: 'Postgres', description: 'Durable but adds a write per request.' },
      ],
      allowNote: true,
    },
    {
      id: 'scope',
      header: 'Scope',
      question: 'Which routes get the limit?',
      options: [
        { label: 'All public routes', recommended: true },
        { label: 'Only /api/search', description: 'The expensive one.' },
      ],
    },
  ],
};

export const planMarkdown = [
  '# Rate limiting for the public API',
  '',
  '## Summary',
  'Add a token-bucket limiter in front of the public routes, backed by Redis.',
  '',
  '## Steps',
  '1. Add `src/server/rateLimit.ts` with a token bucket -> files: src/server/rateLimit.ts -> verify: npm test',
  '2. Wire it in `src/server/app.ts:12` before the router',
  '3. Read limits from config',
  '4. Return 429 with Retry-After',
  '5. Add tests for bursts and refill',
  '6. Document the settings in README.md',
  '7. Add a dashboard counter',
].join('\n');

export const gate: Gate = {
  requestId: 'approve-1',
  title: 'Rate limiting for the public API',
  summary: 'Add a token-bucket limiter in front of the public routes, backed by **Redis**.',
  steps: [
    'Add `src/server/rateLimit.ts` with a token bucket',
    'Wire it in `src/server/app.ts:12` before the router',
    'Read limits from config',
    'Return 429 with Retry-After',
    'Add tests for bursts and refill',
    'Document the settings in README.md',
    'Add a dashboard counter',
  ].slice(0, 5),
  moreSteps: 2,
  validation: { valid: true, problems: [] },
  contextPercent: 62,
  proposedDuringExecution: false,
  revision: 2,
  changes: '1 step removed, 1 changed',
  hasPreviousRevision: true,
  planFile: '.vtcode/plans/rate-limiting.md',
};

const cmd = (text: string, result?: { status: 'passed' | 'failed'; exitCode: number }) => ({
  kind: 'command' as const,
  text,
  command: text,
  ...(result ? { result: { ...result, at: 0, durationMs: 1200 } } : {}),
});

/** A tracker as the engine announces it: parsed verify entries, their results, and its own counts (leaves). */
export const tracker: Tracker = {
  title: 'Rate limiting for the public API',
  planFile: '.vtcode/plans/rate-limiting.md',
  items: [
    {
      path: '1',
      description: 'Add `rateLimit.ts` with a token bucket',
      status: 'completed',
      files: ['src/server/rateLimit.ts'],
      entries: [cmd('npm test', { status: 'passed', exitCode: 0 })],
      awaitingCheck: false,
      children: [],
    },
    {
      path: '2',
      description: 'Wire the limiter into the app',
      status: 'in_progress',
      files: ['src/server/app.ts'],
      entries: [cmd('npm run typecheck')],
      awaitingCheck: false,
      children: [
        {
          path: '2.1',
          description: 'Register before the router',
          status: 'completed',
          files: [],
          entries: [],
          awaitingCheck: false,
          children: [],
        },
        {
          path: '2.2',
          description: 'Skip health checks',
          status: 'in_progress',
          files: ['src/server/health.ts'],
          entries: [cmd('npm test -- health', { status: 'failed', exitCode: 1 })],
          awaitingCheck: false,
          children: [],
        },
      ],
    },
    {
      path: '3',
      description: 'Read limits from config',
      status: 'pending',
      files: [],
      entries: [],
      awaitingCheck: false,
      children: [],
    },
    {
      path: '4',
      description: 'Return 429 with Retry-After',
      status: 'blocked',
      files: [],
      entries: [],
      awaitingCheck: false,
      children: [],
    },
    {
      path: '5',
      description: 'Show the counter on the dashboard',
      status: 'in_progress',
      files: ['src/dashboard.ts'],
      entries: [{ kind: 'check', text: 'open the dashboard and confirm the counter shows 429s' }],
      awaitingCheck: true,
      children: [],
    },
  ],
  counts: { done: 2, inProgress: 2, pending: 1, blocked: 1, total: 6 },
  percent: 33,
};

/** The tracker with its results `age` ms old at `now` (children `childAge`). */
export function agedTracker(now: number, age: number, childAge: number): Tracker {
  const at = (e: Tracker['items'][number]['entries'][number], a: number) =>
    e.result ? { ...e, result: { ...e.result, at: now - a } } : e;
  return {
    ...tracker,
    items: tracker.items.map((i) => ({
      ...i,
      entries: i.entries.map((e) => at(e, age)),
      children: i.children.map((c) => ({ ...c, entries: c.entries.map((e) => at(e, childAge)) })),
    })),
  };
}

export interface Scene {
  name: string;
  ops: DeltaOp[][];
}

const streamed = (id: string, text: string, chunk = 12): DeltaOp[][] => {
  const out: DeltaOp[][] = [];
  for (let i = 0; i < text.length; i += chunk) out.push([{ op: 'item.append', id, text: text.slice(i, i + chunk) }]);
  return out;
};

export function sessionScenes(now: number): Scene[] {
  const answer = [
    'I looked at how requests are routed. The router is mounted in `src/server/app.ts:12`, and',
    'there is no limiter yet.\n\n- `express` handles routing\n- Redis is available via `src/db/redis.ts`\n\n',
    'One decision is yours before I write the plan.',
  ].join(' ');
  const executingTracker = agedTracker(now, 120_000, 30_000);
  return [
    {
      name: 'planning',
      ops: [
        [
          { op: 'lifecycle.set', lifecycle: { state: 'planning', mode: 'plan', busy: true } },
          { op: 'budget.set', budget: budget(4, 12, 9_400) },
          { op: 'item.add', item: { id: 'u1', kind: 'user', text: 'Add rate limiting to the public API' } },
          {
            op: 'item.add',
            item: { id: 't1', kind: 'thinking', text: 'Find the router first, then the config.', streaming: false },
          },
          {
            op: 'item.add',
            item: {
              id: 'c1',
              kind: 'tool_call',
              callId: 'call-1',
              name: 'read_file',
              title: 'Read src/server/app.ts',
              subject: 'src/server/app.ts',
              argsSummary: 'src/server/app.ts',
              verdict: { allowed: true, reason: 'read-only tool' },
              // One row per call: the host puts the result on the call's row.
              outcome: 'ok',
              bytes: 2150,
              preview: 'import express…',
            },
          },
          {
            op: 'item.add',
            item: {
              id: 'c2',
              kind: 'tool_call',
              callId: 'call-2',
              name: 'run_command',
              title: 'Ran `rm -rf build`',
              subject: '`rm -rf build`',
              argsSummary: 'rm -rf build',
              verdict: { allowed: false, reason: '`rm` changes files; planning is read-only.' },
              outcome: 'blocked',
              bytes: 40,
              preview: '`rm` changes files; planning is read-only.',
            },
          },
          { op: 'item.add', item: { id: 'a1', kind: 'assistant', text: '', streaming: true } },
        ],
        ...streamed('a1', answer),
        [{ op: 'item.patch', id: 'a1', patch: { streaming: false } }],
      ],
    },
    {
      name: 'interview',
      ops: [
        [
          { op: 'interview.set', interview },
          { op: 'budget.set', budget: budget(9, 24, 21_000) },
        ],
      ],
    },
    {
      name: 'gate',
      ops: [
        [
          { op: 'interview.set', interview: null },
          { op: 'item.add', item: { id: 'u2', kind: 'user', text: 'Redis · All public routes' } },
          {
            op: 'item.add',
            item: {
              id: 'p1',
              kind: 'plan',
              markdown: planMarkdown,
              file: '.vtcode/plans/rate-limiting.md',
              revision: 2,
              valid: true,
              streaming: false,
            },
          },
          { op: 'lifecycle.set', lifecycle: { state: 'awaiting_approval', mode: 'plan', busy: false } },
          { op: 'budget.set', budget: budget(31, 62, 118_000) },
          { op: 'gate.set', gate },
        ],
      ],
    },
    {
      name: 'handoff',
      ops: [
        [
          { op: 'gate.set', gate: null },
          {
            op: 'handoff.set',
            handoff: {
              steps: [
                { label: 'Preparing fresh execution thread...', status: 'done' },
                { label: 'Restoring approved plan...', status: 'active' },
                { label: 'Starting build...', status: 'pending' },
              ],
            },
          },
        ],
      ],
    },
    {
      name: 'executing',
      ops: [
        [
          { op: 'handoff.set', handoff: null },
          { op: 'lifecycle.set', lifecycle: { state: 'executing', mode: 'build', busy: true } },
          { op: 'budget.set', budget: budget(6, 8, 3_000) },
          { op: 'tracker.set', tracker: executingTracker },
          {
            op: 'item.add',
            item: {
              id: 'n1',
              kind: 'notice',
              level: 'info',
              text: 'Fresh thread started; the approved plan was restored.',
            },
          },
          { op: 'item.add', item: { id: 'a2', kind: 'assistant', text: 'Wiring the limiter now.', streaming: true } },
        ],
      ],
    },
    {
      name: 'blocked',
      ops: [
        [
          { op: 'item.patch', id: 'a2', patch: { streaming: false } },
          { op: 'lifecycle.set', lifecycle: { state: 'planning', mode: 'plan', busy: false } },
          {
            op: 'notices.set',
            notices: [
              {
                id: 'blocked-1',
                kind: 'blocked_handoff',
                text: 'The turn stopped after 8 blocked calls in a row. The session was saved.',
                resumeAvailable: true,
                sessionId: 'sess-42',
              },
            ],
          },
          { op: 'budget.set', budget: budget(110, 71, 176_000) },
        ],
      ],
    },
  ];
}

export interface RecordedScene {
  name: string;
  messages: HostMessage[];
}

/** The session as posted by a host: a snapshot on ready, then one delta per op batch. */
export function recordSession(now: number): { snapshot: HostMessage; scenes: RecordedScene[] } {
  const vm = new ViewModel({ ...emptyViewState(), flags: { hasApiKey: true, trusted: true } });
  const snapshot = vm.snapshot();
  const scenes = sessionScenes(now).map((s) => ({
    name: s.name,
    messages: s.ops.map((ops) => vm.update(ops)!),
  }));
  return { snapshot, scenes };
}
