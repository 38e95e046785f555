import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { sse, type RecordedRequest, type ScriptedTurn } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { NO_RETRIES, runCli, useCliScene } from './cliHarness';

const question = {
  name: 'request_user_input',
  args: {
    questions: [
      {
        header: 'Name',
        question: 'Which name should the helper have?',
        options: [
          { label: 'greet', description: 'short', recommended: true },
          { label: 'hello', description: 'friendly' },
        ],
        allow_note: true,
      },
    ],
  },
};

const lastUserText = (r: RecordedRequest) =>
  (r.body.messages.filter((m) => m['role'] === 'user').at(-1) as { content: string } | undefined)?.content ?? '';

describe('planwise plan on a terminal (scripted stdin, --interactive)', () => {
  const { setup } = useCliScene();

  async function run(script: readonly ScriptedTurn[], stdin: string[], flags: string[] = []) {
    const { server, ws, args } = await setup(script);
    // The sample plans verify with `node -e …` scripts, which this person allow-listed.
    const allow = ['--allow-command', 'node -e *'];
    const r = await runCli(['plan', '--interactive', ...allow, ...flags, ...args, 'add a greeting helper'], {
      env: NO_RETRIES,
      stdin,
    });
    return { ...r, server, ws };
  }

  it('answers a question, stays in Plan mode with feedback, sees the revision, then implements with "1"', async () => {
    const r = await run(
      [
        sse.toolTurn([question]),
        sse.textTurn(planResponse(samplePlan('Add a greeting helper'))),
        sse.textTurn(planResponse(samplePlan('Add a hello helper'), 'Renamed.')),
        sse.toolTurn([{ name: 'write_file', args: { path: 'src/greet.ts', content: 'export const hello = 1;\n' } }]),
        sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        sse.textTurn('Added src/greet.ts.'),
      ],
      ['2', 'keep it short', '3', 'call it hello', '1'],
    );
    assert.equal(r.code, 0, r.stderr);
    // The question on the terminal: numbered options, the recommended one marked.
    assert.match(
      r.stdout,
      /\? Name\n {2}Which name should the helper have\?\n {4}1\) greet \(recommended\) — short\n {4}2\) hello — friendly/,
    );
    const answered = r.server.requests[1]!.body.messages.find((m) => m['role'] === 'tool') as { content: string };
    assert.match(answered.content, /The person answered:\n- Name: hello — keep it short/);
    // The gate's three choices; "3" asks what should change, and that goes to the model as feedback.
    assert.ok(
      r.stdout.includes('1) Yes, implement this plan  2) Yes, clear context and implement  3) No, stay in Plan mode'),
    );
    assert.match(r.stdout, /What should change in the plan\? \(Enter goes back to the choices\): call it hello/);
    assert.equal(lastUserText(r.server.requests[2]!), 'Revise the plan: call it hello');
    assert.match(r.stdout, /── Plan · revision 2 \(changes against 1\)/);
    assert.match(r.stdout, /^-# Add a greeting helper\n\+# Add a hello helper$/m);
    // Then "1": the build runs in this context with a live tracker.
    assert.match(r.stdout, /Decision \(by you\): implement the plan in this context/);
    assert.match(
      r.stdout,
      /Add a hello helper \(0\/1 completed, 0%\)\n {2}└─ □ Add the greet function[\s\S]*\n {2}\[x\] Add the greet function \(1\/1 completed, 100%\)/,
    );
    assert.equal(readFileSync(r.ws.path('src/greet.ts'), 'utf8'), 'export const hello = 1;\n');
    assert.match(r.stdout, /✓ Build finished\./);
  });

  it('treats unclear text at the gate as feedback, never approval; a typed "looks good" implements', async () => {
    const r = await run(
      [
        sse.textTurn(planResponse(samplePlan())),
        sse.textTurn(planResponse(samplePlan('Add a greeting helper with errors'))),
        sse.textTurn('Nothing to change, the plan is done.'),
      ],
      ['what about errors?', 'looks good'],
    );
    // No step was marked completed, so the build ends incomplete (exit 1; the execution report lists it).
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /understood: not a clear decision, so it is feedback for the planner/);
    assert.equal(lastUserText(r.server.requests[1]!), 'Revise the plan: what about errors?');
    assert.match(r.stdout, /understood: “looks good”/);
    assert.match(r.stdout, /Decision \(by you\): implement the plan in this context/);
    assert.match(lastUserText(r.server.requests[2]!), /approved by the person/);
  });

  it('"no, keep planning" stays in Plan mode (stay wins over exit); "cancel" cancels with exit 0', async () => {
    const r = await run(
      [sse.textTurn(planResponse(samplePlan())), sse.textTurn(planResponse(samplePlan('Second draft')))],
      ['no, keep planning and implement it later', 'cancel'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastUserText(r.server.requests[1]!), 'Revise the plan: no, keep planning and implement it later');
    assert.match(r.stdout, /Decision \(by you\): cancel the plan/);
    assert.match(r.stdout, /^Cancelled\. The plan stays at \.vtcode\/plans\/.*\.md\.$/m);
    assert.equal(r.server.requests.length, 2);
  });

  const twoQuestions = {
    name: 'request_user_input',
    args: {
      questions: [
        {
          header: 'Name',
          question: 'Which name should the helper have?',
          options: [{ label: 'greet', recommended: true }, { label: 'hello' }],
        },
        {
          header: 'Tests',
          question: 'Add a unit test?',
          options: [{ label: 'yes', recommended: true }, { label: 'no' }],
        },
      ],
    },
  };
  const toolResultOf = (r: { server: { requests: RecordedRequest[] } }) =>
    (r.server.requests[1]!.body.messages.find((m) => m['role'] === 'tool') as { content: string }).content;

  it('Enter takes the recommended option of the current question, and keeps the earlier answers', async () => {
    const r = await run([sse.toolTurn([twoQuestions]), sse.textTurn(planResponse(samplePlan()))], ['2', '']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Choose 1-2 \(Enter for 1, skip to skip this question\)/);
    assert.match(toolResultOf(r), /The person answered:\n- Name: hello\n- Tests: yes\n/);
    assert.match(r.stdout, /✓ Name: hello\n✓ Tests: yes/);
  });

  it('"skip" skips that question alone; the model hears which one was not answered', async () => {
    const r = await run([sse.toolTurn([twoQuestions]), sse.textTurn(planResponse(samplePlan()))], ['skip', '2']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(toolResultOf(r), /- Name: \(not answered\)\n- Tests: no\n/);
    assert.match(r.stdout, /- Name: skipped\n✓ Tests: no/);
  });

  it('the end of input after one answer keeps that answer; with none the questions count as closed', async () => {
    const one = await run([sse.toolTurn([twoQuestions]), sse.textTurn(planResponse(samplePlan()))], ['2']);
    assert.equal(one.code, 0, one.stderr);
    assert.match(toolResultOf(one), /- Name: hello\n- Tests: \(not answered\)/);
    const none = await run([sse.toolTurn([question]), sse.textTurn(planResponse(samplePlan()))], []);
    assert.match(toolResultOf(none), /closed the questions without answering/);
    assert.match(none.stdout, /Questions skipped/);
    // The input ended at the gate: the plan stays pending.
    assert.match(none.stdout, /Plan awaiting approval: .*\.md\nDecide later with: planwise resume \S+/);
  });

  it('asks y/N before a build command the gate does not allow, and runs only what was approved', async () => {
    const r = await run(
      [
        sse.textTurn(planResponse(samplePlan('Make files', 'made.txt'))),
        sse.toolTurn([{ name: 'run_command', args: { command: 'touch made.txt' } }]),
        sse.toolTurn([{ name: 'run_command', args: { command: 'touch refused.txt' } }]),
        sse.textTurn('Made one file.'),
      ],
      ['1', 'y', 'n'],
    );
    // No step was marked completed, so the build ends incomplete (exit 1; the execution report lists it).
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /\? The build wants to run a command that needs your approval:\n {4}\$ touch made\.txt/);
    assert.match(r.stdout, /Run it\? \[y\/N, a = always in this run\] y\n {2}approved/);
    assert.match(r.stdout, /Run it\? \[y\/N, a = always in this run\] n\n {2}not run/);
    assert.ok(existsSync(r.ws.path('made.txt')));
    assert.equal(existsSync(r.ws.path('refused.txt')), false);
  });

  it('answers a prose reply from the planner on the terminal, and planning goes on', async () => {
    const r = await run(
      [sse.textTurn('Should the greeting be localised?'), sse.textTurn(planResponse(samplePlan()))],
      ['no, English only'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /Should the greeting be localised\?\n.*\nYour reply to the planner \(Enter to stop here\): no, English only/,
    );
    assert.equal(lastUserText(r.server.requests[1]!), 'no, English only');
    assert.match(r.stdout, /Plan awaiting approval: /);
  });

  it('prints the plan once at the gate: whole in the transcript, then the gate names it and asks', async () => {
    const r = await run(
      [sse.textTurn(planResponse(samplePlan())), sse.textTurn(planResponse(samplePlan('Second draft')))],
      ['what about errors?', 'cancel'],
    );
    assert.equal(r.code, 0, r.stderr);
    const [first, second] = r.stdout.split('Choose 1-3, or type what should change: ');
    const count = (text: string, what: string) => text.split(what).length - 1;
    assert.match(first!, /── Plan · revision 1 · \.vtcode\/plans\/[^\n]+\n# Add a greeting helper\n/);
    assert.equal(count(first!, 'Add the greet function'), 1, first);
    assert.equal(count(first!, 'so callers get a consistent greeting'), 1, first);
    assert.match(first!, /Implement this plan\? Add a greeting helper\n {2}verify commands:/);
    assert.match(first!, /1\) Yes, implement this plan {2}2\) Yes, clear context and implement/);
    // A revision is printed as its changes, so its gate lists the revised plan's steps.
    assert.match(second!, /── Plan · revision 2 \(changes against 1\)/);
    assert.match(
      second!,
      /Implement this plan\? Second draft\n[^\n]*\n {2}Add `greet\(name\)`[^\n]*\n {2}1\. Add the greet function/,
    );
  });

  it('--approve revise answers only the first gate; the revised plan is put to the person', async () => {
    const r = await run(
      [sse.textTurn(planResponse(samplePlan('First draft'))), sse.textTurn(planResponse(samplePlan('Second draft')))],
      ['cancel'],
      ['--approve', 'revise'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.server.requests.length, 2);
    assert.match(r.stdout, /Implement this plan\? Second draft/);
    assert.ok(!r.stdout.includes('Implement this plan? First draft'));
    assert.match(r.stdout, /^Cancelled\./m);
  });
});
