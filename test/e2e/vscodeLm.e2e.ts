// `planwise.provider: vscode-lm` in a real VS Code whose Language Model API is final (code-server
// 4.106.3 = VS Code 1.106.3, the harness's `lm` install): a test extension (fixtures/scripted-lm)
// registers a chat model provider with `vscode.lm.registerLanguageModelChatProvider`, and Planwise,
// with no API key, plans and builds through `vscode.lm`: Select Model lists its models next to the
// endpoint's (one to plan, one to build); VS Code's consent prompt (the model requires authorization,
// as Copilot's do), declined then allowed; Start Planning, a thinking part, a tool call, the
// interview, the plan at the gate, the build; Stop while the model is silent mid-answer; a model VS
// Code does not offer, then Retry; a planning model picked at the gate taking the revision.
//
// The provider answers with the scripted model server's turns (each LM request becomes one chat
// request there, marked `x-planwise-e2e-via: vscode-lm`), so the scenario scripts and reads the model
// as the other scenarios do; Planwise's own endpoint (the same server) is only ever asked for its
// model list, so every chat request seen came through VS Code's Language Model API.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sse } from '../support/scriptedServer';
import {
  VSCODE_VERSIONS,
  SELECTORS,
  buildPlanwiseVsix,
  fixturesDir,
  listExtensions,
  openWorkbench,
  packFixtureExtension,
  startCodeServer,
  type BuiltVsix,
  type CodeServer,
  type Workbench,
} from './harness';
import {
  GREET_AFTER,
  GREET_BEFORE,
  INTERVIEW,
  greetingPlan,
  makeWorkspace,
  planTurn,
  type Workspace,
} from './support/fixtures';
import { ModelScript, messageText, toolResults } from './support/modelScript';
import {
  Panel,
  pickQuickItem,
  planwiseSettings,
  startPlanning,
  waitForEditorText,
  openFile,
  widenSidebar,
} from './support/ui';
import { endScenario, readJsonLines, screenshotOnFailure } from './support/artifacts';

/** The planning model's row in Select Model (not "Scripted LM (build)"). */
const LM_ROW = /Scripted LM(?! \(build\))/;
const REASONING = 'The helper is greet.js; check.js decides what counts as friendly.';
/** VS Code's modal dialog (the Language Model access prompt is one). */
const CONSENT_DIALOG = '.monaco-dialog-box';

describe('e2e: planwise.provider vscode-lm through VS Code’s Language Model API (code-server 4.106, no key)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let fixture: BuiltVsix | undefined;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;

  const notesFile = () => path.join(ws.root, '..', `${path.basename(ws.root)}-lm-notes.jsonl`);
  /** What the provider noted: each token count and each cancellation (see fixtures/scripted-lm). */
  const notes = () => readJsonLines<{ countTokens?: number; cancelled?: boolean }>(notesFile());
  const counts = () => notes().filter((n) => n.countTokens !== undefined);
  const settingsFile = () => path.join(server!.userDataDir, 'User', 'settings.json');
  const userSettings = () => JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;

  before(async function () {
    const vsix = buildPlanwiseVsix();
    fixture = packFixtureExtension(path.join(fixturesDir, 'scripted-lm'));
    ws = makeWorkspace();
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: [vsix.file, fixture.file],
      // Planwise starts on its default provider, pointed at the scripted server (which lists
      // 'scripted-model'); no key is ever set.
      settings: planwiseSettings(model.baseURL),
      // The model requires authorization, so VS Code asks for consent as it does for Copilot's.
      env: { PLANWISE_E2E_LM_URL: model.baseURL, PLANWISE_E2E_LM_LOG: notesFile(), PLANWISE_E2E_LM_CONSENT: '1' },
      args: ['--enable-proposed-api', 'planwise-test.scripted-lm'],
    });
    const installed = listExtensions(server);
    assert.ok(installed.includes('planwise-test.scripted-lm@0.0.1'), `installed: ${installed.join(', ')}`);
    assert.ok(
      installed.some((e) => e.startsWith('planwise.planwise@')),
      `installed: ${installed.join(', ')}`,
    );
    wb = await openWorkbench(server);
    panel = new Panel(wb);
    await panel.open();
    await widenSidebar(wb, 470);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('vscode-lm', { server, wb, model, ws }, ws && notesFile(), fixture && path.dirname(fixture.file));
  });

  it(`runs in VS Code ${VSCODE_VERSIONS.current}: Select Model lists the provider's models next to the endpoint's; picking them switches to vscode-lm, one to plan and one to build`, async function () {
    assert.ok(wb && server);
    await wb.runCommand('Planwise: Select Model');
    const rows = wb.page.locator(SELECTORS.quickInputRow);
    await rows.filter({ hasText: LM_ROW }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await rows.filter({ hasText: 'scripted-model' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const lmRow = await rows.filter({ hasText: LM_ROW }).first().innerText();
    assert.match(lmRow, /planwise-scripted/, `the row names the vendor: ${lmRow}`);
    assert.match(lmRow, /16000 input tokens/, `the row shows the context window: ${lmRow}`);
    await wb.screenshot('e2e-lm-01-select-model');
    await pickQuickItem(wb, LM_ROW);
    await pickQuickItem(wb, /^Planning and building/);
    // The provider switch and the model are two settings writes: wait for the second.
    const deadline = Date.now() + 15_000;
    while (userSettings()['planwise.planningModel'] !== 'scripted-lm' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    // Building gets a model of its own. The picker opens on the model in use, marked as current.
    await wb.runCommand('Planwise: Select Model');
    const focused = wb.page.locator(`${SELECTORS.quickInputRow}.focused`);
    await focused.filter({ hasText: LM_ROW }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await focused.innerText(), /current: planning and building/);
    await pickQuickItem(wb, /Scripted LM \(build\)/);
    await pickQuickItem(wb, /^Building only/);
    while (userSettings()['planwise.buildModel'] !== 'scripted-lm-build' && Date.now() < deadline + 15_000) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const s = userSettings();
    assert.equal(s['planwise.provider'], 'vscode-lm');
    assert.equal(s['planwise.planningModel'], 'scripted-lm');
    assert.equal(s['planwise.buildModel'], 'scripted-lm-build');
    // Listing went to the endpoint's /models; no chat request was sent.
    assert.equal(model.requests.length, 0);
  });

  it('VS Code asks before Planwise may use the model: declining is a clear message, and nothing is sent', async function () {
    assert.ok(wb);
    await startPlanning(wb, 'Make the greeting friendlier');
    const dialog = wb.page.locator(CONSENT_DIALOG);
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await dialog.innerText(), /wants to access the language models provided by Scripted Language Model/);
    await wb.screenshot('e2e-lm-02-consent');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // VS Code's own refusal, quoted in Planwise's sentence with what to do about it.
    const notice = await panel.waitFor('.pw-notice.pw-level-error', { text: /VS Code did not allow Planwise/ });
    assert.equal(
      (await notice.innerText()).split('\n').find((l) => l.startsWith('VS Code did not allow')),
      "VS Code did not allow Planwise to use the model 'scripted-lm' (Language model 'planwise-scripted/scripted-lm' " +
        "cannot be used by 'planwise.planwise'). Planwise needs your permission to use this model: start planning " +
        'again and choose "Allow" when VS Code asks, or allow it under Accounts > Manage Language Model Access.',
    );
    await wb.screenshot('e2e-lm-03-declined');
    assert.equal(model.requests.length, 0, 'a request reached the model without consent');
  });

  it('plans with no key: a tool call, the interview, the plan at the gate, all through vscode.lm', async function () {
    assert.ok(wb && server);
    // VS Code asks again; this time the person allows it.
    model.push(
      // Thinking first (VS Code's LanguageModelThinkingPart), then text and the call.
      sse.turn(
        sse.role(),
        sse.reasoning(REASONING, 'reasoning_content'),
        sse.text('Reading the helper first.'),
        sse.parallelToolCalls([{ name: 'read_file', args: { path: 'greet.js' } }], false),
        sse.finish('tool_calls'),
      ),
      sse.toolTurn([{ name: 'request_user_input', args: INTERVIEW }]),
      planTurn(greetingPlan()),
    );
    await startPlanning(wb, 'Make the greeting friendlier');
    const dialog = wb.page.locator(CONSENT_DIALOG);
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Allow' }).click();
    await panel.waitFor('.pw-assistant', { text: 'Reading the helper first.' });
    await panel.waitFor('.pw-tool-call', { text: 'Read ' });
    // The thinking part is reasoning: its own item ("Thought", opened to read it), never answer text.
    const thought = await panel.waitFor('.pw-thinking', { text: 'Thought' });
    await thought.locator('.pw-disclosure').click();
    await panel.waitFor('.pw-thinking', { text: REASONING });
    assert.ok(
      !(await (await panel.locator('.pw-assistant')).allInnerTexts()).some((t) => t.includes(REASONING)),
      'the reasoning was shown as answer text',
    );

    // The interview, with the keyboard: the recommended answers (Hello, Yes), then Submit.
    await panel.waitFor('.pw-interview', { text: 'Which greeting should callers get?' });
    const frame = await panel.frame();
    await frame.locator('.pw-interview [role=radio][tabindex="0"]').focus();
    await wb.page.keyboard.press('Enter');
    await frame.locator('.pw-interview [role=radio]:focus', { hasText: 'Yes' }).waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press('Enter');
    await frame.locator('.pw-interview vscode-button:focus', { hasText: 'Submit' }).waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press('Enter');

    const gate = await panel.waitFor('.pw-gate', { text: 'Ready to code?' });
    assert.match(await gate.innerText(), /Plan validated/);
    await panel.waitFor('.pw-plan-card', { text: 'Greet with Hello' });
    await wb.screenshot('e2e-lm-04-gate');
    assert.equal(await (await panel.locator('.pw-setup')).count(), 0, 'the setup card asked for a provider');
    assert.match(await (await panel.locator('.pw-provider')).innerText(), /VS Code models · scripted-lm/);

    // Three requests, each through VS Code's Language Model API and none with a key.
    assert.equal(model.requests.length, 3);
    for (const r of model.requests) {
      assert.equal(r.headers['x-planwise-e2e-via'], 'vscode-lm', `request ${r.n} did not come through vscode.lm`);
      assert.equal(r.headers.authorization, undefined);
      assert.equal(r.body.model, 'scripted-lm');
    }
    const [first, second, third] = model.requests;
    // The tools went over as LanguageModelChatTools; the system prompt as the first User message.
    const tools = (first!.body.tools ?? []).map((t) => t.function.name);
    for (const t of ['read_file', 'request_user_input']) assert.ok(tools.includes(t), `tools: ${tools.join(', ')}`);
    assert.ok(!tools.includes('edit_file'), 'planning offered a build tool');
    assert.equal(first!.body.messages[0]!['role'], 'user');
    assert.match(messageText(first!.body.messages.at(-1)), /Make the greeting friendlier/);
    // The tool call came back as a LanguageModelToolCallPart, its result as a LanguageModelToolResultPart.
    const call = second!.body.messages.find((m) => m['role'] === 'assistant' && m['tool_calls']) as
      { tool_calls: { id: string; function: { name: string; arguments: string } }[] } | undefined;
    assert.equal(call?.tool_calls[0]?.function.name, 'read_file');
    assert.deepEqual(JSON.parse(call!.tool_calls[0]!.function.arguments), { path: 'greet.js' });
    assert.ok(!JSON.stringify(second!.body.messages).includes(REASONING), 'the reasoning was sent back as content');
    assert.ok(toolResults(second).join('\n').includes(GREET_BEFORE.trim()), toolResults(second).join('\n'));
    const answers = toolResults(third).join('\n');
    assert.match(answers, /Hello/);
    assert.match(answers, /Yes/);

    // The context figure is the model's own count (provideTokenCount) against its maxInputTokens
    // (16 000): a prompt of some 2-3k tokens shows well above the 2% it is of Planwise's default window.
    assert.ok(counts().length > 0, 'Planwise never asked the model to count tokens');
    const status = await wb.statusBarText();
    const ctx = /Planwise: [^|]*?(\d+)% of context/.exec(status);
    assert.ok(ctx, `status bar: ${status}`);
    assert.ok(Number(ctx[1]) >= 6, `the context share ${ctx[1]}% is not read against the model's 16 000-token window`);

    const plansDir = ws.file(path.join('.vtcode', 'plans'));
    const plans = readdirSync(plansDir).filter((f) => f.endsWith('.md') && !f.endsWith('.tasks.md'));
    assert.equal(plans.length, 1, `plans: ${plans.join(', ')}`);
    assert.match(readFileSync(path.join(plansDir, plans[0]!), 'utf8'), /^# Greet with Hello/m);
    model.assertDrained();
  });

  it('builds the approved plan through vscode.lm with its own model: the edit, the verify, the tracker at 100%', async function () {
    assert.ok(wb);
    await openFile(wb, 'greet.js');
    await waitForEditorText(wb, "'Hi '");
    model.push(
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'in_progress' } }]),
      sse.toolTurn([
        { name: 'edit_file', args: { path: 'greet.js', old_text: "'Hi ' + name", new_text: "'Hello, ' + name + '!'" } },
      ]),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('Done: greet.js now says "Hello, <name>!" and the check passes.'),
    );
    const mark = model.mark();
    await (await panel.frame()).getByRole('button', { name: /Yes, implement this plan/ }).click();
    await waitForEditorText(wb, "'Hello, ' + name + '!'");
    await panel.openTracker(90_000);
    await panel.waitFor('.pw-tracker-counts', { text: '100%', timeoutMs: 90_000 });
    await panel.waitFor('.pw-assistant', { text: 'the check passes' });
    await wb.screenshot('e2e-lm-05-built');
    assert.equal(readFileSync(ws.file('greet.js'), 'utf8'), GREET_AFTER);

    const build = model.since(mark);
    assert.equal(build.length, 4);
    for (const r of build) {
      assert.equal(r.headers['x-planwise-e2e-via'], 'vscode-lm');
      assert.equal(r.body.model, 'scripted-lm-build', 'the build did not use the build model');
    }
    assert.ok(
      build[0]!.body.tools?.some((t) => t.function.name === 'edit_file'),
      'the build had no edit tool',
    );
    // The verify ran (node check.js passed) before the step could complete.
    assert.match(toolResults(build[3]).join('\n'), /\(1\/1 completed, 100%\)/);
    model.assertDrained();
  });

  it('Stop ends a run whose model went silent mid-answer, at once (VS Code does not tell the provider)', async function () {
    assert.ok(wb);
    // A few words, then the provider stalls with the request open (a model thinking, a slow network).
    model.push({ ...sse.textTurn('Let me look around the workspace before I plan anything.'), stallAfter: 3 });
    await startPlanning(wb, 'Plan something slowly');
    await panel.waitFor('.pw-assistant', { text: 'Let me look' });
    await panel.waitFor('.pw-state', { text: 'Planning' });
    const stopped = Date.now();
    await wb.runCommand('Planwise: Stop');
    await panel.waitFor('.pw-state', { text: 'Idle', timeoutMs: 10_000 });
    const stopMs = Date.now() - stopped;
    await panel.waitFor('.pw-notice', { text: 'Stopped.' });
    await wb.screenshot('e2e-lm-06-stopped');
    console.log(`      Stop -> idle with the provider silent: ${stopMs} ms`);
    assert.ok(stopMs < 10_000, `Stop took ${stopMs} ms`);
    assert.equal(model.requests.length, 8, 'Stop sent another request');
    // VS Code 1.106 passes a consumer's cancellation to the provider only while the request is being
    // started, not once its answer streams: the provider's token stays uncancelled, so Planwise must not
    // wait for its next part. (This records what VS Code does; it is not what Planwise asserts.)
    const told = notes().some((n) => n.cancelled);
    console.log(`      provider's CancellationToken cancelled: ${told}`);
    model.assertDrained();
  });

  it('a model VS Code does not offer: the message says to pick one; picked with Select Model, Retry plans with it; a model picked at the gate takes the revision', async function () {
    assert.ok(wb);
    await wb.runCommand('Planwise: Select Model');
    await wb.page.locator(SELECTORS.quickInputBox).fill('gone-model');
    await pickQuickItem(wb, /gone-model/);
    await pickQuickItem(wb, /^Planning only/);
    const deadline = Date.now() + 15_000;
    while (userSettings()['planwise.planningModel'] !== 'gone-model' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const mark = model.mark();
    // Start Planning ignores itself for 1.5 s after a Stop (the second click of a double click on
    // the title bar's Stop); the scenario before this one ended with a Stop.
    await new Promise((r) => setTimeout(r, 1600));
    await startPlanning(wb, 'Say hello in French');
    const notice = await panel.waitFor('.pw-notice.pw-level-error', { text: /gone-model/ });
    assert.equal(
      (await notice.innerText()).split('\n').find((l) => l.includes('gone-model')),
      'VS Code offers no language model \'gone-model\'. Run "Planwise: Select Model" to pick one of the models it offers ' +
        '(GitHub Copilot must be signed in, or another extension must provide models).',
    );
    assert.equal(model.mark(), mark, 'a request went out for a model VS Code does not offer');

    await wb.runCommand('Planwise: Select Model');
    await pickQuickItem(wb, LM_ROW);
    await pickQuickItem(wb, /^Planning only/);
    while (userSettings()['planwise.planningModel'] !== 'scripted-lm' && Date.now() < deadline + 15_000) {
      await new Promise((r) => setTimeout(r, 200));
    }
    model.push(planTurn(greetingPlan('Greet in French')));
    await (await panel.frame()).getByRole('button', { name: 'Retry' }).last().click();
    await panel.waitFor('.pw-gate', { text: 'Greet in French' });
    assert.equal(model.since(mark).length, 1);
    assert.equal(model.since(mark)[0]!.body.model, 'scripted-lm');
    assert.match(messageText(model.since(mark)[0]!.body.messages.at(-1)), /Say hello in French/);
    model.assertDrained();

    // At the gate, another planning model; the revision asked for goes to it (as an endpoint's would).
    await wb.runCommand('Planwise: Select Model');
    await pickQuickItem(wb, /Scripted LM \(build\)/);
    await pickQuickItem(wb, /^Planning only/);
    while (userSettings()['planwise.planningModel'] !== 'scripted-lm-build' && Date.now() < deadline + 30_000) {
      await new Promise((r) => setTimeout(r, 200));
    }
    model.push(planTurn(greetingPlan('Greet in French, formally'), 'Revised as asked.'));
    const frame = await panel.frame();
    await frame.getByRole('button', { name: /No, stay in Plan mode/ }).click();
    const box = frame.locator('.pw-feedback textarea');
    await box.waitFor({ state: 'visible' });
    await box.fill('Use the formal greeting.');
    await box.press('Control+Enter');
    await panel.waitFor('.pw-gate', { text: 'Greet in French, formally' });
    const revision = model.since(mark)[1]!;
    assert.match(messageText(revision.body.messages.at(-1)), /Use the formal greeting/);
    assert.equal(revision.body.model, 'scripted-lm-build', 'the revision did not go to the model picked at the gate');
    model.assertDrained();
  });
});
