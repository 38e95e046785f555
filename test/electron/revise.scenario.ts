/**
 * Scenario 4 at the API level: "Stay in Planning" with feedback gives revision 2 and a comparison
 * of the drafts; "Approve in Fresh Context" builds from a thread that holds only the system prompt
 * and the handover.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { sse } from '../support/scriptedServer';
import { README_MARKER, greetingPlan, planTurn } from '../e2e/support/fixtures';
import { ModelScript, messageText } from '../e2e/support/modelScript';
import { exec, keys, newestPlanFile, useModel } from './helpers';

describe('electron: revise with feedback, then a fresh context', function () {
  let model: ModelScript;

  before(async function () {
    model = await ModelScript.start();
    await useModel(model.baseURL);
  });

  after(async function () {
    await model?.close();
  });

  it('4. revision 2 with the feedback, Compare Plan Revisions, and a fresh-context build request', async function () {
    model.push(
      sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
      planTurn(greetingPlan('Rename greet to welcome')),
    );
    let mark = keys.mark();
    await exec('planwise.startPlanning', 'Rename the greeting helper');
    await keys.waitFor('planwise.state', 'awaitingApproval', { after: mark });

    model.push(planTurn(greetingPlan('Rename greet to sayHello'), 'Revised as asked.'));
    mark = keys.mark();
    await exec('planwise.stayInPlanning', 'Call it sayHello instead of welcome.');
    await keys.waitFor('planwise.state', 'planning', { after: mark });
    await keys.waitFor('planwise.state', 'awaitingApproval', { after: mark });
    assert.match(messageText(model.requests[2]!.body.messages.at(-1)), /Call it sayHello instead of welcome/);
    const planFile = newestPlanFile();
    const history = readdirSync(planFile.replace(/\.md$/, '.history')).sort();
    assert.deepEqual(history, ['001.md', '002.md']);

    await exec('planwise.comparePlanRevisions');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `the active tab is not a diff: ${tab?.label}`);

    model.push(sse.textTurn('Nothing left to change.'));
    const before = model.mark();
    await exec('planwise.approveFreshContext');
    await model.waitForRequests(before + 1);
    const messages = model.requests[before]!.body.messages;
    assert.deepEqual(
      messages.map((m) => m['role']),
      ['system', 'user'],
    );
    const handover = messageText(messages[1]);
    assert.match(handover, /<approved_plan>/);
    assert.match(handover, /Rename greet to sayHello/);
    assert.ok(!JSON.stringify(messages).includes(README_MARKER), 'research output came along');
    model.assertDrained();
  });
});
