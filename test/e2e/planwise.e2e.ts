// Scenarios 1–5 in a real VS Code (code-server) driven by Chromium, on the INSTALLED Planwise VSIX,
// against the scripted model. One code-server serves them in order: planning to the gate, the plan
// file's CodeLens, the build, then a second session that is revised and built in a fresh context,
// and a third whose step has a check that waits for the person.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sse } from '../support/scriptedServer';
import { samplePlan } from '../support/sessionHarness';
import {
  buildPlanwiseVsix,
  listExtensions,
  openWorkbench,
  readExthostActivations,
  repoRoot,
  startCodeServer,
  type CodeServer,
  type Workbench,
} from './harness';
import {
  INTERVIEW,
  README_MARKER,
  GREET_AFTER,
  VERIFY,
  greetingPlan,
  makeWorkspace,
  planTurn,
  slowTextThenTool,
  type Workspace,
} from './support/fixtures';
import { ModelScript, messageText, toolResults } from './support/modelScript';
import {
  Panel,
  activeTab,
  clickCodeLens,
  openFile,
  planwiseSettings,
  reloadWindow,
  setApiKey,
  startPlanning,
  waitForCodeLens,
  waitForEditorText,
  widenSidebar,
} from './support/ui';
import { endScenario, screenshotOnFailure } from './support/artifacts';

const PLANS_DIR = path.join('.vtcode', 'plans');
const RESEARCH_NOTE =
  'Let me read the greeting helper before I plan anything: greet.js builds the greeting, and check.js ' +
  'tells us whether callers get the friendly version.';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('e2e: planning, the plan file, the build, revise and fresh context (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;
  let planFile = '';

  before(async function () {
    const vsix = buildPlanwiseVsix();
    ws = makeWorkspace();
    model = await ModelScript.start();
    server = await startCodeServer({ workspace: ws.root, vsix: vsix.file, settings: planwiseSettings(model.baseURL) });
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const installed = listExtensions(server);
    assert.ok(installed.includes(`planwise.planwise@${pkg.version}`), `installed: ${installed.join(', ')}`);
    wb = await openWorkbench(server);
    panel = new Panel(wb);
    // Nothing activates Planwise at startup; its first command does.
    const planwiseActivation = () =>
      readExthostActivations(server!.userDataDir).find((a) => a.id === 'planwise.planwise');
    assert.equal(planwiseActivation(), undefined, 'Planwise activated before any of its commands ran');
    // Configured as a person using a hosted provider would be (the scripted model ignores the key).
    await setApiKey(wb, 'sk-e2e-not-a-real-key-000000');
    await wb.runCommand('Notifications: Clear All Notifications');
    assert.equal(planwiseActivation()?.activationEvent, 'onCommand:planwise.setApiKey');
    assert.equal(planwiseActivation()?.startup, false);
    await panel.open();
    await widenSidebar(wb, 470);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('planwise', { server, wb, model, ws });
  });

  it('1. planning to the gate: palette, input box, streamed transcript, keyboard interview, plan card, budget, plan file', async function () {
    assert.ok(wb && server);
    model.push(
      slowTextThenTool(RESEARCH_NOTE, { name: 'read_file', args: { path: 'greet.js' } }),
      sse.toolTurn([{ name: 'request_user_input', args: INTERVIEW }]),
      planTurn(greetingPlan()),
    );
    await startPlanning(wb, 'Make the greeting friendlier');

    // The transcript streams: the assistant item is seen growing while it is still being written.
    const streaming = await panel.waitFor('.pw-assistant.pw-streaming');
    const first = await streaming.innerText();
    await wb.screenshot('e2e-01-streaming');
    await panel.waitFor('.pw-assistant.pw-streaming', { text: new RegExp(`^${escapeRegExp(first)}.`) });
    assert.ok(first.length < RESEARCH_NOTE.length, `not mid-stream: "${first}"`);
    assert.ok(RESEARCH_NOTE.startsWith(first.trim()), `"${first}" is not the start of the streamed text`);
    await panel.waitFor('.pw-assistant:not(.pw-streaming)', { text: RESEARCH_NOTE });
    await panel.waitFor('.pw-user', { text: 'Make the greeting friendlier' });

    // The interview, answered with the keyboard only.
    await panel.waitFor('.pw-interview', { text: 'Which greeting should callers get?' });
    await wb.screenshot('e2e-02-interview');
    const frame = await panel.frame();
    const focused = frame.locator('.pw-interview [role=radio][tabindex="0"]');
    assert.match(await focused.innerText(), /Hello/, 'focus starts on the recommended option');
    await focused.focus();
    await wb.page.keyboard.press('ArrowUp');
    assert.equal(
      await frame
        .locator('.pw-option-checked')
        .innerText()
        .then((t) => t.split('\n')[0]),
      'Hi',
    );
    await wb.page.keyboard.press('ArrowDown');
    await wb.page.keyboard.press('Enter'); // picks "Hello" and moves on
    await panel.waitFor('.pw-interview', { text: 'End the greeting with an exclamation mark?', timeoutMs: 10_000 });
    // The wizard moves focus to the next question's recommended option.
    await frame.locator('.pw-interview [role=radio]:focus', { hasText: 'Yes' }).waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press('Enter'); // picks "Yes"; focus moves to Submit
    await frame.locator('.pw-interview vscode-button:focus', { hasText: 'Submit' }).waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press('Enter');

    // The plan card and the gate.
    await panel.waitFor('.pw-plan-card', { text: 'Greet with Hello' });
    const gate = await panel.waitFor('.pw-gate', { text: 'Ready to code?' });
    assert.match(await gate.innerText(), /Plan validated/);
    assert.match(await gate.innerText(), /Yes, implement this plan/);
    await wb.screenshot('e2e-03-gate');

    // The answers went back to the model as the tool result.
    const answers = toolResults(model.requests[2]).join('\n');
    assert.match(answers, /Hello/);
    assert.match(answers, /Yes/);
    assert.doesNotMatch(answers, /"Hi"/);

    // The status bar shows the budget: tool calls, context and the tokens the scripted usage reported.
    const status = await wb.statusBarText();
    assert.match(
      status,
      /Planwise: (\d+ of \d+ tool calls|step \d+ of \d+|\d+ of \d+ steps? done) · \d+% of context/,
      `status bar: ${status}`,
    );
    assert.match(await (await panel.locator('.pw-budget')).innerText(), /Tool calls\s+2 of \d+/);

    // The plan file is on disk.
    const plans = readdirSync(ws.file(PLANS_DIR)).filter((f) => f.endsWith('.md') && !f.endsWith('.tasks.md'));
    assert.equal(plans.length, 1, `plans: ${plans.join(', ')}`);
    planFile = path.join(ws.file(PLANS_DIR), plans[0]!);
    assert.match(readFileSync(planFile, 'utf8'), /^# Greet with Hello/m);
    assert.equal(model.requests.length, 3);
    model.assertDrained();
  });

  it('2. the plan file: a verify CodeLens that runs and shows its result', async function () {
    assert.ok(wb && planFile);
    await wb.runCommand('Planwise: Open Current Plan');
    await activeTab(wb, path.basename(planFile));
    const lenses = await waitForCodeLens(wb, new RegExp(`▶ ${VERIFY}`));
    assert.ok(
      lenses.some((t) => /Approve/.test(t)),
      `the gate's Approve lens is missing: ${JSON.stringify(lenses)}`,
    );
    // greet.js still says "Hi", so the check fails: the lens shows the exit code.
    await clickCodeLens(wb, new RegExp(`▶ ${VERIFY}`));
    await waitForCodeLens(wb, /✗ exit 1/, 60_000);
    await activeTab(wb, path.basename(planFile)); // the tracker's rewrite of the plan file left it open
    // The failed check keeps the step in progress in the session's tracker (the panel shows it).
    await panel.waitFor('.pw-tracker .pw-status-in_progress');
    await wb.screenshot('e2e-04-codelens-failed');
  });

  it('3. build: approve, the agent edits greet.js in the editor (undoable), verify passes, tracker at 100%', async function () {
    assert.ok(wb && planFile);
    await openFile(wb, 'greet.js');
    await waitForEditorText(wb, "'Hi '");
    model.push(
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'in_progress' } }]),
      {
        ...sse.toolTurn([
          {
            name: 'edit_file',
            args: { path: 'greet.js', old_text: "'Hi ' + name", new_text: "'Hello, ' + name + '!'" },
          },
        ]),
        headersDelayMs: 1500,
      },
      {
        // Held back a moment, so the executing state (edit made, step in progress) can be seen.
        ...sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
        headersDelayMs: 3000,
      },
      sse.textTurn('Done: greet.js now says "Hello, <name>!" and the check passes.'),
    );
    const mark = model.mark();
    const frame = await panel.frame();
    await frame.getByRole('button', { name: /Yes, implement this plan/ }).click();

    // The build runs: the lifecycle says so, the gate is gone, the tracker shows the step in progress,
    // and the editor shows the agent's change.
    await panel.waitFor('.pw-state', { text: 'Executing' });
    assert.equal(await (await panel.locator('.pw-gate')).count(), 0, 'the gate stayed open during the build');
    await waitForEditorText(wb, "'Hello, ' + name + '!'");
    await panel.waitFor('.pw-tracker .pw-status-in_progress');
    // The edit's row in words, with the lines it added and removed.
    await panel.waitFor('.pw-tool-call', { text: 'Edited greet.js +1 \u22121' });
    await wb.screenshot('e2e-05-executing');

    // The tracker reaches 100%; the file was saved.
    await panel.openTracker();
    await panel.waitFor('.pw-tracker-counts', { text: '100%', timeoutMs: 90_000 });
    assert.equal(readFileSync(ws.file('greet.js'), 'utf8'), GREET_AFTER);
    await wb.screenshot('e2e-06-done');
    const progress = await panel.locator('.pw-tracker-progress');
    assert.equal(await progress.getAttribute('value'), '100');

    // Undo in the editor reverts the agent's edit; Redo brings it back.
    await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await wb.page.keyboard.press('Control+Z');
    await waitForEditorText(wb, "'Hi ' + name");
    await wb.page.keyboard.press('Control+Shift+Z');
    await waitForEditorText(wb, "'Hello, ' + name + '!'");
    await wb.page.keyboard.press('Control+S');

    // The build used the build tools; the verify result is on the lens too.
    const build = model.since(mark);
    assert.equal(build.length, 4);
    assert.ok(build[0]!.body.tools?.some((t) => t.function.name === 'edit_file'));
    assert.match(toolResults(build[3]).join('\n'), /\(1\/1 completed, 100%\)/);
    model.assertDrained();
    await wb.runCommand('Planwise: Open Current Plan');
    await activeTab(wb, path.basename(planFile));
    // The lens runs the check again, now passing.
    await clickCodeLens(wb, new RegExp(`▶ ${VERIFY}`));
    await waitForCodeLens(wb, /✓ passed/, 60_000);
    await wb.screenshot('e2e-07-codelens-passed');
    assert.equal(readFileSync(ws.file('greet.js'), 'utf8'), GREET_AFTER);
  });

  it('4. revise with feedback → revision 2 and "Compare with previous draft"; then a fresh context', async function () {
    assert.ok(wb);
    const mark = model.mark();
    model.push(
      sse.toolTurn([{ name: 'read_file', args: { path: 'README.md' } }]),
      planTurn(greetingPlan('Rename greet to welcome')),
    );
    await startPlanning(wb, 'Rename the greeting helper');
    await panel.waitFor('.pw-gate', { text: 'Rename greet to welcome' });
    assert.match(toolResults(model.requests[mark + 1]).join('\n'), new RegExp(README_MARKER));

    // "No, stay in Plan mode" with feedback.
    model.push(planTurn(greetingPlan('Rename greet to sayHello'), 'Revised as asked.'));
    const frame = await panel.frame();
    await frame.getByRole('button', { name: /No, stay in Plan mode/ }).click();
    const box = frame.locator('.pw-feedback textarea');
    await box.waitFor({ state: 'visible' });
    await box.fill('Call it sayHello instead of welcome.');
    await box.press('Control+Enter');
    const gate = await panel.waitFor('.pw-gate', { text: 'Rename greet to sayHello' });
    assert.match(messageText(model.requests[mark + 2]!.body.messages.at(-1)), /Call it sayHello instead of welcome/);
    await panel.waitFor('.pw-plan-card', { text: 'revision 2' });
    const compare = gate.getByRole('button', { name: 'Compare with previous draft' });
    await compare.waitFor({ state: 'visible' });
    await wb.screenshot('e2e-08-revised');
    await compare.click();
    await activeTab(wb, /↔/);
    const diffText = await waitForEditorText(wb, 'Rename greet to sayHello', 30_000, '.monaco-diff-editor');
    assert.match(diffText, /Rename greet to welcome/);
    await wb.screenshot('e2e-09-compare');

    // "Yes, clear context and implement": the build request holds only the system prompt and the handover.
    const buildMark = model.mark();
    model.push(sse.textTurn('The rename is already in place; nothing to change.'));
    await (await panel.frame()).getByRole('button', { name: /Yes, clear context and implement/ }).click();
    await model.waitForRequests(buildMark + 1);
    await panel.waitFor('.pw-assistant', { text: 'nothing to change' });
    const messages = model.requests[buildMark]!.body.messages;
    assert.deepEqual(
      messages.map((m) => m['role']),
      ['system', 'user'],
      'a fresh context starts with the system prompt and one handover message',
    );
    const handover = messageText(messages[1]);
    assert.match(handover, /<approved_plan>/);
    assert.match(handover, /Rename greet to sayHello/);
    assert.ok(!handover.includes('Rename the greeting helper'), 'the original task came along');
    assert.ok(!JSON.stringify(messages).includes(README_MARKER), 'research output came along');
    model.assertDrained();
  });

  it('5. a step with checks waits "Awaiting your check" until the person marks them (lens and panel), then completes', async function () {
    assert.ok(wb);
    const check = 'open README.md and confirm it shows the greeting';
    const byLens = 'confirm the greeting in greet.js shows Hello';
    model.push(planTurn(samplePlan('Check the greeting by eye', 'greet.js', `${VERIFY}, ${check}, ${byLens}`)));
    await startPlanning(wb, 'Check the greeting by eye');
    await panel.waitFor('.pw-gate', { text: 'Check the greeting by eye' });
    model.push(
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('I opened README.md and it shows the greeting; the checks are yours to mark.'),
    );
    const mark = model.mark();
    await (await panel.frame()).getByRole('button', { name: /Yes, implement this plan/ }).click();
    await model.waitForRequests(mark + 2);
    // The command passed, but only the person signs a check off: the agent was told so.
    assert.match(toolResults(model.requests[mark + 1]).join('\n'), /awaiting the person's check/);
    await panel.openTracker();
    const waiting = await panel.waitFor('.pw-todo', { text: 'Awaiting your check', timeoutMs: 60_000 });
    assert.match(await waiting.innerText(), /Add the greet function/);
    await panel.waitFor('.pw-tracker-counts', { text: '0/1 done · 1 in progress · 0%' });
    await wb.screenshot('e2e-14-awaiting-check');

    // One check is signed on the plan file's CodeLens: the step still waits for the other.
    await wb.runCommand('Planwise: Open Current Plan');
    await activeTab(wb, /\.md$/);
    await clickCodeLens(wb, new RegExp(`Mark checked: ${escapeRegExp(byLens)}`));
    await waitForCodeLens(wb, new RegExp(`${escapeRegExp(byLens)}\\s+✓ checked`), 30_000);
    await panel.waitFor('.pw-verify-check', { text: /confirm the greeting in greet\.js shows Hello\s*checked/ });
    assert.equal(await (await panel.locator('.pw-awaiting-check')).count(), 1, 'one check is still the person’s');

    // A window reload keeps all of it: the lens's sign-off (kept in <stem>.verify.json), and the
    // session whose step awaits the other check, brought back by itself although it is idle.
    await reloadWindow(wb);
    await panel.openTracker();
    await panel.waitFor('.pw-todo', { text: 'Awaiting your check', timeoutMs: 60_000 });
    await panel.waitFor('.pw-verify-check', { text: /confirm the greeting in greet\.js shows Hello\s*checked/ });
    await activeTab(wb, /\.md$/);
    await waitForCodeLens(wb, new RegExp(`${escapeRegExp(byLens)}\\s+✓ checked`), 30_000);

    // The other is signed in the panel: the step completes.
    await (await panel.frame()).getByRole('button', { name: `Mark checked: ${check}` }).click();
    await panel.waitFor('.pw-tracker-counts', { text: '1/1 done · 100%', timeoutMs: 30_000 });
    assert.equal(await (await panel.locator('.pw-awaiting-check')).count(), 0, 'still awaiting after the sign-off');
    await wb.screenshot('e2e-15-checked');
    model.assertDrained();
  });
});
