/**
 * Scenarios 1–3 at the API level, in a VS Code that @vscode/test-electron downloaded: planning to
 * the gate through the commands and the native (QuickPick) interview, the plan file's verify
 * CodeLens, and the build with an undoable edit and a completed tracker. Context keys are read
 * through the probe (contextKeys.ts); the model is the scripted server, in this process.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { sse } from '../support/scriptedServer';
import { GREET_AFTER, GREET_BEFORE, INTERVIEW, VERIFY, greetingPlan, planTurn } from '../e2e/support/fixtures';
import { ModelScript, toolResults } from '../e2e/support/modelScript';
import {
  acceptQuickPick,
  exec,
  keys,
  lensTitles,
  newestPlanFile,
  planFiles,
  useModel,
  waitForLens,
  waitUntil,
  workspaceRoot,
} from './helpers';

describe('electron: planning to the gate, the plan file, the build', function () {
  let model: ModelScript;
  let planFile = '';

  before(async function () {
    model = await ModelScript.start();
    await useModel(model.baseURL);
  });

  after(async function () {
    await model?.close();
  });

  it('1. Start Planning → the interview answered in QuickPicks → the gate, with the plan file on disk', async function () {
    assert.equal(keys.get('planwise.state'), undefined, 'Planwise activated before its first command');
    model.push(
      sse.toolTurn([{ name: 'read_file', args: { path: 'greet.js' } }], { text: 'Reading the helper first.' }),
      sse.toolTurn([{ name: 'request_user_input', args: INTERVIEW }]),
      planTurn(greetingPlan()),
    );
    await exec('planwise.startPlanning', 'Make the greeting friendlier');
    await keys.waitFor('planwise.pendingQuestion', true);
    assert.equal(keys.get('planwise.state'), 'planning');
    assert.equal(keys.get('planwise.busy'), true);

    // The panel is hidden here, so the questions are answered in the native QuickPick flow.
    const answering = exec('planwise.answerQuestions');
    await acceptQuickPick(1); // "Hi", then "Hello" (recommended): pick Hello
    await acceptQuickPick(0); // "Yes" (recommended) is first
    await answering;

    await keys.waitFor('planwise.state', 'awaitingApproval');
    await keys.waitFor('planwise.hasPlan', true);
    const answers = toolResults(model.requests[2]).join('\n');
    assert.match(answers, /Greeting: Hello/);
    assert.match(answers, /Punctuation: Yes/);
    assert.equal(planFiles().length, 1);
    planFile = newestPlanFile();
    assert.match(readFileSync(planFile, 'utf8'), /^# Greet with Hello/m);
    model.assertDrained();
  });

  it('2. the plan file: the verify CodeLens runs the check and shows its exit code', async function () {
    assert.ok(planFile, 'scenario 1 wrote no plan');
    const uri = vscode.Uri.file(planFile);
    await exec('planwise.openCurrentPlan');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, uri.fsPath);
    const titles = (await lensTitles(uri)).map((l) => l.title);
    assert.ok(
      titles.some((t) => /Approve/.test(t)),
      `the gate's lenses are missing: ${JSON.stringify(titles)}`,
    );
    const run = await waitForLens(uri, new RegExp(`^▶ ${VERIFY}`));
    assert.equal(run.command, 'planwise.runVerify');
    await exec(run.command, ...(run.arguments ?? []));
    await waitForLens(uri, /✗ exit 1/); // greet.js still says "Hi"
  });

  it('3. build: approve → the agent edits greet.js (undoable) → verify passes → the tracker is complete', async function () {
    const greet = vscode.Uri.file(path.join(workspaceRoot(), 'greet.js'));
    const doc = await vscode.workspace.openTextDocument(greet);
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.getText(), GREET_BEFORE);
    model.push(
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'in_progress' } }]),
      sse.toolTurn([
        { name: 'edit_file', args: { path: 'greet.js', old_text: "'Hi ' + name", new_text: "'Hello, ' + name + '!'" } },
      ]),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('Done.'),
    );
    const mark = keys.mark();
    await exec('planwise.approvePlan');
    await keys.waitFor('planwise.state', 'executing', { after: mark });
    await waitUntil('the edit in the open document', () => doc.getText() === GREET_AFTER);
    await waitUntil('the build to end', () => model.pending === 0 && keys.get('planwise.busy') === false);
    model.assertDrained();
    assert.match(toolResults(model.requests.at(-1)).join('\n'), /\(1\/1 completed, 100%\)/);
    assert.match(readFileSync(planFile, 'utf8'), /- \[x\] Add the greet function/);
    assert.equal(readFileSync(greet.fsPath, 'utf8'), GREET_AFTER, 'the edit was not saved');

    // Undo reverts the agent's edit in the editor; Redo restores it.
    await vscode.window.showTextDocument(doc);
    await exec('undo');
    await waitUntil('Undo to revert the edit', () => doc.getText() === GREET_BEFORE);
    await exec('redo');
    await waitUntil('Redo to restore the edit', () => doc.getText() === GREET_AFTER);
    await doc.save();

    const run = await waitForLens(vscode.Uri.file(planFile), new RegExp(`^▶ ${VERIFY}`));
    await exec(run.command, ...(run.arguments ?? []));
    await waitForLens(vscode.Uri.file(planFile), /✓ passed/);
  });
});
