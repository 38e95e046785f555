/**
 * Scenario 6, first half (the last scenarios of the "main" launch): the API key set through
 * "Planwise: Set API Key" is the bearer token the model server sees, and a plan is left waiting
 * at the gate. reopened.test.ts, in the next launch of the same VS Code profile and folder, checks
 * that the session and its gate come back and that the key appears nowhere else.
 */
import assert from 'node:assert/strict';
import { sse } from '../support/scriptedServer';
import { greetingPlan, planTurn } from '../e2e/support/fixtures';
import { ModelScript } from '../e2e/support/modelScript';
import { electronEnv, exec, keys, typeIntoInputBox, useModel } from './helpers';

export const RELOAD_TASK = 'Plan across a restart of VS Code';

describe('electron: the API key, and a plan left at the gate for the next launch', function () {
  const { apiKey } = electronEnv();
  let model: ModelScript;

  before(async function () {
    model = await ModelScript.start({ apiKey });
    await useModel(model.baseURL);
  });

  after(async function () {
    await model?.close();
  });

  it('6a. Set API Key (password box) → every model request carries it as the bearer token', async function () {
    const setting = exec('planwise.setApiKey');
    await typeIntoInputBox(apiKey);
    await setting;
    model.push(sse.toolTurn([{ name: 'read_file', args: { path: 'greet.js' } }]), planTurn(greetingPlan()));
    const mark = keys.mark();
    await exec('planwise.startPlanning', RELOAD_TASK);
    await keys.waitFor('planwise.state', 'awaitingApproval', { after: mark });
    model.assertDrained();
    assert.equal(model.requests.length, 2);
    for (const r of model.requests) assert.equal(r.headers.authorization, `Bearer ${apiKey}`);
    assert.deepEqual(
      model.server.otherRequests.filter((r) => r.path.endsWith('/chat/completions')),
      [],
      'a request without the key was refused',
    );
  });
});
