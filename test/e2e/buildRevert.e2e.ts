// Revert Build in a real VS Code (code-server) on the installed VSIX, against the scripted model: a
// two-step build (file tools in step 1; a file tool and an allow-listed shell command in step 2)
// ends with the panel's final card; its "Revert to step 1" shows the diff as a read-only document
// (no Untitled buffer, nothing to save on close) and puts the files back as step 1 left them (the
// shell's file removed, byte for byte). The editor's Undo brings the build's change back, and
// reverting again asks nothing about a file only Planwise and Undo touched. Then the person changes
// a file, and the card's Revert Build names it in its one question: kept, the rest reverted.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { ModelScript, toolResults } from './support/modelScript';
import {
  Panel,
  openFile,
  planwiseSettings,
  setApiKey,
  startPlanning,
  waitForEditorText,
  widenSidebar,
} from './support/ui';
import { endScenario, screenshotOnFailure } from './support/artifacts';

const PASS = 'node -e "process.exit(0)"';
const ONE = 'exports.one = () => 1;\n';
const TWO = 'exports.two = () => 2;\n';
const GEN_SH = "printf 'generated\\n' > src/gen.txt\n";
const ONE_AFTER = 'exports.one = () => 10;\n';
const NEW_JS = 'exports.fresh = true;\n';
const MINE = 'const mine = 1;\n';

const PLAN = `# Two steps

## Summary

Make one() return 10, then two() return 20 with a generated file.

## Implementation Steps

1. Make one() return 10 -> files: [src/one.js, src/new.js] -> verify: [${PASS}]
2. Make two() return 20 and generate src/gen.txt -> files: [src/two.js, src/gen.txt] -> verify: [${PASS}]

## Test Cases and Validation

- tests: \`${PASS}\`

## Assumptions and Defaults

- none
`;

describe('e2e: the build card, Revert to step N and its one question (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;

  before(async function () {
    const vsix = buildPlanwiseVsix();
    ws = makeWorkspace('planwise-e2e-revert-');
    mkdirSync(ws.file('src'), { recursive: true });
    writeFileSync(ws.file('src/one.js'), ONE);
    writeFileSync(ws.file('src/two.js'), TWO);
    writeFileSync(ws.file('gen.sh'), GEN_SH);
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: vsix.file,
      settings: planwiseSettings(model.baseURL, {
        'planwise.build.scope': 'record',
        'planwise.buildCommandAllowList': ['sh gen.sh', 'node -e *'],
        'files.autoSave': 'off',
      }),
    });
    wb = await openWorkbench(server);
    panel = new Panel(wb);
    await setApiKey(wb, 'sk-e2e-not-a-real-key-000000');
    await wb.runCommand('Notifications: Clear All Notifications');
    await panel.open();
    await widenSidebar(wb, 470);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('build-revert', { server, wb, model, ws });
  });

  /** Polls a file on disk until `test` holds (VS Code saves asynchronously). */
  async function untilOnDisk(rel: string, test: (content: string | undefined) => boolean, what: string) {
    const deadline = Date.now() + 30_000;
    let last: string | undefined;
    while (Date.now() < deadline) {
      last = existsSync(ws.file(rel)) ? readFileSync(ws.file(rel), 'utf8') : undefined;
      if (test(last)) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.fail(`${rel}: ${what}; it holds ${JSON.stringify(last)}`);
  }

  /** The modal dialog with `text`; clicks `button`. */
  async function answerDialog(text: RegExp, button: string): Promise<void> {
    const dialog = wb!.page.locator('.monaco-dialog-box').filter({ hasText: text });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await dialog.getByRole('button', { name: button, exact: true }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
  }

  it('1. a two-step build ends with the final card: outcome, steps, verify, files, and Revert buttons', async function () {
    assert.ok(wb);
    model.push(planTurn(PLAN));
    await startPlanning(wb, 'Change one and two');
    await panel.waitFor('.pw-gate', { text: 'Ready to code?' });
    const mark = model.mark();
    const update = (index: number, status: string) =>
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index, status } }]);
    model.push(
      update(1, 'in_progress'),
      sse.toolTurn([
        { name: 'edit_file', args: { path: 'src/one.js', old_text: '() => 1', new_text: '() => 10' } },
        { name: 'write_file', args: { path: 'src/new.js', content: NEW_JS } },
      ]),
      update(1, 'completed'),
      update(2, 'in_progress'),
      sse.toolTurn([
        { name: 'edit_file', args: { path: 'src/two.js', old_text: '() => 2', new_text: '() => 20' } },
        { name: 'run_command', args: { command: 'sh gen.sh' } },
      ]),
      update(2, 'completed'),
      sse.textTurn('one() returns 10, two() returns 20, src/gen.txt generated.'),
    );
    const frame = await panel.frame();
    await frame.getByRole('button', { name: /Yes, implement this plan/ }).click();
    const card = await panel.waitFor('[data-testid="build-report"]', { timeoutMs: 120_000 });
    assert.match(
      toolResults(model.since(mark)[5]).join('\n'),
      /files this command changed \(checkpointed for Revert Build\): src\/gen\.txt \(created\)/,
    );
    await untilOnDisk('src/gen.txt', (c) => c === 'generated\n', 'the shell command wrote it');
    assert.equal(readFileSync(ws.file('src/one.js'), 'utf8'), ONE_AFTER);
    const facts = await card.locator('.pw-report-facts').innerText();
    assert.match(facts, /Steps\s+2 of 2 done/);
    assert.match(facts, /Verify\s+2 passed \(of 2\)/);
    assert.match(facts, /Files\s+4 files changed, all in the plan/);
    assert.match(await card.locator('.pw-report-head').innerText(), /Build done/);
    assert.equal(await card.getByTestId('report-revert-step-1').count(), 1);
    assert.equal(await card.getByTestId('report-revert-step-2').count(), 1);
    await wb.screenshot('e2e-revert-01-card');
    model.assertDrained();
  });

  /** How many dialogs are on screen. */
  const visibleDialogs = () =>
    wb!.page
      .locator('.monaco-dialog-box')
      .evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length);

  /** The modal dialog that shows `text`, once visible: its words and its buttons (sorted). */
  async function dialogShown(text: RegExp): Promise<{ text: string; buttons: string[] }> {
    const dialog = wb!.page.locator('.monaco-dialog-box').filter({ hasText: text });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const buttons = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts())
      .map((t) => t.trim())
      .filter((t) => t !== '');
    return { text: await dialog.innerText(), buttons: buttons.sort() };
  }

  it("2. the card's Revert to step 1: a read-only diff, one question, and the tree as step 1 left it (the shell's file removed)", async function () {
    assert.ok(wb);
    const card = await panel.waitFor('[data-testid="build-report"]');
    await card.getByTestId('report-revert-step-1').click();
    const asked = await dialogShown(/Revert 2 files to step 1\?/);
    assert.deepEqual(asked.buttons, ['Cancel', 'Revert']);
    assert.ok(!/changed after the build/.test(asked.text), asked.text);
    // The diff beside the question is a read-only document of its own, not an unsaved Untitled one.
    const tab = wb.page.locator('.tab').filter({ hasText: 'Revert to step 1.diff' });
    await tab.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(
      await wb.page
        .locator('.tab')
        .filter({ hasText: /Untitled/ })
        .count(),
      0,
    );
    assert.equal(await tab.evaluate((el) => el.classList.contains('dirty')), false);
    await answerDialog(/Revert 2 files to step 1\?/, 'Revert');
    await untilOnDisk('src/two.js', (c) => c === TWO, 'back to its state before step 2');
    await untilOnDisk('src/gen.txt', (c) => c === undefined, "the shell command's file is removed");
    assert.equal(readFileSync(ws.file('src/one.js'), 'utf8'), ONE_AFTER, 'step 1 stays');
    assert.equal(readFileSync(ws.file('src/new.js'), 'utf8'), NEW_JS, 'step 1 stays');
    assert.equal(readFileSync(ws.file('gen.sh'), 'utf8'), GEN_SH, 'never touched, left alone');
    await wb.waitForNotification(/reverted 2 files to step 1/);
    await wb.screenshot('e2e-revert-02-to-step-1');
    // Closing the diff asks nothing: there is nothing to save.
    await tab.click();
    await wb.runCommand('View: Close Editor');
    await tab.waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(await visibleDialogs(), 0, 'no "save changes?" dialog');
  });

  it("2b. Undo brings the build's change back; reverting again asks no question about the person's changes", async function () {
    assert.ok(wb);
    await openFile(wb, 'src/two.js');
    await waitForEditorText(wb, '() => 2;');
    await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await wb.page.keyboard.press('Control+z');
    // The revert was one edit across files: VS Code may ask whether to undo it in all of them.
    const across = wb.page.locator('.monaco-dialog-box').filter({ hasText: /undo/i });
    if (await across.isVisible({ timeout: 5_000 }).catch(() => false)) {
      await across.getByRole('button', { name: /Undo in \d+ Files/ }).click();
      await across.waitFor({ state: 'hidden', timeout: 30_000 });
    }
    await waitForEditorText(wb, '() => 20;');
    await wb.runCommand('Notifications: Clear All Notifications');
    const card = await panel.waitFor('[data-testid="build-report"]');
    await card.getByTestId('report-revert-step-1').click();
    // One question, with no file named as the person's: only Planwise's revert and Undo touched them.
    const question = /Revert \d files? to step 1\?/;
    const asked = await dialogShown(question);
    assert.deepEqual(asked.buttons, ['Cancel', 'Revert']);
    assert.ok(!/changed after the build/.test(asked.text), asked.text);
    await answerDialog(question, 'Revert');
    await wb.waitForNotification(/reverted \d files? to step 1\./);
    assert.equal(await visibleDialogs(), 0, 'no second question');
    // The Undo left src/two.js unsaved with the build's text; that was not the person's, so the revert saves it.
    const twoTab = wb.page.locator('.tab').filter({ hasText: 'two.js' });
    await wb.page.waitForFunction(
      () =>
        ![...document.querySelectorAll('.tab')].some(
          (t) => t.textContent?.includes('two.js') && t.classList.contains('dirty'),
        ),
      undefined,
      { timeout: 30_000 },
    );
    assert.equal(await twoTab.count(), 1);
    assert.equal(readFileSync(ws.file('src/two.js'), 'utf8'), TWO);
  });

  it('3. the person changes a file after the build: the one question names it; kept, the rest reverted', async function () {
    assert.ok(wb);
    await openFile(wb, 'src/one.js');
    await waitForEditorText(wb, '() => 10');
    await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await wb.page.keyboard.press('Control+Home');
    await wb.page.keyboard.type(MINE);
    await wb.page.keyboard.press('Control+S');
    await untilOnDisk('src/one.js', (c) => c === MINE + ONE_AFTER, 'saved with the person’s line');
    await wb.runCommand('Notifications: Clear All Notifications');
    const card = await panel.waitFor('[data-testid="build-report"]');
    await card.getByTestId('report-revert').click();
    const question = /Revert 2 files to the state before the build\? src\/one\.js was changed after the build\./;
    assert.deepEqual((await dialogShown(question)).buttons, ['Cancel', 'Revert All', 'Revert, Keep My Changes']);
    await answerDialog(question, 'Revert, Keep My Changes');
    assert.equal(await visibleDialogs(), 0, 'one question, not one per file');
    await untilOnDisk('src/new.js', (c) => c === undefined, 'created by the build, so removed');
    assert.equal(readFileSync(ws.file('src/one.js'), 'utf8'), MINE + ONE_AFTER, "the person's file is kept as it is");
    assert.equal(readFileSync(ws.file('src/two.js'), 'utf8'), TWO);
    assert.equal(existsSync(ws.file('src/gen.txt')), false);
    await wb.waitForNotification(/reverted 1 file to the state before the build; kept your changes to 1/);
    await wb.screenshot('e2e-revert-03-kept');
  });

  it('4. after the build, a new task typed in the text box asks first; Keep (the default) keeps the report and the draft', async function () {
    assert.ok(wb);
    const mark = model.mark();
    const frame = await panel.frame();
    const box = frame.getByLabel('Message Planwise');
    await box.click();
    await box.fill('Add a third helper');
    await box.press('Enter');
    const ask = frame.getByRole('alertdialog', { name: 'Start a new task?' });
    await ask.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.screenshot('e2e-revert-04-new-task-asks');
    // The safe choice holds the focus: Enter keeps.
    await frame.getByTestId('new-task-confirm-keep').waitFor();
    assert.equal(
      await frame.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? ''),
      'new-task-confirm-keep',
    );
    await wb.page.keyboard.press('Enter');
    await ask.waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(await box.inputValue(), 'Add a third helper', 'the draft is kept');
    assert.equal(await frame.getByTestId('build-report').count(), 1, 'the report and its Revert buttons stay');
    assert.equal(await frame.getByTestId('report-revert').count(), 1);
    assert.equal(model.since(mark).length, 0, 'nothing was sent to the model');
  });
});
