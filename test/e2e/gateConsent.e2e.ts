// Consent at the gate in a real VS Code (code-server) on the installed VSIX, at the default window
// of 1400 × 900 whose side bar opens at 300 px, against the scripted model: the person types in the
// text box while a plan and its gate arrive and keeps typing, spaces included, and nothing is
// approved, the focus stays and every character is kept; then a click approves. The same for a
// revision, approved from the keyboard (Ctrl+Alt+Shift+G, Tab, Enter). At a waiting gate the Build
// toggle, Start Planning and Cancel Plan ask first and keeping is the default. A 12-step plan fits:
// the text box, the three choices and a third of the panel of transcript on screen together, the
// document never scrolling, the plan shown once. The unresolved-comments question and the feedback
// box's Send open on screen.
// Screenshots: test-artifacts/e2e/gate-consent-*.png (the README's docs/ images come from these).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { sse } from '../support/scriptedServer';
import { planResponse } from '../support/sessionHarness';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { endScenario, screenshotOnFailure } from './support/artifacts';
import { greetingPlan, makeWorkspace, VERIFY, type Workspace } from './support/fixtures';
import { focusedAccessible } from './support/keyboard';
import { ModelScript } from './support/modelScript';
import { commentOnLine, DIALOG, openFile, Panel, planwiseSettings, setApiKey, startPlanning } from './support/ui';

const TWELVE = 'Twelve small greeting steps';

/** A valid plan of twelve steps, each on greet.js with the check as its verify. */
function twelveStepPlan(): string {
  const steps = Array.from(
    { length: 12 },
    (_, i) => `${i + 1}. Adjust greeting detail ${i + 1} -> files: [greet.js] -> verify: [${VERIFY}]`,
  );
  return `# ${TWELVE}

## Summary

Make the greeting friendlier in twelve small, separately checked steps.

## Implementation Steps

${steps.join('\n')}

## Test Cases and Validation

- tests: \`${VERIFY}\`

## Assumptions and Defaults

- English only
`;
}

/** The plan turn, streamed slowly enough that the person is mid-sentence when the gate arrives. */
const slowPlan = (plan: string) => ({ ...sse.textTurn(planResponse(plan, 'Here is the plan.')), delayMs: 60 });

describe('e2e: consent at the gate at the default window (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;

  before(async function () {
    ws = makeWorkspace('planwise-e2e-consent-');
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: [buildPlanwiseVsix().file],
      settings: planwiseSettings(model.baseURL),
    });
    wb = await openWorkbench(server);
    panel = new Panel(wb);
    await setApiKey(wb, 'sk-e2e-not-a-real-key-000000');
    await wb.runCommand('Notifications: Clear All Notifications');
    await panel.open();
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('gate-consent', { server, wb, model, ws });
  });

  const composer = (frame: Frame) => frame.getByLabel('Message Planwise');
  const focusIsInComposer = (frame: Frame) =>
    frame.evaluate(
      () => document.hasFocus() && document.activeElement?.getAttribute('aria-label') === 'Message Planwise',
    );
  /** Whether the element's box lies inside the panel's viewport. */
  const onScreen = (frame: Frame, selector: string) =>
    frame
      .locator(selector)
      .first()
      .evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
      });
  const documentScroll = (frame: Frame) =>
    frame.evaluate(() => {
      const d = document.scrollingElement!;
      return { top: d.scrollTop, fits: d.scrollHeight <= d.clientHeight };
    });

  /**
   * Types `lead` one key at a time until `arrived` holds (the gate came while typing), then `tail`:
   * returns everything typed. Fails if the gate never comes.
   */
  async function typeThrough(lead: string, arrived: () => Promise<boolean>, tail: string): Promise<string> {
    let typed = '';
    for (let i = 0; !(await arrived()); i++) {
      assert.ok(i < 1500, 'the gate never arrived while the person typed');
      const key = lead[i % lead.length]!;
      await wb!.page.keyboard.type(key);
      typed += key;
    }
    assert.ok(typed.length > 0, 'the gate was there before the person typed');
    for (const key of tail) {
      await wb!.page.keyboard.type(key);
      typed += key;
    }
    return typed;
  }

  it('types through the plan and its gate: focus stays, every character is kept, nothing is approved; a click approves', async function () {
    assert.ok(wb);
    const frame = await panel.frame();
    await composer(frame).click();
    await wb.page.keyboard.type('Make the greeting friendlier');
    const mark = model.mark();
    model.push(slowPlan(greetingPlan('Greet with Hello')));
    await wb.page.keyboard.press('Enter');
    await model.waitForRequests(mark + 1);
    const gate = frame.locator('.pw-gate');
    const typed = await typeThrough('and then greet by name, ', () => gate.isVisible(), ' yes  y  ok please ');
    await frame.waitForTimeout(500);
    assert.equal(await composer(frame).inputValue(), typed, 'every character typed is in the text box');
    assert.equal(await focusIsInComposer(frame), true, 'the focus stayed in the text box');
    assert.equal(model.mark(), mark + 1, 'nothing was sent after the plan: no build started');
    assert.match(await frame.locator('.pw-header .pw-state').innerText(), /Awaiting approval/);
    assert.match(await frame.getByTestId('announcer').innerText(), /Plan ready: Greet with Hello\./);
    await wb.screenshot('gate-consent-1-typed-through-gate');

    // A deliberate click approves.
    model.push(sse.textTurn('The greeting already reads Hello; nothing to change.'));
    await frame.getByRole('button', { name: 'Yes, implement this plan', exact: true }).click();
    await panel.waitFor('.pw-assistant', { text: 'nothing to change' });
    assert.equal(model.mark(), mark + 2, 'the approval started the build');
    assert.equal(await composer(frame).inputValue(), typed, 'the draft is still whole');
  });

  it('types through a revision the same way; the keyboard approves with Ctrl+Alt+Shift+G, Tab and Enter', async function () {
    assert.ok(wb);
    const frame = await panel.frame();
    model.push(slowPlan(greetingPlan('Greet by name')));
    await startPlanning(wb, 'Greet callers by name');
    await panel.waitFor('.pw-gate', { text: 'Greet by name' });
    await frame.getByRole('button', { name: 'No, stay in Plan mode', exact: true }).click();
    await frame.getByLabel('What should change?').fill('Say Hello, then the name.');
    const mark = model.mark();
    model.push(slowPlan(greetingPlan('Greet by name, politely')));
    await wb.page.keyboard.press('Enter');
    await model.waitForRequests(mark + 1);
    await composer(frame).waitFor({ state: 'visible' });
    await composer(frame).click();
    await wb.page.keyboard.press('Control+End');
    const before = await composer(frame).inputValue();
    const revised = frame.locator('.pw-gate-revision', { hasText: 'revision 2' });
    const typed = await typeThrough(' also mind the comma,', () => revised.isVisible(), '  and  the  spaces ');
    await frame.waitForTimeout(500);
    assert.equal(await composer(frame).inputValue(), before + typed, 'every character typed is in the text box');
    assert.equal(await focusIsInComposer(frame), true, 'the focus stayed in the text box');
    assert.equal(model.mark(), mark + 1, 'nothing was sent after the revision');
    await wb.screenshot('gate-consent-2-typed-through-revision');

    // From the keyboard: the chord reaches the gate's bar, Tab the first choice, Enter approves.
    await wb.page.keyboard.press('Control+Alt+Shift+G');
    await frame.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'gate');
    let presses = 0;
    for (;;) {
      const focused = await focusedAccessible(wb, frame);
      if (focused.name === 'Yes, implement this plan') break;
      assert.ok(presses < 5, `5 Tab presses from the gate did not reach the first choice (on ${focused.name})`);
      await wb.page.keyboard.press('Tab');
      presses++;
    }
    await wb.screenshot('gate-consent-3-keyboard-choice');
    model.push(sse.textTurn('Greeting by name is in place already; nothing to change.'));
    await wb.page.keyboard.press('Enter');
    await panel.waitFor('.pw-assistant', { text: 'Greeting by name is in place already' });
    assert.equal(model.mark(), mark + 2, 'Enter on the chosen choice approved');
    assert.equal(await composer(frame).inputValue(), before + typed, 'the draft is still whole');
  });

  it('at a waiting gate, Build, Start Planning and Cancel Plan ask first; keeping is the default', async function () {
    assert.ok(wb);
    const frame = await panel.frame();
    await composer(frame).fill('');
    model.push(sse.textTurn(planResponse(greetingPlan('Greet warmly'))));
    await startPlanning(wb, 'Greet warmly');
    await panel.waitFor('.pw-gate', { text: 'Greet warmly' });
    const mark = model.mark();

    // The Build toggle: asked inline, under the header, in view; "Keep the plan" is the default.
    await frame.getByRole('button', { name: 'Build', exact: true }).click();
    await frame.getByRole('alertdialog', { name: 'Switch to Build and discard the plan?' }).waitFor();
    assert.equal(await onScreen(frame, '[data-testid="mode-confirm"]'), true, 'the question is on screen');
    await frame.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'mode-confirm-keep');
    await wb.screenshot('gate-consent-4-build-asks');
    await wb.page.keyboard.press('Enter');
    await frame.locator('[data-testid="mode-confirm"]').waitFor({ state: 'detached' });
    assert.equal(await frame.locator('.pw-mode-on').innerText(), 'Plan', 'still in Plan mode');
    await panel.waitFor('.pw-gate', { text: 'Greet warmly' });

    // Start Planning from the palette: a modal whose default button keeps the plan.
    await wb.runCommand('Planwise: Start Planning');
    const dialog = wb.page.locator(DIALOG, { hasText: 'Start a new plan and discard the waiting one?' });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(
      (await wb.page.evaluate(() => document.activeElement?.textContent ?? '')).trim(),
      'Keep the plan',
      'the focused (default) button keeps the plan',
    );
    await wb.screenshot('gate-consent-5-start-planning-asks');
    await wb.page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    await panel.waitFor('.pw-gate', { text: 'Greet warmly' });

    // Cancel Plan: asked the same way; Escape keeps it too.
    await wb.runCommand('Planwise: Cancel Plan');
    const cancel = wb.page.locator(DIALOG, { hasText: 'Cancel the plan waiting for your approval?' });
    await cancel.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.page.keyboard.press('Escape');
    await cancel.waitFor({ state: 'hidden', timeout: 10_000 });
    await panel.waitFor('.pw-gate', { text: 'Greet warmly' });
    assert.equal(model.mark(), mark, 'nothing was sent');

    // Going ahead is a deliberate act of its own: "Discard and switch to Build".
    await frame.getByRole('button', { name: 'Build', exact: true }).click();
    await frame.getByTestId('mode-confirm-go').click();
    await frame.locator('.pw-gate').waitFor({ state: 'detached', timeout: 30_000 });
    // Back to Plan (nothing waits now, so nothing is asked) for the next plan.
    await panel.waitFor('.pw-mode-on', { text: 'Build' });
    await frame.getByRole('button', { name: 'Plan', exact: true }).click();
    await panel.waitFor('.pw-mode-on', { text: 'Plan' });
  });

  it('a 12-step plan at 300 px: text box, choices and a third of transcript on screen, the document never scrolls, the plan once', async function () {
    assert.ok(wb);
    model.push(sse.textTurn(planResponse(twelveStepPlan())));
    await startPlanning(wb, 'Make the greeting friendlier, in small steps');
    await panel.waitFor('.pw-gate', { text: TWELVE });
    const frame = await panel.frame();
    await frame.waitForTimeout(500);
    const m = await frame.evaluate((title) => {
      const [log, box, ...choices] = [
        document.querySelector('[role="log"]')!,
        document.querySelector('.pw-composer textarea')!,
        ...document.querySelectorAll('.pw-choice'),
      ].map((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: r.height };
      });
      return {
        width: innerWidth,
        height: innerHeight,
        logs: document.querySelectorAll('[role="log"]').length,
        log: log!,
        box: box!,
        choices,
        stepLists: [...document.querySelectorAll('.pw-plan-steps')].filter((el) => el.getClientRects().length > 0)
          .length,
        titles: [...document.querySelectorAll('body *')].filter(
          (el) => el.getClientRects().length > 0 && el.children.length === 0 && (el.textContent ?? '').trim() === title,
        ).length,
      };
    }, TWELVE);
    console.log(`      the panel: ${m.width} × ${m.height}; the transcript ${Math.round(m.log.height)} px`);
    assert.ok(m.width <= 310, `the side bar is ${m.width} px wide`);
    assert.deepEqual(await documentScroll(frame), { top: 0, fits: true }, 'the document never scrolls');
    assert.equal(m.logs, 1, 'one role="log" region');
    assert.ok(m.log.height >= m.height / 3, `the transcript is ${m.log.height} px of ${m.height}`);
    assert.ok(m.box.top >= 0 && m.box.bottom <= m.height, `the text box at ${m.box.top}..${m.box.bottom}`);
    assert.equal(m.choices.length, 3);
    for (const c of m.choices) assert.ok(c.top >= 0 && c.bottom <= m.box.top, `a choice at ${c.top}..${c.bottom}`);
    assert.equal(m.stepLists, 1, 'the steps are shown once');
    assert.ok(m.titles <= 2, `the title is shown ${m.titles} times`);
    await wb.screenshot('gate-consent-6-twelve-steps-300px');
    // The transcript scrolls, the document still does not.
    await frame.locator('[role="log"]').evaluate((el) => (el.scrollTop = 0));
    await frame.locator('[role="log"]').dispatchEvent('wheel', { deltaY: -100 });
    await frame.getByRole('button', { name: 'Jump to latest' }).waitFor();
    assert.deepEqual(await documentScroll(frame), { top: 0, fits: true });
    await frame.getByRole('button', { name: 'Jump to latest' }).click();
  });

  it('the unresolved-comments question and the feedback box’s Send open on screen; Enter sends', async function () {
    assert.ok(wb);
    const plans = readdirSync(ws.file('.vtcode/plans')).filter((f) => /^[^.].*(?<!\.tasks|\.report)\.md$/.test(f));
    const twelve = plans
      .filter((f) => f.includes('twelve'))
      .sort()
      .at(-1);
    assert.ok(twelve, `plans: ${plans.join(', ')}`);
    await openFile(wb, path.join('.vtcode', 'plans', twelve));
    await commentOnLine(wb, 9, 'Keep this step smaller.');
    await panel.waitFor('.pw-gate-comments', { text: /1 open comment/ });
    await panel.open();
    const frame = await panel.frame();
    await frame.getByRole('button', { name: 'Yes, implement this plan', exact: true }).click();
    await frame.getByRole('alertdialog', { name: 'Approve with unresolved comments?' }).waitFor();
    await frame.waitForTimeout(300);
    assert.equal(await onScreen(frame, '.pw-gate .pw-confirm'), true, 'the question is on screen');
    await wb.screenshot('gate-consent-7-unresolved-on-screen');
    const mark = model.mark();
    await frame.getByText('Back', { exact: true }).click();

    await frame.getByRole('button', { name: 'No, stay in Plan mode', exact: true }).click();
    await frame.getByLabel('What should change?').waitFor();
    await frame.waitForTimeout(300);
    assert.equal(await onScreen(frame, '.pw-feedback vscode-button'), true, 'Send is on screen');
    assert.equal(await onScreen(frame, '.pw-feedback .pw-hint'), true, 'its hint is on screen');
    assert.deepEqual(await documentScroll(frame), { top: 0, fits: true });
    await wb.page.keyboard.type('Fold steps 11 and 12 together.');
    await wb.screenshot('gate-consent-8-feedback-send-on-screen');
    model.push(sse.textTurn(planResponse(greetingPlan('Greet in eleven steps'))));
    await wb.page.keyboard.press('Enter');
    await model.waitForRequests(mark + 1);
    await panel.waitFor('.pw-gate', { text: 'Greet in eleven steps' });
    model.assertDrained();
  });
});
