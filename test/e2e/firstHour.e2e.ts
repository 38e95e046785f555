// The first hour of a new user in a real VS Code (code-server) on the installed VSIX (issue 17):
// the first-run setup card pointed at a local server (Test connection, no key asked) and the first
// plan; the gate in a 300 px side bar with the header and all three choices in view; from "Focus on
// Planning View" (which lands on the gate's bar, never on a choice) to approving in at most 5 Tab presses; and a reload mid-stream that comes back as
// "Interrupted — Resume"; a 401 that ends the turn with one error, then the key set and Retry sending
// the same request with it; and keyboard only through a gate whose recommended choice is not the
// first, each of its three choices reached (Chromium's accessibility tree names the focus) in at
// most 5 Tab presses from the gate's bar (Focus on Planning View, or Ctrl+Alt+Shift+G after a
// revision, which takes no focus by itself) and activated with Enter.
// Screenshots: test-artifacts/e2e/first-hour-*.png (the README's docs/ images come from these).
import assert from 'node:assert/strict';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { endScenario, screenshotOnFailure } from './support/artifacts';
import { planResponse } from '../support/sessionHarness';
import { greetingPlan, makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { focusView, tabTo, waitForFocus } from './support/keyboard';
import { messageText, ModelScript } from './support/modelScript';
import { Panel, reloadWindow, setApiKey, startPlanning, waitForPalette, widenSidebar } from './support/ui';

/** A plan whose request used 80k tokens of the 128k window (62%): the gate recommends a fresh thread. */
const bigPlanTurn = (title: string) =>
  sse.textTurn(planResponse(greetingPlan(title), 'Here is the plan.'), { usage: [80_000, 120] });

const CHOICES = {
  execute: 'Yes, implement this plan',
  fresh: 'Yes, clear context and implement',
  stay: 'No, stay in Plan mode',
} as const;

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
    await endScenario('first-hour', { server, wb, model, ws });
  });

  it('first run: the setup card, a local server, Test connection, and the first plan with no key asked', async function () {
    assert.ok(wb);
    await panel.open();
    const card = await panel.waitFor('[data-testid="setup-card"]', { text: 'Choose where models come from' });
    await widenSidebar(wb, 420);
    const frame = await panel.frame();
    // The flags went out before the card: nothing is set up, so the header names no provider, and
    // nothing the person did not choose has been tried.
    assert.equal(await frame.locator('.pw-provider').count(), 0, 'the header names a provider nobody set up');
    assert.equal(await card.locator('.pw-field-error, .pw-setup-test').count(), 0);
    await card.locator('select').selectOption('ollama');
    const url = card.getByLabel('Base URL');
    // Type as a person does, once the card has caught up: Ollama's URL prefilled before the URL is
    // typed, and the scripted server's models listed (the host has checked that URL) before the model.
    await frame.waitForFunction(
      () =>
        (document.querySelector('[data-testid="setup-card"] input') as HTMLInputElement | null)?.value.includes(
          ':11434',
        ),
      undefined,
      { timeout: 15_000, polling: 100 },
    );
    await url.fill(model.baseURL);
    await card.locator('datalist option[value="scripted-model"]').waitFor({ state: 'attached', timeout: 15_000 });
    await card.getByRole('combobox', { name: /^Model/ }).fill('scripted-model');
    // The host judges the typed URL (loopback or not) and answers with the card's new state: wait
    // for that answer, which makes the key optional, rather than reading the card before it came.
    await card
      .locator('.pw-key-row', { hasText: 'API key (optional)' })
      .waitFor({ state: 'visible', timeout: 15_000 })
      .catch(() => assert.fail('the key is not optional for a loopback endpoint'));
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
    const frame = await panel.frame();
    // The webview follows the sash once its layout has run: wait for its width, not for a time.
    await frame.waitForFunction(() => window.innerWidth <= 310, undefined, { timeout: 10_000, polling: 100 });
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
    await focusView(wb, panel);
    const reached = await tabTo(wb, panel, '.pw-choice', CHOICES.execute);
    assert.ok(reached.presses <= 5, `${reached.presses} presses from the view to the first choice`);
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

  it('a 401 ends the turn with one error, Set API Key, Retry and Change provider; the key set from it, Retry sends the same request with it', async function () {
    assert.ok(wb);
    const task = 'Greet politely after a 401';
    const mark = model.mark();
    // OpenAI's answer to a request without a valid key.
    model.push(
      sse.httpError(401, 'Incorrect API key provided.', { type: 'invalid_request_error', code: 'invalid_api_key' }),
    );
    await startPlanning(wb, task);
    const error = await panel.waitFor('.pw-notice.pw-level-error', { text: /401/ });
    const text = await error.innerText();
    assert.match(text, /requires an API key and none is set \(401: Incorrect API key provided/);
    assert.match(text, /Set the API key for this endpoint and try again\./);
    const frame = await panel.frame();
    assert.equal(await frame.locator('.pw-notice.pw-level-error').count(), 1, 'the error is shown once');
    // Told once on screen (the polite live region, visually hidden, announces it as well).
    const onScreen = await frame.evaluate(() => {
      const copy = document.body.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('.pw-sr-only').forEach((e) => e.remove());
      return copy.textContent ?? '';
    });
    assert.equal(onScreen.split('Incorrect API key provided').length - 1, 1, 'the 401 is told once');
    await frame.getByTestId('notice-set-key').waitFor({ state: 'visible' });
    await frame.getByTestId('notice-retry').waitFor({ state: 'visible' });
    await frame.getByTestId('notice-change-provider').waitFor({ state: 'visible' });
    assert.equal(await frame.locator('.pw-user').filter({ hasText: task }).count(), 1, 'the task is in the transcript');
    // The turn ended: nothing runs (Stop is gone, Start Planning is offered again), no spinner.
    await waitForPalette(
      wb,
      (l) => l.includes('Planwise: Start Planning') && !l.includes('Planwise: Stop'),
      'offered Start Planning without Stop after the 401',
    );
    const state = frame.locator('.pw-header .pw-state');
    assert.notEqual((await state.innerText()).trim(), 'Planning', 'the panel is stuck in Planning');
    assert.equal(await state.locator('.pw-ring').count(), 0, 'the header still spins');
    assert.equal(model.since(mark).length, 1);
    await wb.screenshot('first-hour-5-401');

    // The person sets the key from the error's Set API Key (VS Code's password box) and presses
    // Retry: the task is not retyped.
    const key = 'sk-first-hour-e2e';
    await setApiKey(wb, key, () => frame.getByTestId('notice-set-key').click());
    model.push(planTurn(greetingPlan('Greet politely')));
    await (await panel.frame()).getByTestId('notice-retry').click();
    await panel.waitFor('.pw-gate', { text: 'Greet politely' });
    const [refused, retried] = model.since(mark);
    assert.equal(model.since(mark).length, 2, 'Retry sent one request');
    assert.equal(refused!.headers.authorization, 'Bearer not-needed');
    assert.equal(retried!.headers.authorization, `Bearer ${key}`, 'the retried request carries the key');
    const said = (r: typeof retried) => r!.body.messages.map((m) => `${String(m['role'])}: ${messageText(m)}`);
    assert.deepEqual(said(retried), said(refused), 'Retry sent the same request again');
    assert.match(messageText(retried!.body.messages.at(-1)), new RegExp(task));
    const after = await panel.frame();
    assert.equal(await after.locator('.pw-user').filter({ hasText: task }).count(), 1, 'the task is shown once');
    assert.equal(
      await after.locator('.pw-notice.pw-level-error').count(),
      0,
      'the old error is gone after the success',
    );
    await wb.screenshot('first-hour-6-retried');
  });

  it('keyboard only through a gate that recommends a fresh thread: each choice in <= 5 Tab presses, then Enter', async function () {
    assert.ok(wb);
    const counts: Record<string, number> = {};
    // Gate 1: the plan's request used 62% of the window, so the second choice is the recommended one.
    model.push(bigPlanTurn('Greet in French'));
    await startPlanning(wb, 'Greet in French too');
    await panel.waitFor('.pw-gate', { text: 'Greet in French' });
    const primary = await panel.waitFor('.pw-choice-primary');
    assert.match(await primary.innerText(), /^Yes, clear context and implement\s+Recommended · context 6\d% used\.$/);
    const order = await (await panel.locator('.pw-choice .pw-choice-title')).allInnerTexts();
    assert.deepEqual(order, [CHOICES.execute, CHOICES.fresh, CHOICES.stay], 'the recommended choice is not first');

    // From "Focus on Planning View": the focus lands on the gate's bar, then Tab reaches the recommended choice.
    await focusView(wb, panel);
    const bar = await waitForFocus(wb, panel, 'Ready to code?');
    assert.equal(bar.role, 'region');
    const landed = (await tabTo(wb, panel, '.pw-choice-primary', CHOICES.fresh)).focused;
    assert.equal(landed.role, 'button');
    assert.match(landed.description, /^Recommended · context 6\d% used\.$/);
    await wb.screenshot('first-hour-7-keyboard-gate');

    // "No, stay in Plan mode": Tab, Enter, type the feedback, Ctrl+Enter.
    const stay = await tabTo(wb, panel, '.pw-choice-stay', CHOICES.stay);
    counts[CHOICES.stay] = stay.presses;
    assert.equal(stay.focused.role, 'button');
    await wb.page.keyboard.press('Enter');
    await waitForFocus(wb, panel, 'What should change?');
    model.push(bigPlanTurn('Greet with Bonjour'));
    const reviseMark = model.mark();
    await wb.page.keyboard.type('Say Bonjour.');
    await wb.page.keyboard.press('Control+Enter');
    await panel.waitFor('.pw-gate', { text: 'Greet with Bonjour' });
    assert.match(messageText(model.requests[reviseMark]!.body.messages.at(-1)), /Say Bonjour\./);

    // Gate 2 (revision 2): it takes no focus; Ctrl+Alt+Shift+G reaches its bar; "Yes, implement this plan".
    await wb.page.keyboard.press('Control+Alt+Shift+G');
    await waitForFocus(wb, panel, 'Ready to code?');
    const execute = await tabTo(wb, panel, '.pw-choice:not(.pw-choice-primary):not(.pw-choice-stay)', CHOICES.execute);
    counts[CHOICES.execute] = execute.presses;
    const buildMark = model.mark();
    model.push(sse.textTurn('Bonjour is in place already; nothing to change.'));
    await wb.page.keyboard.press('Enter');
    await panel.waitFor('.pw-assistant', { text: 'Bonjour is in place already' });
    const here = model.requests[buildMark]!.body.messages;
    assert.ok(here.length > 2, 'this thread was built in, not a fresh one');
    assert.ok(JSON.stringify(here).includes('Greet in French too'), 'the thread kept the task');

    // Gate 3: the recommended choice itself, with no Tab at all.
    model.push(bigPlanTurn('Greet in German'));
    await startPlanning(wb, 'Greet in German too');
    await panel.waitFor('.pw-gate', { text: 'Greet in German' });
    await focusView(wb, panel);
    const fresh = await tabTo(wb, panel, '.pw-choice-primary', CHOICES.fresh);
    counts[CHOICES.fresh] = fresh.presses;
    const freshMark = model.mark();
    model.push(sse.textTurn('German greeting: nothing to change.'));
    await wb.page.keyboard.press('Enter');
    await panel.waitFor('.pw-assistant', { text: 'German greeting: nothing to change.' });
    assert.deepEqual(
      model.requests[freshMark]!.body.messages.map((m) => m['role']),
      ['system', 'user'],
      'the fresh thread starts with the system prompt and the handover',
    );

    console.log(`      Tab presses from the focus to each choice: ${JSON.stringify(counts)}`);
    for (const [choice, n] of Object.entries(counts)) assert.ok(n <= 5, `${n} presses to "${choice}"`);
    assert.deepEqual(Object.keys(counts).sort(), Object.values(CHOICES).slice().sort());
    assert.ok(counts[CHOICES.stay]! > 0 && counts[CHOICES.execute]! > 0, 'two choices needed Tab presses');
    assert.equal(model.pending, 0, 'every scripted turn was asked for');
  });
});
