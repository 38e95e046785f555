// The harness's parsers, on text shaped like what code-server 4.100.3 produces, and its scenario
// teardown (no server needed).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifactsDir, parseActivationLabel, parseExthostLog } from './harness';
import { artifactName } from './harness/workbench';
import { listZipEntries } from './harness/zip';
import { endScenario } from './support/artifacts';

describe('e2e harness parsers', function () {
  it('reads the Running Extensions activation label', function () {
    assert.deepEqual(parseActivationLabel('Startup Activation: 171ms'), { activationMs: 171, startup: true });
    assert.deepEqual(parseActivationLabel('Activation: 3ms'), { activationMs: 3, startup: false });
    assert.equal(parseActivationLabel('Activating...'), null);
  });

  it('reads activations from the extension host log, with and without a root cause', function () {
    const log = [
      '2026-11-30 11:28:23.262 [info] Extension host with pid 18893 started',
      "2026-11-30 11:28:24.936 [info] ExtensionService#_doActivateExtension vscode.git-base, startup: true, activationEvent: '*', root cause: vscode.git",
      "2026-11-30 11:28:28.344 [info] ExtensionService#_doActivateExtension planwise.planwise, startup: false, activationEvent: 'onCommand:planwise.start'",
    ].join('\n');
    assert.deepEqual(parseExthostLog(log), [
      { at: '2026-11-30 11:28:24.936', id: 'vscode.git-base', startup: true, activationEvent: '*' },
      {
        at: '2026-11-30 11:28:28.344',
        id: 'planwise.planwise',
        startup: false,
        activationEvent: 'onCommand:planwise.start',
      },
    ]);
  });

  it('turns screenshot names into safe file names and rejects empty ones', function () {
    assert.equal(artifactName('01 planning / gate'), '01-planning-gate.png');
    assert.equal(artifactName('done.png'), 'done.png');
    assert.throws(() => artifactName('///'), /no usable characters/);
  });

  it('rejects a file that is not a zip with a clear message', function () {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'planwise-e2e-zip-'));
    try {
      const file = path.join(dir, 'not.vsix');
      writeFileSync(file, 'plain text, long enough to be scanned for a zip trailer');
      assert.throws(() => listZipEntries(file), /is not a zip file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends a scenario whole when one of its parts fails to stop, and then says so', async function () {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'planwise-e2e-end-'));
    const ended: string[] = [];
    const userDataDir = path.join(dir, 'user-data'); // no logs in it: nothing to keep, and no failure
    const server = { userDataDir, stop: async () => void ended.push('server') };
    const wb = {
      close: async () => {
        ended.push('workbench');
        throw new Error('the browser had gone');
      },
    };
    const model = { close: async () => void ended.push('model') };
    const ws = { cleanup: () => void ended.push('workspace') };
    await assert.rejects(
      endScenario('harness-self-test', { server, wb, model, ws }, dir, undefined),
      /the browser had gone/,
    );
    assert.deepEqual(ended, ['workbench', 'server', 'model', 'workspace']);
    assert.equal(existsSync(dir), false);
    rmSync(path.join(artifactsDir, 'logs', 'harness-self-test'), { recursive: true, force: true });
  });
});
