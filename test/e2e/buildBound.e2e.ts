// Issue 16 in a real VS Code (code-server) on the installed VSIX, against the scripted model: the
// person types into src/a.js without saving and the build agent edits another part of it (both
// changes stay in the buffer, nothing is saved over the person's text, the transcript says so);
// the person changes the very line the agent read (it is told "changed since you read it",
// re-reads and succeeds); then Revert Build takes the build's edit out and Undo brings it back.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { sse } from '../support/scriptedServer';
import { samplePlan } from '../support/sessionHarness';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { ModelScript, toolResults } from './support/modelScript';
import {
  Panel,
  openFile,
  pickQuickItem,
  planwiseSettings,
  setApiKey,
  startPlanning,
  waitForEditorText,
  widenSidebar,
} from './support/ui';
import { endScenario, screenshotOnFailure } from './support/artifacts';

const A_JS = 'function one() {\n  return 1;\n}\n\nfunction two() {\n  return 2;\n}\n';
const PERSON = 'const typedByThePerson = true;';
const PASS = 'node -e "process.exit(0)"';
const B_JS = "exports.b = 'before';\n";

describe('e2e: the build never loses what the person typed; Revert Build and Undo (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;

  before(async function () {
    const vsix = buildPlanwiseVsix();
    ws = makeWorkspace('planwise-e2e-bound-');
    writeFileSync(ws.file('a.js'), A_JS);
    writeFileSync(ws.file('b.js'), B_JS);
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: vsix.file,
      // The web workbench saves after a delay by default; this person saves by hand.
      settings: planwiseSettings(model.baseURL, { 'planwise.build.scope': 'record', 'files.autoSave': 'off' }),
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
    await endScenario('build-bound', { server, wb, model, ws });
  });

  /** Types `text` at the very start of the active editor, without saving. */
  async function typeAtTop(text: string): Promise<void> {
    await wb!.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await wb!.page.keyboard.press('Control+Home');
    await wb!.page.keyboard.type(text);
  }

  /** Waits for the gate; the mark counts the model's requests up to the plan. */
  async function atGate(): Promise<number> {
    await panel.waitFor('.pw-gate', { text: 'Ready to code?' });
    return model.mark();
  }

  async function approve(): Promise<void> {
    const frame = await panel.frame();
    await frame.getByRole('button', { name: /Yes, implement this plan/ }).click();
  }

  it("1. unsaved typing and the agent's edit elsewhere: both in the buffer, nothing saved, the transcript says so", async function () {
    assert.ok(wb);
    await openFile(wb, 'a.js');
    await waitForEditorText(wb, 'return 2;');
    await typeAtTop(`${PERSON}\n`);
    await waitForEditorText(wb, PERSON);
    model.push(planTurn(samplePlan('Return twenty', 'a.js', PASS)));
    await startPlanning(wb, 'Make two() return 20');
    const mark = await atGate();
    model.push(
      sse.toolTurn([{ name: 'read_file', args: { path: 'a.js' } }]),
      sse.toolTurn([{ name: 'edit_file', args: { path: 'a.js', old_text: 'return 2;', new_text: 'return 20;' } }]),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('two() returns 20; a.js was left unsaved because it had your changes.'),
    );
    await approve();
    await panel.openTracker(90_000);
    await panel.waitFor('.pw-tracker-counts', { text: '100%', timeoutMs: 90_000 });
    const shown = await waitForEditorText(wb, 'return 20;');
    assert.ok(shown.includes(PERSON), `the person's line is still in the buffer:\n${shown}`);
    assert.equal(readFileSync(ws.file('a.js'), 'utf8'), A_JS, 'nothing was saved over the file');
    assert.equal(
      await wb.page.locator('.editor-group-container.active .tab.active.dirty').count(),
      1,
      'the editor still has unsaved changes',
    );
    const build = model.since(mark);
    assert.match(toolResults(build[1]).join('\n'), new RegExp(PERSON), 'the agent read the text the person sees');
    assert.match(toolResults(build[2]).join('\n'), /left unsaved/);
    // The transcript says so, under the edit's row.
    await panel.waitFor('.pw-tool-call', { text: /Edited a\.js \+\d+ \u2212\d+[\s\S]*change is unsaved too/ });
    await panel.waitFor('.pw-item', { text: /Build done/ });
    await wb.screenshot('e2e-bound-01-unsaved');
  });

  it("2. Revert Build takes the build's edit out (the person's typing stays); Undo brings it back", async function () {
    assert.ok(wb);
    await wb.runCommand('Planwise: Revert Build');
    await pickQuickItem(wb, /The whole build/);
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.filter({ hasText: /Revert 1 file/ }).waitFor({ state: 'visible', timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Revert', exact: true }).click();
    await openFile(wb, 'a.js');
    const reverted = await waitForEditorText(wb, 'return 2;');
    assert.ok(!reverted.includes('return 20;'), reverted);
    assert.ok(reverted.includes(PERSON), `the person's unsaved line survived the revert:\n${reverted}`);
    await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await wb.page.keyboard.press('Control+Z');
    const undone = await waitForEditorText(wb, 'return 20;');
    assert.ok(undone.includes(PERSON), undone);
    await wb.screenshot('e2e-bound-02-revert-undo');
  });

  it('3. the person changes the very line the agent read: "changed since you read it", a re-read, then success', async function () {
    assert.ok(wb);
    await openFile(wb, 'a.js');
    model.push(planTurn(samplePlan('Return one hundred', 'a.js', PASS)));
    await startPlanning(wb, 'Make one() return 100');
    const mark = await atGate();
    model.push(
      sse.toolTurn([{ name: 'read_file', args: { path: 'a.js' } }]),
      {
        // Held back so the person can change the line the agent has just read.
        ...sse.toolTurn([
          { name: 'edit_file', args: { path: 'a.js', old_text: 'return 1;', new_text: 'return 100;' } },
        ]),
        headersDelayMs: 5000,
      },
      sse.toolTurn([{ name: 'read_file', args: { path: 'a.js' } }]),
      sse.toolTurn([
        { name: 'edit_file', args: { path: 'a.js', old_text: 'return 1; // kept', new_text: 'return 100; // kept' } },
      ]),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('one() returns 100.'),
    );
    await approve();
    await model.waitForRequests(mark + 2);
    await openFile(wb, 'a.js');
    const line = wb.page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: 'return 1;' });
    await line.first().click();
    await wb.page.keyboard.press('End');
    await wb.page.keyboard.type(' // kept');
    await waitForEditorText(wb, 'return 1; // kept');
    await panel.openTracker(90_000);
    await panel.waitFor('.pw-tracker-counts', { text: '100%', timeoutMs: 90_000 });
    await waitForEditorText(wb, 'return 100; // kept');
    const build = model.since(mark);
    assert.match(toolResults(build[2]).join('\n'), /the file changed since you read it; read it again/);
    assert.match(toolResults(build[3]).join('\n'), /return 1; \/\/ kept/);
    assert.match(toolResults(build[4]).join('\n'), /edited a\.js/);
    model.assertDrained();
  });

  it("4. a file without unsaved changes: the range edit is saved, and the editor's Undo reverts it", async function () {
    assert.ok(wb);
    model.push(planTurn(samplePlan('Change b', 'b.js', PASS)));
    await startPlanning(wb, 'Change b.js');
    const mark = await atGate();
    model.push(
      sse.toolTurn([{ name: 'edit_file', args: { path: 'b.js', old_text: "'before'", new_text: "'after'" } }]),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('b.js says after.'),
    );
    await approve();
    await panel.openTracker(90_000);
    await panel.waitFor('.pw-tracker-counts', { text: '100%', timeoutMs: 90_000 });
    assert.equal(readFileSync(ws.file('b.js'), 'utf8'), "exports.b = 'after';\n", 'saved: it had no unsaved changes');
    assert.doesNotMatch(toolResults(model.since(mark)[1]).join('\n'), /left unsaved/);
    await openFile(wb, 'b.js');
    await waitForEditorText(wb, "'after'");
    await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await wb.page.keyboard.press('Control+Z');
    await waitForEditorText(wb, "'before'");
    model.assertDrained();
  });
});
