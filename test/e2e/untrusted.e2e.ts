// Scenario 5 in a real VS Code (code-server) on the installed VSIX: an untrusted workspace (Restricted
// Mode). Planning still works with the file tools, the shell tool is off (the model's exec_command is
// answered with the reason), and the plan file's verify lenses say why they do not run.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { endScenario, screenshotOnFailure } from './support/artifacts';
import {
  CHECK_JS,
  GREET_BEFORE,
  VERIFY,
  greetingPlan,
  makeWorkspace,
  planTurn,
  type Workspace,
} from './support/fixtures';
import { ModelScript, toolResults } from './support/modelScript';
import {
  Panel,
  activeTab,
  paletteEntries,
  planwiseSettings,
  startPlanning,
  waitForCodeLens,
  widenSidebar,
} from './support/ui';

describe('e2e: an untrusted workspace (Restricted Mode, installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;

  before(async function () {
    ws = makeWorkspace();
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: buildPlanwiseVsix().file,
      settings: planwiseSettings(model.baseURL),
      trustWorkspace: false,
    });
    wb = await openWorkbench(server);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('untrusted', { server, wb, model, ws });
  });

  it('5. plans read-only: the shell tool is off with its reason, files are read, verify lenses explain why', async function () {
    assert.ok(wb);
    await wb.page.locator('.part.statusbar').getByText('Restricted Mode').waitFor({ state: 'visible' });
    model.push(
      sse.toolTurn([{ name: 'exec_command', args: { command: 'ls -la' } }], { text: 'Listing the workspace first.' }),
      sse.toolTurn([{ name: 'read_file', args: { path: 'greet.js' } }]),
      planTurn(greetingPlan()),
    );
    const panel = new Panel(wb);
    await startPlanning(wb, 'Make the greeting friendlier');
    await widenSidebar(wb, 470);

    // The panel says what Restricted Mode means, and the plan still arrives at the gate.
    await panel.waitFor('.pw-banner', { text: 'This workspace is not trusted' });
    await panel.waitFor('.pw-gate', { text: 'Ready to code?' });
    // One banner, with its Trust Workspace button, and the gate says verify is off before approval.
    assert.equal(await (await panel.locator('.pw-banner')).count(), 1, 'one Restricted Mode banner');
    await panel.waitFor('.pw-banner', { text: 'Trust Workspace' });
    await panel.waitFor('.pw-gate', { text: 'Verify is off in Restricted Mode: steps cannot complete.' });
    await wb.screenshot('e2e-10-untrusted-gate');

    // The shell tool was refused with the reason; the file tools worked.
    const shell = toolResults(model.requests[1]).join('\n');
    assert.match(shell, /^blocked: .*(shell commands are|exec_command is) off .*(untrusted|not trusted)/m);
    assert.doesNotMatch(shell, /check\.js/, 'ls ran after all: its listing reached the model');
    const read = toolResults(model.requests[2]).join('\n');
    assert.match(read, /'Hi ' \+ name/);
    model.assertDrained();
    assert.match(await (await panel.locator('.pw-tool-call')).first().innerText(), /^Not run: /m);

    // Nothing but the plan was written.
    assert.equal(readFileSync(ws.file('greet.js'), 'utf8'), GREET_BEFORE);
    assert.equal(readFileSync(ws.file('check.js'), 'utf8'), CHECK_JS);
    const plans = readdirSync(ws.file(path.join('.vtcode', 'plans'))).filter(
      (f) => f.endsWith('.md') && !f.endsWith('.tasks.md'),
    );
    assert.equal(plans.length, 1);

    // The plan file's lenses explain why verify is off, and no verify command is offered.
    await wb.runCommand('Planwise: Open Current Plan');
    await activeTab(wb, plans[0]!);
    const lenses = await waitForCodeLens(wb, new RegExp(`${VERIFY}: verify is off in Restricted Mode`));
    assert.ok(
      lenses.some((t) => /Verify is off in Restricted Mode: trust the workspace to run it/.test(t)),
      `lenses: ${JSON.stringify(lenses)}`,
    );
    assert.ok(!lenses.some((t) => t.startsWith('▶')), `a runnable verify lens is shown: ${JSON.stringify(lenses)}`);
    await wb.screenshot('e2e-11-untrusted-lenses');
    const palette = await paletteEntries(wb, 'Planwise:');
    assert.ok(palette.includes('Planwise: Open Current Plan'), `palette: ${palette.join('; ')}`);
    assert.ok(!palette.includes('Planwise: Run All Verify Commands'), 'verify is offered in Restricted Mode');
  });
});
