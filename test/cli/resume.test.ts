import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { NO_RETRIES, pendingPlanOf, runCli, sessionIdOf, useCliScene } from './cliHarness';

describe('planwise resume', () => {
  const { workspace, setup } = useCliScene();

  it('presents a pending plan again; answering it builds', async () => {
    const s = await setup([
      sse.textTurn(planResponse(samplePlan('Add notes', 'notes.txt'))),
      sse.toolTurn([{ name: 'write_file', args: { path: 'notes.txt', content: 'notes\n' } }]),
      sse.textTurn('Wrote notes.txt.'),
    ]);
    // The input ends at the gate: the plan is left pending.
    const first = await runCli(['plan', '--interactive', ...s.args, 'add notes'], { env: NO_RETRIES });
    assert.equal(first.code, 0, first.stderr);
    const id = sessionIdOf(first.stdout);
    const planFile = pendingPlanOf(first.stdout);
    const planText = readFileSync(planFile, 'utf8');

    // Non-interactive resume: shows the plan and stops at the same gate, without asking the model.
    const look = await runCli(['resume', id, ...s.args], { env: NO_RETRIES });
    assert.equal(look.code, 0, look.stderr);
    assert.match(look.stdout, new RegExp(`Resumed session ${id} ·`));
    assert.match(look.stdout, /── Plan · \.vtcode\/plans\/.*\.md ──[\s\S]*# Add notes/);
    assert.equal(pendingPlanOf(look.stdout), planFile);
    assert.equal(s.server.requests.length, 1);

    // Interactive resume: the same gate, "1" implements.
    const go = await runCli(['resume', id, '--interactive', ...s.args], { env: NO_RETRIES, stdin: ['1'] });
    // No step was marked completed, so the build ends incomplete (exit 1; the execution report lists it).
    assert.equal(go.code, 1, go.stderr);
    assert.match(go.stdout, /Implement this plan\? Add notes/);
    assert.equal(readFileSync(planFile, 'utf8'), planText);
    assert.equal(readFileSync(s.ws.path('notes.txt'), 'utf8'), 'notes\n');
    assert.match(go.stdout, /✓ Build finished\./);

    // Afterwards there is nothing to decide.
    const done = await runCli(['resume', id, ...s.args], { env: NO_RETRIES });
    assert.equal(done.code, 0);
    assert.match(done.stdout, new RegExp(`Session ${id} has finished; nothing awaits a decision`));
  });

  it('--approve decides a pending plan on resume', async () => {
    const s = await setup([sse.textTurn(planResponse(samplePlan())), sse.textTurn('Nothing left to do.')]);
    const first = await runCli(['plan', ...s.args, 'plan'], { env: NO_RETRIES });
    const id = sessionIdOf(first.stdout);
    const r = await runCli(['resume', id, '--approve', 'cancel', ...s.args], { env: NO_RETRIES });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Decision \(by setting\): cancel the plan/);
    assert.match(r.stdout, /^Cancelled\./m);
  });

  it('a message answers a planner that replied without a plan', async () => {
    const s = await setup([sse.textTurn('Which locale?'), sse.textTurn(planResponse(samplePlan()))]);
    const first = await runCli(['plan', ...s.args, 'add a greeting'], { env: NO_RETRIES });
    assert.equal(first.code, 1);
    const id = sessionIdOf(first.stdout);
    assert.ok(first.stderr.includes(`planwise resume ${id} "your reply"`), first.stderr);
    const r = await runCli(['resume', id, ...s.args, 'English only'], { env: NO_RETRIES });
    assert.equal(r.code, 0, r.stderr);
    const last = s.server.requests[1]!.body.messages.at(-1) as { role: string; content: string };
    assert.deepEqual([last.role, last.content], ['user', 'English only']);
    pendingPlanOf(r.stdout);
  });

  it('an unknown id exits 2 and lists the archived sessions', async () => {
    const s = await setup([sse.textTurn(planResponse(samplePlan()))]);
    const first = await runCli(['plan', ...s.args, 'plan'], { env: NO_RETRIES });
    const id = sessionIdOf(first.stdout);
    const r = await runCli(['resume', 'nope', ...s.args], { env: NO_RETRIES });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^planwise resume: no resumable session 'nope' in .*\.vtcode\/sessions\./);
    assert.ok(r.stderr.includes(`Sessions archived in`) && r.stderr.includes(id), r.stderr);
    assert.match(r.stderr, /'planwise plans' lists the plans/);

    const bad = await runCli(['resume', '../etc/passwd', ...s.args], { env: NO_RETRIES });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid session id/);

    const none = await runCli(['resume', ...s.args], { env: NO_RETRIES });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /give the session id/);
  });

  it('says so when the workspace has no sessions at all', async () => {
    const ws = workspace({});
    const r = await runCli(['resume', 'abc', '--workspace', ws.root, '--model', 'm'], { env: NO_RETRIES });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /No sessions are archived in .*; start one with 'planwise plan "task"'/);
  });
});
