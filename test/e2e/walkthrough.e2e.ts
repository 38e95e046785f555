// The walkthrough "Your first plan with Planwise" in a real VS Code (code-server) on the installed
// VSIX: it opens from "Welcome: Open Walkthrough...", shows its three steps with the first step's
// image loaded from the extension, and each step is ticked by what the person does: "Choose a
// model" opens the setup card, "Start Planning" asks for the task and the plan arrives, and
// approving it with the panel's own button (no command) ticks the last step.
// Screenshots: test-artifacts/e2e/walkthrough-*.png.
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { endScenario, screenshotOnFailure } from './support/artifacts';
import { greetingPlan, makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { ModelScript } from './support/modelScript';
import { fillInputBox, Panel, pickQuickItem, planwiseSettings } from './support/ui';

const TITLE = 'Your first plan with Planwise';
const STEPS = ['Choose a model', 'Start planning on a task', 'Review and approve the plan'];

describe('e2e: the walkthrough (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;

  /** The walkthrough's step `id` in the Welcome editor. */
  const step = (id: string): Locator => wb!.page.locator(`.getting-started-step[data-step-id$="#${id}"]`);

  async function waitChecked(id: string, checked: boolean): Promise<void> {
    await wb!.page.waitForFunction(
      ([sel, want]) => document.querySelector(sel as string)?.getAttribute('aria-checked') === String(want),
      [`.getting-started-step[data-step-id$="#${id}"]`, checked] as const,
      { timeout: 30_000, polling: 200 },
    );
  }

  before(async function () {
    ws = makeWorkspace();
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: [buildPlanwiseVsix().file],
      settings: planwiseSettings(model.baseURL),
    });
    wb = await openWorkbench(server);
    panel = new Panel(wb);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('walkthrough', { server, wb, model, ws });
  });

  it('opens from "Welcome: Open Walkthrough..." with its three steps, none done, and the first image loaded', async function () {
    assert.ok(wb);
    await wb.runCommand('Welcome: Open Walkthrough...');
    await pickQuickItem(wb, new RegExp(TITLE));
    const titles = wb.page.locator('.getting-started-step .step-title');
    await titles.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual((await titles.allInnerTexts()).map((t) => t.trim()).slice(0, STEPS.length), STEPS);
    for (const id of ['chooseModel', 'startPlanning', 'approvePlan']) {
      assert.equal(await step(id).getAttribute('aria-checked'), 'false', `${id} is done before anything was done`);
    }
    const loaded = await wb.page.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>('.getting-started-media img');
        // VS Code sets the image through srcset: currentSrc is the file the browser loaded.
        return img && img.complete && img.naturalWidth > 0 ? { src: img.currentSrc, alt: img.alt } : false;
      },
      undefined,
      { timeout: 30_000, polling: 200 },
    );
    const image = (await loaded.jsonValue()) as { src: string; alt: string };
    // Served from the installed extension's folder (code-server's resource URL carries the path encoded).
    assert.match(decodeURIComponent(image.src), /\/planwise\.planwise-[\d.]+\/docs\/setup-card\.png/);
    assert.match(image.alt, /setup card/);
    await wb.screenshot('walkthrough-1-open');
  });

  it('"Choose a model" opens the setup card and ticks the first step', async function () {
    assert.ok(wb);
    await step('chooseModel').getByRole('button', { name: 'Choose a model' }).click();
    await panel.waitFor('[data-testid="setup-card"]');
    await waitChecked('chooseModel', true);
  });

  it('"Start Planning" asks for the task, the plan arrives, and the second step is ticked', async function () {
    assert.ok(wb);
    await step('startPlanning').click();
    model.push(planTurn(greetingPlan('Greet with Hello')));
    await step('startPlanning').getByRole('button', { name: 'Start Planning' }).click();
    await fillInputBox(wb, 'Make the greeting friendlier', /Describe the task/);
    await panel.waitFor('.pw-gate', { text: 'Greet with Hello' });
    await waitChecked('startPlanning', true);
    assert.equal(await step('approvePlan').getAttribute('aria-checked'), 'false', 'approved before the person chose');
  });

  it("approving with the panel's own button ticks the last step", async function () {
    assert.ok(wb);
    model.push(sse.textTurn('Nothing needed changing.'));
    await (await panel.frame()).getByRole('button', { name: /Yes, implement this plan/ }).click();
    await waitChecked('approvePlan', true);
    await wb.screenshot('walkthrough-2-done');
  });
});
