import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { GATE_RUN_ENV } from '../../src/core/gate/runEnv';
import { runTool } from '../../src/core/tools';
import { RUN_COMMAND_DEFAULT_TIMEOUT_MS, runCommandTool as tool } from '../../src/core/tools/build/runCommand';
import type { AgentToolContext } from '../../src/core/tools/session/context';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { RecordingRunner } from '../tools/helpers';
import { agentContextFor, ScriptedApprover } from './helpers';

describe('run_command', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'a.txt': 'alpha\n' });
  });
  afterEach(() => ws.cleanup());

  const ctxWith = (over: Partial<AgentToolContext> = {}) => agentContextFor(ws, over);

  it('runs a read-only command at once, in the workspace root, without asking', async () => {
    const approver = new ScriptedApprover(false);
    const r = await tool.run({ command: 'pwd && cat a.txt' }, ctxWith({ approver }));
    assert.equal(r.ok, true);
    assert.equal(r.content, `exit code 0\nstdout:\n${ws.root}\nalpha\nstderr: (empty)`);
    assert.equal(approver.commands.length, 0);
  });

  it('runs an allow-listed command without asking', async () => {
    const approver = new ScriptedApprover(false);
    const r = await tool.run({ command: 'touch made.txt' }, ctxWith({ approver, buildAllowList: ['touch made.txt'] }));
    assert.equal(r.ok, true, r.content);
    assert.equal(existsSync(ws.path('made.txt')), true);
    assert.equal(approver.commands.length, 0);
  });

  it('asks before anything else, runs it when approved, and shows the person why it asked', async () => {
    const approver = new ScriptedApprover(true);
    const r = await tool.run({ command: 'echo built > out.txt' }, ctxWith({ approver }));
    assert.equal(r.ok, true, r.content);
    assert.equal(readFileSync(ws.path('out.txt'), 'utf8'), 'built\n');
    assert.equal(approver.commands.length, 1);
    assert.equal(approver.commands[0]?.command, 'echo built > out.txt');
    assert.match(approver.commands[0]?.reason ?? '', /^not read-only \(.*redirection.*\); no allow-list is set$/);
  });

  it('never runs a denied command and says so clearly', async () => {
    const approver = new ScriptedApprover(false);
    const r = await tool.run({ command: 'touch made.txt' }, ctxWith({ approver }));
    assert.equal(r.ok, false);
    assert.equal(r.blocked, true);
    assert.match(
      r.content,
      /^blocked: the person did not allow `touch made\.txt`, so it did not run\. To allow it, .*planwise\.buildCommandAllowList.*--allow-command 'touch made\.txt'.* Do not retry it/,
    );
    assert.equal(existsSync(ws.path('made.txt')), false);
  });

  it('asks for an allow-list bypass attempt, and a denial runs none of it', async () => {
    const approver = new ScriptedApprover(false);
    const ctx = ctxWith({ approver, buildAllowList: ['touch one.txt', 'touch one.txt *'] });
    for (const command of [
      'touch one.txt && touch two.txt',
      'touch one.txt; touch two.txt',
      'touch one.txt | touch two.txt',
      'touch one.txt $(touch two.txt)',
      'touch one.txt `touch two.txt`',
      'touch one.txt > two.txt',
    ]) {
      const r = await tool.run({ command }, ctx);
      assert.equal(r.blocked, true, command);
    }
    assert.equal(approver.commands.length, 6);
    assert.match(approver.commands[0]?.reason ?? '', /starts like your allow-list entry 'touch one\.txt'/);
    assert.equal(existsSync(ws.path('one.txt')), false);
    assert.equal(existsSync(ws.path('two.txt')), false);
  });

  it('refuses a command that needs approval when no one can approve', async () => {
    const runner = new RecordingRunner();
    const r = await tool.run({ command: 'touch made.txt' }, ctxWith({ runner }));
    assert.equal(r.blocked, true);
    assert.match(
      r.content,
      /needs the person's yes \(.*\), and nobody can be asked in this run\. To allow it, .*planwise\.buildCommandAllowList, or pass --allow-command 'touch made\.txt'/,
    );
    assert.equal(runner.calls.length, 0);
  });

  it('refuses everything in an untrusted workspace without asking', async () => {
    const approver = new ScriptedApprover(true);
    const runner = new RecordingRunner();
    for (const command of ['ls', 'touch made.txt']) {
      const r = await tool.run({ command }, ctxWith({ approver, runner, trusted: false }));
      assert.equal(r.blocked, true);
      assert.match(r.content, /not trusted/);
    }
    assert.equal(approver.commands.length, 0);
    assert.equal(runner.calls.length, 0);
  });

  it('refuses a command with hidden characters without showing it to the person', async () => {
    const approver = new ScriptedApprover(true);
    const r = await tool.run({ command: 'ls\rtouch made.txt' }, ctxWith({ approver }));
    assert.equal(r.blocked, true);
    assert.match(r.content, /U\+000D/);
    assert.equal(approver.commands.length, 0);
  });

  it('passes the exec environment, the timeout and the output cap to the runner', async () => {
    const runner = new RecordingRunner();
    await tool.run({ command: 'ls' }, ctxWith({ runner }));
    await tool.run({ command: 'ls' }, ctxWith({ runner, commandTimeoutMs: 5000 }));
    const [first, second] = runner.calls;
    assert.equal(first?.options.cwd, ws.root);
    assert.equal(first?.options.timeoutMs, RUN_COMMAND_DEFAULT_TIMEOUT_MS);
    assert.equal(second?.options.timeoutMs, 5000);
    // A read-only command runs with the gate's environment, as exec_command runs it.
    assert.equal(first?.options.env, GATE_RUN_ENV);
    assert.equal(first?.options.maxOutputBytes, 1024 * 1024);
  });

  it('reports a failing command with its exit code and stderr', async () => {
    const r = await tool.run({ command: 'cat no-such-file.txt' }, ctxWith());
    assert.equal(r.ok, false);
    assert.match(r.content, /^exit code 1\nstdout: \(empty\)\nstderr:\n.*no-such-file\.txt/);
  });

  it('kills a command at its timeout and says so', async () => {
    const approver = new ScriptedApprover(true);
    const r = await tool.run({ command: 'echo started; sleep 5' }, ctxWith({ approver, commandTimeoutMs: 300 }));
    assert.equal(r.ok, false);
    assert.match(r.content, /^timed out after 0\.3 s and was killed; output so far:\nstdout:\nstarted/);
  });

  it('says when the host cannot run commands, before asking anyone', async () => {
    const approver = new ScriptedApprover(true);
    const r = await tool.run({ command: 'touch x' }, ctxWith({ approver, runner: undefined }));
    assert.match(r.content, /^run_command is not available here: this host cannot run commands/);
    assert.equal(approver.commands.length, 0);
  });

  it('validates its arguments as the model sends them', async () => {
    const r = await runTool(tool, JSON.stringify({ command: '' }), ctxWith());
    assert.match(r.content, /^run_command: invalid arguments \(command: /);
  });
});
