/**
 * Scenario 6, second half: VS Code opens the same profile and folder again (what a window reload
 * does to the extension host). The session left at the gate comes back with its gate, the key
 * kept in secret storage still reaches the model, and the key is in no settings, log or archive.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { sse } from '../support/scriptedServer';
import { ModelScript } from '../e2e/support/modelScript';
import { electronEnv, exec, keys, useModel, workspaceRoot } from './helpers';

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('electron: a new launch of the same profile and folder', function () {
  const { apiKey, userDataDir } = electronEnv();
  let model: ModelScript;

  before(async function () {
    model = await ModelScript.start({ apiKey });
    await useModel(model.baseURL);
  });

  after(async function () {
    await model?.close();
  });

  it('6b. the session and its pending gate come back; the stored key is still sent, and found nowhere else', async function () {
    assert.equal(keys.get('planwise.state'), undefined, 'Planwise activated before its first command');
    // Any command that loads the host brings the live session back.
    await exec('planwise.showLog');
    await exec('planwise.openCurrentPlan');
    await keys.waitFor('planwise.state', 'awaitingApproval');
    assert.equal(keys.get('planwise.hasPlan'), true);

    model.push(sse.textTurn('Nothing needed changing.'));
    await exec('planwise.approvePlan');
    await model.waitForRequests(1);
    assert.equal(model.requests[0]!.headers.authorization, `Bearer ${apiKey}`);
    await keys.waitFor('planwise.busy', false);
    model.assertDrained();

    const settings = readFileSync(path.join(userDataDir, 'User', 'settings.json'), 'utf8');
    assert.ok(!settings.includes(apiKey), 'the key is in settings.json');
    const leaks = [
      ...filesUnder(path.join(userDataDir, 'logs')),
      ...filesUnder(path.join(userDataDir, 'User', 'workspaceStorage')).filter((f) => /planwise/.test(f)),
      ...filesUnder(workspaceRoot()),
    ].filter((f) => readFileSync(f, 'utf8').includes(apiKey));
    assert.deepEqual(leaks, [], 'the key was written to these files');
    const planwiseLogs = filesUnder(path.join(userDataDir, 'logs')).filter((f) => /planwise\.planwise/.test(f));
    assert.ok(planwiseLogs.length > 0, 'no Planwise log was written');
  });
});
