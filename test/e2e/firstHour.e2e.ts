// The first hour of a new user in a real VS Code (code-server) on the installed VSIX (issue 17):
// the first-run setup card pointed at a local server (Test connection, no key asked) and the first
// plan; the gate in a 300 px side bar with the header and all three choices in view; from "Focus on
// Planning View" to approving in at most 5 Tab presses; and a reload mid-stream that comes back as
// "Interrupted — Resume".
// Screenshots: test-artifacts/e2e/first-hour-*.png (the README's docs/ images come from these).
import assert from 'node:assert/strict';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { saveLogs, screenshotOnFailure } from './support/artifacts';
import { greetingPlan, makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { ModelScript } from './support/modelScript';
import { FOCUS_PANEL, Panel, reloadWindow, startPlanning, widenSidebar } from './support/ui';

describe('e2e: the first hour (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;

  before(async function () {
    ws = makeWorkspace();
    // A local server that needs no key.
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: [buildPlanwiseVsix().file],
      // A cloud endpoint with no key stored: the panel opens on the first-run setup card.
      settings: {
        'planwise.baseUrl': 'https://api.openai.com/v1',
        'planwise.planningModel': 'gpt-4.1',
        'workbench.sideBar.location': 'left',
      },
    });
    wb = await openWorkbench(server);
    panel = new Panel(wb);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    if (server) saveLogs('first-hour', server.userDataDir);
    await wb?.close();
    await server?.stop();
    await model?.close();
    ws?.cleanup();
  });

  it('first run: the setup card, a local server, Test connection, and the first plan with no key asked', async function () {
    assert.ok(wb);
    await panel.open();
    const card = await panel.waitFor('[data-testid="setup-card"]', { text: 'Choose where models come from' });
    await widenSidebar(wb, 420);
    const frame = await panel.frame();
    await card.locator('select').selectOption('ollama');
    const url = card.getByLabel('Base URL');
    await url.fill(model.baseURL);
    await card.getByRole('combobox', { name: /^Model/ }).fill('scripted-model');
    assert.equal(await card.locator('.pw-key-row').count(), 0, 'no key field for a loopback endpoint');
    await frame.getByTestId('setup-test').click();
    await panel.waitFor('.pw-setup-test.pw-test-ok');
    await wb.screenshot('first-hour-1-setup-card');
    await frame.getByTestId('setup-save').click();
    await panel.waitFor('.pw-provider', { text: 'scripted-model' });

    model.push(planTurn(greetingPlan('Greet with Hello')));
    await startPlanning(wb, 'Make the greeting friendlier');
    await panel.waitFor('.pw-gate', { text: 'Greet with Hello' });
    assert.equal(model.requests.length, 1);
    // No key was asked for: the client's placeholder for a keyless local server, never a stored key.
    assert.equal(model.requests[0]!.headers.authorization, 'Bearer not-needed');
  });

  it('the gate in a 300 px side bar: header and all three choices in view; Tab from the view reaches approve in <= 5', async function () {
    assert.ok(wb);
    await widenSidebar(wb, 300);
    await wb.page.waitForTimeout(500);
    const frame = await panel.frame();
    const view = await frame.evaluate(() => ({
      width: window.innerWidth,
      height: window.innerHeight,
      scrollX: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      header: document.querySelector('.pw-header')!.getBoundingClientRect().top,
      choices: [...document.querySelectorAll('.pw-choice')].map((c) => {
        const r = c.getBoundingClientRect();
        return [Math.round(r.top), Math.round(r.bottom)];
      }),
    }));
    assert.ok(view.width <= 310, `the panel is ${view.width} px wide`);
    assert.ok(view.header >= 0, 'the header is in view');
    assert.equal(view.scrollX <= 0, true, 'nothing scrolls sideways');
    assert.equal(view.choices.length, 3);
    for (const [top, bottom] of view.choices)
      assert.ok(top! >= 0 && bottom! <= view.height, `a choice at ${top}..${bottom}`);
    await wb.screenshot('first-hour-2-gate-300px');

    // Keyboard only: focus the view from the palette, then Tab to the first choice.
    await wb.runCommand(FOCUS_PANEL);
    await wb.page.waitForTimeout(500);
    const active = async () => (await panel.frame()).evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    let presses = 0;
    while (!/^Yes, implement this plan/.test(await active()) && presses < 8) {
      await wb.page.keyboard.press(presses === 0 && /^Yes, clear context/.test(await active()) ? 'Shift+Tab' : 'Tab');
      presses++;
    }
    assert.ok(presses <= 5, `${presses} Tab presses from the view to the first choice (at: ${await active()})`);
    model.push(sse.textTurn('Nothing needed changing.'));
    await wb.page.keyboard.press('Enter');
    await panel.waitFor('.pw-assistant', { text: 'Nothing needed changing.' });
  });

  it('a reload mid-stream comes back as "Interrupted — Resume", and Resume completes the plan', async function () {
    assert.ok(wb);
    model.push({ chunks: [sse.text('Reading the repository')], stallAfter: 1 });
    const mark = model.mark();
    await startPlanning(wb, 'Greet by name after a reload');
    await model.waitForRequests(mark + 1);
    await reloadWindow(wb);
    const notice = await panel.waitFor('.pw-banner', { text: 'Interrupted —' });
    await panel.waitFor('.pw-user', { text: 'Greet by name after a reload' });
    await wb.screenshot('first-hour-3-interrupted');
    model.push(planTurn(greetingPlan('Greet by name')));
    await notice.getByText('Resume', { exact: true }).click();
    await panel.waitFor('.pw-gate', { text: 'Greet by name' });
    const users = await (await panel.locator('.pw-user')).filter({ hasText: 'Greet by name after a reload' }).count();
    assert.equal(users, 1, 'the message is shown once');
    await wb.screenshot('first-hour-4-resumed');
    await (await panel.frame()).getByRole('button', { name: /No, stay in Plan mode/ }).click();
    await (await panel.frame()).locator('.pw-feedback textarea').press('Escape');
  });
});
