import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sse } from '../support/scriptedServer';
import { CLICK } from '../support/commandPolicy';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

const question = {
  questions: [
    {
      header: 'Greeting',
      question: 'Which greeting?',
      options: [{ label: 'Hello', recommended: true }, { label: 'Hi' }],
    },
  ],
};

/** Waits until the session's verifier follow-up has applied its tracker update (real I/O). */
async function until(ready: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error('timed out waiting for the tracker');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const buildPlan = samplePlan('Add a greeting helper', 'src/greet.js', 'node src/check.js');

describe('planning lifecycle and the build agent', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('interview → approve → the build agent edits files → verify runs → tracker reaches 100%', async () => {
    h = await startHarness(
      [
        sse.toolTurn([{ name: 'request_user_input', args: question }]),
        sse.textTurn(planResponse(buildPlan)),
        // build turn
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'in_progress' } }]),
        sse.toolTurn([
          { name: 'write_file', args: { path: 'src/greet.js', content: "exports.greet = (n) => 'Hi ' + n;\n" } },
          {
            name: 'write_file',
            args: {
              path: 'src/check.js',
              content: "const {greet}=require('./greet');process.exit(greet('a')==='Hello a'?0:1);\n",
            },
          },
        ]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.toolTurn([{ name: 'edit_file', args: { path: 'src/greet.js', old_text: "'Hi '", new_text: "'Hello '" } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Done: greet added, verify passed.'),
      ],
      {
        files: { 'README.md': '# demo\n', 'src/.keep': '' },
        // The person says yes to the verify command `node src/check.js` when it is asked for.
        approveCommand: () => true,
        interview: (qs) => ({ kind: 'answered', answers: [{ questionId: qs[0]!.id, choice: 'Hello' }] }),
        approve: () => ({ decision: 'execute' }),
      },
    );
    const stop = await h.session.start('add a greeting helper');
    assert.equal(stop.kind, 'completed');
    assert.equal(h.people.interviews.length, 1);
    // The answer went back to the same planning turn.
    const answer = h.server.requests[1]!.body.messages.find((m) => m['role'] === 'tool') as { content: string };
    assert.match(answer.content, /Hello/);
    assert.equal(h.people.approvals.length, 1);
    assert.equal(readFileSync(join(h.ws.root, 'src/greet.js'), 'utf8'), "exports.greet = (n) => 'Hello ' + n;\n");
    // The first "completed" ran the verify, which failed (greeting was "Hi"), so the step stayed in progress.
    const firstComplete = h.server.requests[5]!.body.messages.at(-1) as { content: string };
    assert.match(firstComplete.content, /stays in progress/);
    const trackers = h.eventsOf('tracker.updated');
    const last = trackers.at(-1)!;
    assert.equal(last.items[0]!.status, 'completed');
    const sidecar = readdirSync(join(h.ws.root, '.vtcode/plans')).find((f) => f.endsWith('.tasks.md'))!;
    assert.match(readFileSync(join(h.ws.root, '.vtcode/plans', sidecar), 'utf8'), /- \[x\] /);
    assert.deepEqual(
      h.eventsOf('plan.approval.resolved').map((e) => [e.decision, e.automatic]),
      [['execute', false]],
    );
    assert.equal(h.eventsOf('thread.completed').length, 1);
    // The build used the build prompt and offered write tools.
    const buildReq = h.server.requests[2]!.body;
    assert.match(String((buildReq.messages[0] as { content: string }).content), /BUILD mode/);
    assert.ok(buildReq.tools?.some((t) => t.function.name === 'edit_file'));
  });

  it('revise with feedback → a new revision with a diff → the gate again → cancel', async () => {
    h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan('First draft'))),
        sse.textTurn(planResponse(samplePlan('Second draft', 'src/hello.ts'))),
      ],
      {
        approve: (_r, n) =>
          n === 1 ? { decision: 'revise', feedback: 'use src/hello.ts instead' } : { decision: 'cancel' },
      },
    );
    const stop = await h.session.start('plan it');
    assert.equal(stop.kind, 'cancelled');
    assert.equal(h.people.approvals.length, 2);
    const second = h.people.approvals[1]!;
    assert.equal(second.card.revision, 2);
    assert.match(second.diff ?? '', /-# First draft/);
    assert.match(second.diff ?? '', /\+# Second draft/);
    assert.deepEqual(second.stepChanges, { added: 0, removed: 0, changed: 1 });
    const revisionRequest = h.server.requests[1]!.body.messages.at(-1) as { content: string };
    assert.match(revisionRequest.content, /use src\/hello\.ts instead/);
    const historyDir = readdirSync(join(h.ws.root, '.vtcode/plans')).find((f) => f.endsWith('.history'))!;
    assert.deepEqual(readdirSync(join(h.ws.root, '.vtcode/plans', historyDir)).sort(), ['001.md', '002.md']);
    assert.deepEqual(
      h.eventsOf('plan.approval.resolved').map((e) => e.decision),
      ['revise', 'cancel'],
    );
    assert.equal(h.session.state, 'cancelled');
  });

  it('fresh context: the build request holds only the approved plan, tracker and a handover note', async () => {
    h = await startHarness(
      [
        sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
        sse.textTurn(planResponse(samplePlan())),
        sse.textTurn('Nothing to do.'),
      ],
      { approve: () => ({ decision: 'fresh_context' }) },
    );
    await h.session.start('secret research task words');
    const build = h.server.requests[2]!.body.messages;
    assert.equal(build.length, 2, 'system + one handover message');
    assert.equal(build[0]!['role'], 'system');
    const handover = build[1] as { role: string; content: string };
    assert.equal(handover.role, 'user');
    assert.match(handover.content, /<approved_plan>/);
    assert.match(handover.content, /Task tracker:/);
    assert.ok(!handover.content.includes('secret research task words'));
    assert.ok(!JSON.stringify(build).includes('# demo'), 'no research output came along');
    const reset = h.eventsOf('context.reset');
    assert.equal(reset.length, 1);
    assert.equal(reset[0]!.trigger, 'plan_approval');
    assert.equal(reset[0]!.plan_preserved, true);
    assert.equal(reset[0]!.tool_budget_reset, true);
    assert.deepEqual(
      h.eventsOf('progress').map((e) => e.message),
      ['Preparing fresh execution thread...', 'Restoring approved plan...', 'Starting build...'],
    );
  });

  it('a replan inside the approved run is stored as a new revision and execution continues', async () => {
    h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan('Original'))),
        sse.textTurn(planResponse(samplePlan('Replanned', 'src/renamed.ts'), 'The path was renamed; revised plan:')),
        sse.textTurn('Implemented the revised plan.'),
      ],
      { approve: () => ({ decision: 'execute' }) },
    );
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'completed');
    assert.equal(h.people.approvals.length, 1, 'no second gate inside an approved run');
    const planFile = h.session.planFile!;
    assert.match(readFileSync(planFile, 'utf8'), /# Replanned/);
    const notices = h
      .eventsOf('item.completed')
      .filter((e) => e.item.kind === 'notice')
      .map((e) => e.item.text);
    assert.ok(notices.some((t) => /revised during the run \(revision 2\)/.test(t ?? '')));
  });

  it('an invalid replan is rejected and never overwrites the plan', async () => {
    h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan('Original'))),
        sse.textTurn(planResponse('# Broken\n\n## Summary\n\nTBD\n')),
      ],
      { approve: () => ({ decision: 'execute' }) },
    );
    await h.session.start('plan');
    assert.match(readFileSync(h.session.planFile!, 'utf8'), /# Original/);
    assert.equal(h.server.requests.length, 2, 'no continuation turn after an invalid revision');
  });

  it('refuses a model that tries to approve its own plan, and logs it', async () => {
    h = await startHarness(
      [sse.toolTurn([{ name: 'approve_plan', args: {} }]), sse.textTurn(planResponse(samplePlan()))],
      { config: { interactive: false } },
    );
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval', 'still waiting for the person');
    const result = h.server.requests[1]!.body.messages.find((m) => m['role'] === 'tool') as { content: string };
    assert.match(result.content, /blocked: the model cannot approve a plan/);
    const warned = h
      .eventsOf('item.completed')
      .some((e) => e.item.kind === 'notice' && /refused: the model cannot approve/.test(e.item.text ?? ''));
    assert.ok(warned);
    assert.equal(h.eventsOf('plan.approval.resolved').length, 0);
  });

  it('intents typed at the gate: feedback never approves, stay wins over exit', async () => {
    h = await startHarness(
      [sse.textTurn(planResponse(samplePlan('One'))), sse.textTurn(planResponse(samplePlan('Two')))],
      { config: { interactive: false } },
    );
    await h.session.start('plan');
    const stop = await h.session.submit('lgtm but keep planning: add tests');
    assert.equal(stop?.kind, 'awaiting_approval');
    assert.deepEqual(
      h.eventsOf('plan.approval.resolved').map((e) => e.decision),
      ['revise'],
    );
    const cancel = await h.session.submit('cancel');
    assert.equal(cancel?.kind, 'cancelled');
  });

  it('resumes a stopped session with its pending approval still pending', async () => {
    h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan())),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Built.'),
      ],
      // A headless run: its verify command runs only because the person allow-listed it.
      { config: { interactive: false, buildAllowList: ['node -e *'] } },
    );
    const stop = await h.session.start('plan');
    assert.equal(stop.kind, 'awaiting_approval');
    const resumed = await h.resume(h.session.id);
    assert.ok(resumed);
    assert.equal(resumed.state, 'awaiting_approval');
    assert.equal(resumed.planFile, h.session.planFile);
    const done = await resumed.decide('execute');
    assert.equal(done?.kind, 'completed');
    // The resumed build still tracks progress against the persisted checklist.
    const result = h.server.requests[1]!.body.messages.at(-1) as { content: string };
    assert.doesNotMatch(result.content, /does not exist/);
    assert.equal(h.eventsOf('tracker.updated').at(-1)!.items[0]!.status, 'completed');
  });

  for (const accept of [true, false]) {
    it(`start_planning only asks: ${accept ? 'accepted → planning starts' : 'declined → the build continues'}`, async () => {
      h = await startHarness(
        [
          sse.toolTurn([{ name: 'start_planning', args: { reason: 'the module was split in two' } }]),
          sse.textTurn('Stopping here: the plan needs revising.'),
          sse.textTurn(planResponse(samplePlan('Replanned'))),
        ],
        { enterPlanning: accept, approve: () => ({ decision: 'cancel' }) },
      );
      const stop = await h.session.start('refactor the module', { mode: 'build' });
      assert.deepEqual(h.people.planningProposals, ['the module was split in two']);
      const result = h.server.requests[1]!.body.messages.at(-1) as { content: string };
      if (accept) {
        assert.match(result.content, /agreed to return to planning/);
        assert.equal(h.server.requests.length, 3);
        assert.match(String((h.server.requests[2]!.body.messages[0] as { content: string }).content), /PLAN mode/);
        assert.equal(stop.kind, 'cancelled', 'the new plan reached the gate, where the person cancelled');
      } else {
        assert.match(result.content, /declined/);
        assert.equal(h.server.requests.length, 2);
        assert.equal(stop.kind, 'completed');
      }
    });
  }

  it('verify results from a person (lens, panel) complete a step only when its verify passed, for its plan only', async () => {
    h = await startHarness([sse.textTurn(planResponse(samplePlan()))], { config: { interactive: false } });
    await h.session.start('plan');
    const planFile = h.session.planFile!;
    const verifier = h.session.verifier;
    const failing = {
      kind: 'command' as const,
      text: 'node -e "process.exit(3)"',
      command: 'node -e "process.exit(3)"',
    };
    const entry = { kind: 'command' as const, text: 'node -e "process.exit(0)"', command: 'node -e "process.exit(0)"' };
    const status = () => h!.eventsOf('tracker.updated').at(-1)!.items[0]!.status;
    // A failure of a command the plan does not hold still shows; it puts the step in progress.
    await verifier.run(planFile, '1', failing, CLICK);
    await until(() => status() === 'in_progress');
    // Another plan's result is not this session's: no event, no change.
    const before = h.events.length;
    await verifier.run('/elsewhere/other.md', '1', entry, CLICK);
    assert.equal(h.events.length, before, 'another plan is ignored');
    const r = await verifier.run(planFile, '1', entry, CLICK);
    assert.equal(r.status, 'passed');
    await until(() => status() === 'completed');
    const last = h.eventsOf('tracker.updated').at(-1)!.items[0]!;
    assert.equal(last.entries[0]!.result?.status, 'passed');
    const recorded = h.eventsOf('verify.recorded').filter((e) => e.status !== 'running');
    assert.deepEqual(
      recorded.map((e) => [e.entry, e.status, e.exit_code, e.origin]),
      [
        [failing.text, 'failed', 3, 'person'],
        [entry.text, 'passed', 0, 'person'],
      ],
    );
  });
});
