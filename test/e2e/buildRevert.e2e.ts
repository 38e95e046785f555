// Issue 16 in a real VS Code (code-server) on the installed VSIX, against the scripted model: a
// two-step build (file tools in step 1; a file tool and an allow-listed shell command in step 2)
// ends with the panel's final card; its "Revert to step 1" puts the files back as step 1 left them
// (the shell's file removed, byte for byte); then the person changes a file and the card's Revert
// Build asks about that file on its own: kept, while the rest of the build is reverted.
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

describe('e2e: the build card, Revert to step N and the per-file question (installed VSIX)', function () {
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

  it("2. the card's Revert to step 1: the diff, one question, and the tree as step 1 left it (the shell's file removed)", async function () {
    assert.ok(wb);
    const card = await panel.waitFor('[data-testid="build-report"]');
    await card.getByTestId('report-revert-step-1').click();
    await answerDialog(/Revert 2 files to step 1\?/, 'Revert');
    await untilOnDisk('src/two.js', (c) => c === TWO, 'back to its state before step 2');
    await untilOnDisk('src/gen.txt', (c) => c === undefined, "the shell command's file is removed");
    assert.equal(readFileSync(ws.file('src/one.js'), 'utf8'), ONE_AFTER, 'step 1 stays');
    assert.equal(readFileSync(ws.file('src/new.js'), 'utf8'), NEW_JS, 'step 1 stays');
    assert.equal(readFileSync(ws.file('gen.sh'), 'utf8'), GEN_SH, 'never touched, left alone');
    await wb.waitForNotification(/reverted 2 files to step 1/);
    await wb.screenshot('e2e-revert-02-to-step-1');
  });

  it('3. the person changes a file after the build: Revert Build asks about it alone; kept, the rest reverted', async function () {
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
    await answerDialog(/Revert 2 files to the state before the build\?/, 'Revert');
    await answerDialog(/src\/one\.js was changed after the build\. Revert it anyway\?/, 'Cancel');
    await untilOnDisk('src/new.js', (c) => c === undefined, 'created by the build, so removed');
    assert.equal(readFileSync(ws.file('src/one.js'), 'utf8'), MINE + ONE_AFTER, "the person's file is kept as it is");
    assert.equal(readFileSync(ws.file('src/two.js'), 'utf8'), TWO);
    assert.equal(existsSync(ws.file('src/gen.txt')), false);
    await wb.waitForNotification(/reverted 1 file to the state before the build; kept your changes to 1/);
    await wb.screenshot('e2e-revert-03-kept');
  });
});
