/**
 * Scenario 5 at the API level, in a launch where workspace trust is on and the folder is not
 * trusted: planning works with the file tools, the shell tool is refused with its reason, and the
 * plan file's verify lenses explain why they do not run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { sse } from '../support/scriptedServer';
import { GREET_BEFORE, VERIFY, greetingPlan, planTurn } from '../e2e/support/fixtures';
import { ModelScript, toolResults } from '../e2e/support/modelScript';
import { exec, keys, lensTitles, newestPlanFile, useModel, waitForLens, workspaceRoot } from './helpers';

describe('electron: an untrusted workspace (Restricted Mode)', function () {
  let model: ModelScript;

  before(async function () {
    assert.equal(vscode.workspace.isTrusted, false, 'runTest.ts opens this launch with an untrusted folder');
    model = await ModelScript.start();
    await useModel(model.baseURL);
  });

  after(async function () {
    await model?.close();
  });

  it('5. the shell tool is off with its reason, files are read, verify lenses explain why', async function () {
    model.push(
      sse.toolTurn([{ name: 'exec_command', args: { command: 'ls -la' } }]),
      sse.toolTurn([{ name: 'read_file', args: { path: 'greet.js' } }]),
      planTurn(greetingPlan()),
    );
    await exec('planwise.startPlanning', 'Make the greeting friendlier');
    await keys.waitFor('planwise.state', 'awaitingApproval');
    assert.match(
      toolResults(model.requests[1]).join('\n'),
      /^blocked: .*(shell commands are|exec_command is) off .*(untrusted|not trusted)/m,
    );
    assert.match(toolResults(model.requests[2]).join('\n'), /'Hi ' \+ name/);
    model.assertDrained();
    assert.equal(readFileSync(path.join(workspaceRoot(), 'greet.js'), 'utf8'), GREET_BEFORE);

    const uri = vscode.Uri.file(newestPlanFile());
    await waitForLens(uri, new RegExp(`${VERIFY}: verify is off in Restricted Mode`));
    const titles = (await lensTitles(uri)).map((l) => l.title);
    assert.ok(
      titles.some((t) => /Verify is off in Restricted Mode/.test(t)),
      JSON.stringify(titles),
    );
    assert.ok(!titles.some((t) => t.startsWith('▶')), `a runnable verify lens: ${JSON.stringify(titles)}`);
  });
});
