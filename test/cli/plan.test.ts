import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ThreadEvent } from '../../src/core/events/types';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { NO_RETRIES, modelArgs, pendingPlanOf, runCli, sessionIdOf, useCliScene } from './cliHarness';

describe('planwise plan (headless, against the scripted server)', () => {
  const { serve, workspace, setup } = useCliScene();

  it('plans read-only, persists the plan, stops at the gate and prints its path (exit 0)', async () => {
    const s = await setup([
      sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
      sse.toolTurn([{ name: 'exec_command', args: { command: 'echo hi > hacked.txt' } }]),
      sse.textTurn(planResponse(samplePlan())),
    ]);
    const r = await runCli(['plan', ...s.args, 'add a greeting helper'], { env: NO_RETRIES });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const planFile = pendingPlanOf(r.stdout);
    assert.ok(planFile.startsWith(join(s.ws.root, '.vtcode/plans/')), planFile);
    assert.match(readFileSync(planFile, 'utf8'), /^# Add a greeting helper/);
    // Tool calls with their gate verdicts; the blocked one says why, and nothing was written.
    assert.match(r.stdout, /✓ Read README\.md/);
    assert.match(r.stdout, /✗ Not run: `echo hi > hacked\.txt` — blocked: .*redirection/);
    assert.equal(existsSync(s.ws.path('hacked.txt')), false);
    assert.match(r.stdout, /\[2 of \d+ tool calls · \d+ of \d+ model requests · \d+% of context\]/);
    // The plan is shown once, without its markup.
    assert.match(r.stdout, /── Plan · revision 1 · \.vtcode\/plans\/.*\.md/);
    assert.ok(!r.stdout.includes('<proposed_plan>'));
    // The archive is written where resume finds it, and kept out of version control.
    const id = sessionIdOf(r.stdout);
    assert.ok(existsSync(s.ws.path(`.vtcode/sessions/${id}.jsonl`)));
    assert.match(readFileSync(s.ws.path('.vtcode/sessions/.gitignore'), 'utf8'), /^\*$/m);
    assert.ok(r.stdout.includes(`planwise resume ${id}`));
    // Not a terminal: plain text.
    assert.ok(!r.stdout.includes('\u001b['));
  });

  it('--json prints only events, one per line, with increasing seq', async () => {
    const s = await setup([
      sse.turn(
        sse.reasoning('Reading first.'),
        sse.toolCall({ name: 'list_files', args: {} }),
        sse.finish('tool_calls'),
      ),
      sse.textTurn(planResponse(samplePlan())),
    ]);
    const r = await runCli(['plan', '--json', ...s.args, 'add a greeting helper'], { env: NO_RETRIES });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    const events = lines.map((l) => JSON.parse(l) as ThreadEvent);
    const seqs = events.map((e) => e.seq);
    seqs.slice(1).forEach((seq, i) => assert.ok(seq > seqs[i]!, `seq ${seq} after ${seqs[i]}`));
    const types = new Set(events.map((e) => e.type));
    for (const t of ['thread.started', 'item.updated', 'plan.delta', 'plan.approval.requested', 'budget.updated']) {
      assert.ok(types.has(t as ThreadEvent['type']), `missing ${t}`);
    }
    const requested = events.find((e) => e.type === 'plan.approval.requested') as Extract<
      ThreadEvent,
      { type: 'plan.approval.requested' }
    >;
    // The person-facing lines went to stderr.
    assert.equal(pendingPlanOf(r.stderr), requested.plan_file);
    assert.ok(r.stderr.includes(`Session ${(events[0] as { thread_id: string }).thread_id} ·`));
  });

  it('--non-interactive denies interview questions, retries once tool-free, then plans', async () => {
    const s = await setup([
      sse.toolTurn([
        {
          name: 'request_user_input',
          args: {
            questions: [{ header: 'Name', question: 'Which name?', options: [{ label: 'greet' }, { label: 'hello' }] }],
          },
        },
      ]),
      sse.textTurn('I need the name before I can plan.'),
      sse.textTurn(planResponse(samplePlan())),
    ]);
    const r = await runCli(['plan', '--non-interactive', ...s.args, 'add a greeting helper'], { env: NO_RETRIES });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 question not asked: this run is non-interactive/);
    const toolResult = s.server.requests[1]!.body.messages.find((m) => m['role'] === 'tool') as { content: string };
    assert.match(toolResult.content, /non-interactive/);
    const retry = s.server.requests[2]!.body;
    assert.equal(retry['tool_choice'], 'none');
    assert.match((retry.messages.at(-1) as { content: string }).content, /questions are unavailable/);
    assert.match(readFileSync(pendingPlanOf(r.stdout), 'utf8'), /# Add a greeting helper/);
  });

  it('--approve execute builds with the build model: real edits, verify, tracker at 100%', async () => {
    const plan = samplePlan('Say hello', 'src/greet.ts', 'grep -q hello src/greet.ts');
    const s = await setup(
      [
        sse.textTurn(planResponse(plan)),
        sse.toolTurn([{ name: 'write_file', args: { path: 'src/extra.ts', content: 'export const extra = 1;\n' } }]),
        sse.toolTurn([{ name: 'edit_file', args: { path: 'src/greet.ts', old_text: "'hi'", new_text: "'hello'" } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Changed the greeting to hello.'),
      ],
      { 'src/greet.ts': "export const greeting = 'hi';\n" },
    );
    const r = await runCli(
      ['plan', '--approve', 'execute', '--build-model', 'builder', ...s.args, 'say hello instead of hi'],
      { env: NO_RETRIES },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(s.ws.path('src/greet.ts'), 'utf8'), "export const greeting = 'hello';\n");
    assert.equal(readFileSync(s.ws.path('src/extra.ts'), 'utf8'), 'export const extra = 1;\n');
    assert.match(r.stdout, /Decision \(by setting\): implement the plan/);
    assert.match(r.stdout, /Say hello \(0\/1 completed, 0%\)\n {2}└─ □ [\s\S]*\n {2}\[x\] .* \(1\/1 completed, 100%\)/);
    assert.match(r.stdout, /Done \(session /);
    assert.deepEqual(
      s.server.requests.map((q) => q.body.model),
      ['scripted-model', 'builder', 'builder', 'builder', 'builder'],
    );
  });

  it('--approve revise asks for exactly one revision, then stops at the gate', async () => {
    const s = await setup([
      sse.textTurn(planResponse(samplePlan('First draft'))),
      sse.textTurn(planResponse(samplePlan('Second draft'))),
    ]);
    const r = await runCli(['plan', '--approve', 'revise', ...s.args, 'plan'], { env: NO_RETRIES });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(s.server.requests.length, 2);
    assert.equal((s.server.requests[1]!.body.messages.at(-1) as { content: string }).content, 'Revise the plan.');
    assert.match(r.stdout, /--approve revise: asking the planner for one revision/);
    assert.match(readFileSync(pendingPlanOf(r.stdout), 'utf8'), /^# Second draft/);
  });

  it('--approve fresh clears the context before building', async () => {
    const s = await setup([
      sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
      sse.textTurn(planResponse(samplePlan())),
      sse.textTurn('Nothing to build after all.'),
    ]);
    const r = await runCli(['plan', '--approve', 'fresh', ...s.args, 'plan'], { env: NO_RETRIES });
    // No step was marked completed, so the build ends incomplete (exit 1; the execution report lists it).
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /Decision \(by setting\): clear the context and implement the plan/);
    assert.match(r.stdout, /↺ Context cleared for execution/);
    const build = s.server.requests[2]!.body.messages;
    assert.deepEqual(
      build.map((m) => m['role']),
      ['system', 'user'],
    );
  });

  it('exits 1 with one sentence naming the base URL and model when the model cannot be reached', async () => {
    const closed = await serve([]);
    const baseURL = closed.baseURL;
    await closed.close();
    const ws = workspace({ 'README.md': '# demo\n' });
    const r = await runCli(['plan', '--workspace', ws.root, ...modelArgs(baseURL, 'gone-model'), 'plan it'], {
      env: NO_RETRIES,
    });
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.includes(baseURL), r.stderr);
    assert.ok(r.stderr.includes("'gone-model'"), r.stderr);
  });

  it('exits 1 with the resume hint when no valid plan came', async () => {
    const s = await setup([sse.textTurn(''), sse.textTurn(''), sse.textTurn('')]);
    const r = await runCli(['plan', ...s.args, 'plan it'], { env: NO_RETRIES });
    assert.equal(r.code, 1);
    const id = sessionIdOf(r.stdout);
    assert.match(r.stderr, new RegExp(`^planwise: No valid plan came: .*Resume with: planwise resume ${id}\\n$`));
  });

  it('usage errors exit 2 with one clear sentence: no key for a remote endpoint, bad flags', async () => {
    const ws = workspace({});

    const remote = await runCli(
      ['plan', '--workspace', ws.root, '--base-url', 'https://api.example.invalid/v1', 'task'],
      {
        env: { PLANWISE_MODEL: 'm' },
      },
    );
    assert.equal(remote.code, 2);
    assert.match(remote.stderr, /not on this machine and no API key is set: set OPENAI_API_KEY/);

    const unknown = await runCli(['plan', '--frobnicate', 'task'], { env: { PLANWISE_MODEL: 'm' } });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option '--frobnicate'/);

    const badApprove = await runCli(['plan', '--approve', 'yolo', 'task'], { env: { PLANWISE_MODEL: 'm' } });
    assert.equal(badApprove.code, 2);
    assert.match(badApprove.stderr, /--approve takes execute, fresh, revise or cancel, not 'yolo'/);

    const noTask = await runCli(['plan', '--workspace', ws.root], { env: { PLANWISE_MODEL: 'm' } });
    assert.equal(noTask.code, 2);
    assert.match(noTask.stderr, /give the task to plan/);

    const noDir = await runCli(['plan', '--workspace', join(ws.root, 'missing'), 'task'], {
      env: { PLANWISE_MODEL: 'm' },
    });
    assert.equal(noDir.code, 2);
    assert.match(noDir.stderr, /is not an existing directory/);
  });

  it('dims thinking on a terminal, and not with NO_COLOR', async () => {
    const script = () => [
      sse.turn(sse.reasoning('Considering the layout.'), sse.text(planResponse(samplePlan())), sse.finish()),
    ];
    const s = await setup(script());
    const tty = await runCli(['plan', ...s.args, 'task'], { env: NO_RETRIES, stdoutTTY: true });
    assert.equal(tty.code, 0, tty.stderr);
    assert.ok(tty.stdout.includes('\u001b[2mthinking: \u001b[22m\u001b[2mConsider'), tty.stdout);

    await s.server.close();
    const server = await serve(script());
    const plain = await runCli(['plan', '--workspace', s.ws.root, ...modelArgs(server.baseURL), 'task'], {
      env: { ...NO_RETRIES, NO_COLOR: '1' },
      stdoutTTY: true,
    });
    assert.equal(plain.code, 0, plain.stderr);
    assert.ok(plain.stdout.includes('thinking: Considering the layout.'));
    assert.ok(!plain.stdout.includes('\u001b['));
  });
});
