/** Budgets and guards (rules §7) driven end to end by a scripted model through the real SDK. */
import assert from 'node:assert/strict';
import type { RecordedRequest, ScriptedTurn } from '../support/scriptedServer';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

/** Serves tool turns until the request is tool-free (tool_choice none), then answers with a plan. */
function untilToolFree(turn: (n: number) => ScriptedTurn, final = sse.textTurn(planResponse(samplePlan()))) {
  return (req: RecordedRequest, n: number): ScriptedTurn => (req.body['tool_choice'] === 'none' ? final : turn(n));
}

const toolFreeAt = (h: Harness) => h.server.requests.findIndex((r) => r.body['tool_choice'] === 'none');
const synthesisNotices = (h: Harness) =>
  h
    .eventsOf('item.completed')
    .filter((e) => e.item.kind === 'notice' && /^Synthesis pass/.test(e.item.text ?? ''))
    .map((e) => e.item.text ?? '');

describe('guards through the runloop', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('blocked-call fuse: a streak past the cap stops the turn and synthesises once', async () => {
    h = await startHarness(
      untilToolFree(() =>
        sse.toolTurn([1, 2, 3].map((i) => ({ name: 'exec_command', args: { command: `rm file${i}.txt` } }))),
      ),
      { config: { interactive: false, budgets: { blockedCap: 2 } } },
    );
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval');
    const exhausted = h.eventsOf('budget_exhausted');
    assert.equal(exhausted.length, 1);
    assert.equal(exhausted[0]!.budget, 'blocked_calls');
    assert.equal(toolFreeAt(h), 1);
    assert.equal(synthesisNotices(h).length, 1);
  });

  it('low-signal navigation: six misses in a row schedule one tool-free synthesis', async () => {
    h = await startHarness(
      untilToolFree((n) => sse.toolTurn([{ name: 'read_file', args: { path: `missing-${n}.ts` } }])),
      { config: { interactive: false } },
    );
    await h.session.start('plan');
    assert.equal(toolFreeAt(h), 6);
    const notes = synthesisNotices(h);
    assert.equal(notes.length, 1);
  });

  it('repeated semantic requests: twelve inspections containing a repeat schedule synthesis', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`f${i}.ts`] = `export const v${i} = ${i};\n`;
    h = await startHarness(
      untilToolFree((n) => sse.toolTurn([{ name: 'read_file', args: { path: n === 1 ? 'f0.ts' : `f${n}.ts` } }])),
      { files, config: { interactive: false } },
    );
    await h.session.start('plan');
    assert.equal(toolFreeAt(h), 12);
    assert.equal(synthesisNotices(h).length, 1);
  });

  it('same-target listings: five rescans of one root while planning, naming the churn family', async () => {
    h = await startHarness(
      untilToolFree((n) =>
        sse.toolTurn([{ name: 'exec_command', args: { command: `ls -la${'R'.repeat(n % 2)} src` } }]),
      ),
      { files: { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' }, config: { interactive: false } },
    );
    await h.session.start('plan');
    assert.equal(toolFreeAt(h), 5);
    const [note] = synthesisNotices(h);
    assert.match(note ?? '', /exec::inspection::ls::src ×\d/);
  });

  it('preview budget: past the turn budget results become stubs and synthesis follows', async () => {
    const big = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
    h = await startHarness(
      untilToolFree((n) => sse.toolTurn([{ name: 'read_file', args: { path: `big${n % 3}.txt` } }])),
      {
        files: { 'big0.txt': big, 'big1.txt': `${big}\n1`, 'big2.txt': `${big}\n2` },
        config: { interactive: false, budgets: { previewTurnBytes: { plan: 10 * 1024 } } },
      },
    );
    await h.session.start('plan');
    const at = toolFreeAt(h);
    assert.ok(at > 0, 'a tool-free synthesis request was sent');
    const results = h.server.requests[at]!.body.messages.filter((m) => m['role'] === 'tool') as { content: string }[];
    assert.ok(
      results.some((r) => /result not shown: \d+ bytes/.test(r.content)),
      'a metadata stub was sent',
    );
    assert.equal(synthesisNotices(h).length, 1);
  });

  it('session tool-call limit: a grant retries the pending call and emits the event', async () => {
    h = await startHarness(
      [
        sse.toolTurn([
          { name: 'read_file', args: { path: 'README.md' } },
          { name: 'list_files', args: {} },
        ]),
        sse.textTurn(planResponse(samplePlan())),
      ],
      { config: { interactive: false, budgets: { sessionToolCalls: 1 } }, grant: () => 5 },
    );
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval');
    assert.deepEqual(h.people.grants, [{ kind: 'session_tool_calls', used: 1, max: 1 }]);
    const inc = h.eventsOf('session_tool_limit_increased');
    assert.equal(inc.length, 1);
    assert.equal(inc[0]!.granted, 5);
    const results = h.server.requests[1]!.body.messages.filter((m) => m['role'] === 'tool') as { content: string }[];
    assert.equal(results.length, 2);
    assert.ok(!/Not run/.test(results[1]!.content), 'the pending call ran after the grant');
  });

  it('session tool-call limit: a denial stays a denial and is recorded as budget_exhausted', async () => {
    h = await startHarness(
      untilToolFree(() =>
        sse.toolTurn([
          { name: 'read_file', args: { path: 'README.md' } },
          { name: 'list_files', args: {} },
        ]),
      ),
      { config: { interactive: false, budgets: { sessionToolCalls: 1 } }, grant: () => 0 },
    );
    await h.session.start('plan');
    const ex = h.eventsOf('budget_exhausted');
    assert.deepEqual(
      ex.map((e) => [e.budget, e.used, e.max]),
      [['session_calls', 1, 1]],
    );
    assert.equal(h.eventsOf('session_tool_limit_increased').length, 0);
  });

  it('loop budget while building: the tool-loop prompt, a denial, and budget_exhausted', async () => {
    h = await startHarness(
      (req) =>
        req.body['tool_choice'] === 'none'
          ? sse.textTurn('Stopped: loop budget reached.')
          : sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
      { config: { budgets: { loopsPerTurn: 2 } }, grant: () => 0 },
    );
    const stop = await h.session.start('keep reading', { mode: 'build' });
    assert.equal(h.people.grants[0]?.kind, 'tool_loop');
    const ex = h.eventsOf('budget_exhausted');
    assert.equal(ex[0]?.budget, 'tool_loop');
    assert.ok(stop.kind === 'completed' || stop.kind === 'blocked');
  });

  it('diverse low-signal churn while building schedules one closing pass', async () => {
    h = await startHarness(
      (req, n) =>
        req.body['tool_choice'] === 'none'
          ? sse.textTurn('Summary: nothing found.')
          : sse.toolTurn([{ name: 'read_file', args: { path: `nope-${n}.ts` } }]),
      { config: { budgets: { loopsPerTurn: 100 } } },
    );
    const stop = await h.session.start('look around', { mode: 'build' });
    assert.equal(stop.kind, 'completed');
    assert.equal(toolFreeAt(h), 12);
    const directive = h.server.requests[12]!.body.messages.at(-1) as { content: string };
    assert.match(directive.content, /short summary/);
  });

  it('429 then success: the request is retried', async () => {
    h = await startHarness(
      [sse.httpError(429, 'slow down', { headers: { 'retry-after': '0' } }), sse.textTurn(planResponse(samplePlan()))],
      { config: { interactive: false }, maxRetries: 2 },
    );
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval');
    assert.equal(h.server.requests.length, 2);
  });

  it('a stream cut mid-way ends the run with one clear error and planning stays active', async () => {
    h = await startHarness([{ ...sse.textTurn('partial answer that never ends '.repeat(20)), cutAfter: 2 }], {
      config: { interactive: false },
    });
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'error');
    assert.match(stop.kind === 'error' ? stop.message : '', /stream/i);
    assert.equal(h.eventsOf('error').length, 1);
    assert.equal(h.session.state, 'planning');
  });

  it('an Ollama-style stream with two whole calls at index 0 runs both calls', async () => {
    h = await startHarness(
      [
        sse.turn(
          sse.ollamaToolCalls([
            { id: 'a', name: 'read_file', args: { path: 'README.md' } },
            { id: 'b', name: 'list_files', args: {} },
          ]),
          sse.finish('tool_calls'),
        ),
        sse.textTurn(planResponse(samplePlan())),
      ],
      { config: { interactive: false } },
    );
    await h.session.start('plan');
    const results = h.server.requests[1]!.body.messages.filter((m) => m['role'] === 'tool') as {
      tool_call_id: string;
    }[];
    assert.deepEqual(
      results.map((r) => r.tool_call_id),
      ['a', 'b'],
    );
  });
});
