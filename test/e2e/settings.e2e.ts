// Settings read at activation, in a real VS Code (code-server) on the installed VSIX. Activation
// reads only `planwise.plansDirectory` (the plan lenses' selector); every other setting is read and
// checked just after, so a bad value still gets its warning, and the lenses follow a custom folder.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { endScenario, screenshotOnFailure } from './support/artifacts';
import { VERIFY, greetingPlan, makeWorkspace, type Workspace } from './support/fixtures';
import { openFile, planwiseSettings, waitForCodeLens } from './support/ui';

describe('e2e: settings at activation (installed VSIX)', function () {
  let ws: Workspace;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;

  before(async function () {
    ws = makeWorkspace();
    mkdirSync(ws.file(path.join('docs', 'plans')), { recursive: true });
    writeFileSync(ws.file(path.join('docs', 'plans', 'greet.md')), greetingPlan());
    server = await startCodeServer({
      workspace: ws.root,
      vsix: buildPlanwiseVsix().file,
      // No model is asked for anything here.
      settings: planwiseSettings('http://127.0.0.1:9/v1', {
        'planwise.contextWindow': 5,
        'planwise.plansDirectory': 'docs/plans',
      }),
    });
    wb = await openWorkbench(server);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('settings', { server, wb, ws });
  });

  it('warns about a bad setting once activated, and puts lenses on plans in the configured folder', async function () {
    assert.ok(wb);
    await wb.runCommand('Planwise: Show Log');
    const warning = await wb.waitForNotification(/Setting planwise\.contextWindow/);
    assert.match(warning, /must be a whole number of at least 1024.*got 5\. Using 128000\./);
    // The toast offers to open the setting.
    const toast = wb.page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: /planwise\.contextWindow/ });
    await toast.getByRole('button', { name: 'Open Settings' }).waitFor({ state: 'visible' });

    await openFile(wb, 'docs/plans/greet.md');
    const lenses = await waitForCodeLens(wb, new RegExp(`▶.*${VERIFY}|${VERIFY}`));
    assert.ok(lenses.length > 0, 'no lens on a plan file in the configured folder');
    await wb.screenshot('e2e-settings-warning-and-lenses');
  });
});
