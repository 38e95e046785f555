// Plan review in a real VS Code (code-server) on the installed VSIX: comments added through the
// real comment widget on step 2 and the summary, Request changes, the scripted planner answers
// both and returns revision 2; the threads show the replies on revision 2's lines, the one on the
// changed step marked outdated; one is resolved and the next request carries only the other.
// Then the window reloads: the threads come back from the sidecar on the plan file (replies,
// resolved and outdated states), the gate counts the open one, and approving from the palette asks
// "Approve with 1 unresolved comment?" once.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { ModelScript, messageText } from './support/modelScript';
import {
  Panel,
  commentOnLine as addComment,
  clickCodeLens,
  openFile,
  planwiseSettings,
  reloadWindow,
  setApiKey,
  startPlanning,
  waitForCodeLens,
  widenSidebar,
} from './support/ui';
import { endScenario, screenshotOnFailure } from './support/artifacts';

function plan(step2: string): string {
  return `# Greeting review

## Summary

Make the greeting friendlier for every caller.

## Implementation Steps

1. Change the greeting text -> files: [greet.js] -> verify: [node check.js]
2. ${step2} -> files: [README.md] -> verify: [node check.js]

## Test Cases and Validation

- tests: \`node check.js\`

## Assumptions and Defaults

- English only
`;
}

const reply = (id: string, text: string) =>
  sse.toolTurn([{ name: 'reply_to_review_comment', args: { id, reply: text, status: 'addressed' } }]);

describe('e2e: reviewing a plan with comment threads (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;
  /** The plan file, workspace-relative, once the first scenario made it. */
  let planRel: string | undefined;

  before(async function () {
    const vsix = buildPlanwiseVsix();
    ws = makeWorkspace('planwise-e2e-review-');
    model = await ModelScript.start();
    server = await startCodeServer({ workspace: ws.root, vsix: vsix.file, settings: planwiseSettings(model.baseURL) });
    wb = await openWorkbench(server);
    panel = new Panel(wb);
    await setApiKey(wb, 'sk-e2e-not-a-real-key-000000');
    await wb.runCommand('Notifications: Clear All Notifications');
    await panel.open();
    await widenSidebar(wb, 420);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('planwise-review', { server, wb, model, ws });
  });

  const commentOnLine = (line: number, text: string) => addComment(wb!, line, text);

  it('comments reach the planner, get answers, follow revision 2, and a resolved one is not sent again', async function () {
    assert.ok(wb);
    model.push(planTurn(plan('Document the greeting by hand')));
    await startPlanning(wb, 'Make the greeting friendlier');
    await panel.waitFor('.pw-gate', { text: 'Greeting review' });
    const plans = readdirSync(ws.file('.vtcode/plans')).filter((f) => /^[^.].*(?<!\.tasks|\.report)\.md$/.test(f));
    assert.equal(plans.length, 1, `plans: ${plans.join(', ')}`);
    const planPath = path.join(ws.file('.vtcode/plans'), plans[0]!);
    const rel = path.relative(ws.root, planPath);
    planRel = rel;
    await openFile(wb, rel);
    const lines = readFileSync(planPath, 'utf8').split('\n');
    const lineOf = (start: string) => lines.findIndex((l) => l.startsWith(start)) + 1;

    await commentOnLine(lineOf('2. Document'), 'Generate the docs from greet.js instead.');
    await commentOnLine(lineOf('Make the greeting'), 'Say who the callers are.');
    await wb.screenshot('review-01-comments');

    // Request changes from the plan's CodeLens row; the note box is left empty.
    const mark = model.mark();
    model.push(
      reply('c1', 'Step 2 now generates the docs from greet.js.'),
      reply('c2', 'The callers are the CLI and the web form.'),
      planTurn(plan('Generate the docs from greet.js')),
    );
    await clickCodeLens(wb, /Request changes \(2 comments\)/);
    await wb.page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible' });
    await wb.page.keyboard.press('Enter');
    await model.waitForRequests(mark + 3);
    const request = messageText(model.requests[mark]!.body.messages.at(-1));
    assert.match(request, /<review_thread id="c1" element="step 2">/);
    assert.match(request, /<review_thread id="c2" element="the summary">/);

    // Both threads show the planner's answers; the one on step 2 is outdated (the step changed).
    await wb.runCommand('Comments: Expand All Comments');
    const outdated = wb.page.locator('.review-widget', { hasText: 'Step 2 now generates the docs' }).first();
    await outdated.waitFor({ state: 'visible', timeout: 60_000 });
    await wb.page
      .locator('.review-widget', { hasText: 'The callers are the CLI and the web form.' })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    // The thread's title marks it outdated and its first comment quotes the text it was written on.
    await wb.page.getByText('c1 · step 2 · outdated since revision 2').first().waitFor({ state: 'visible' });
    await wb.page.getByText('Written on revision 1, where it read:').first().waitFor({ state: 'visible' });
    // The pointer away from the editor, so no hover (the file's path) covers the shot.
    await wb.page.mouse.move(24, 650);
    await wb.page.waitForTimeout(500);
    await wb.screenshot('review-02-answered');

    // Resolve the summary thread; the next request carries only the step-2 thread.
    await wb.runCommand('Comments: Expand All Comments');
    const summary = wb.page.locator('.review-widget', { hasText: 'The callers are the CLI' }).first();
    await summary.getByRole('button', { name: 'Resolve' }).first().click();
    await wb.page.getByText('c2 · the summary').first().waitFor({ state: 'visible' });
    const mark2 = model.mark();
    model.push(reply('c1', 'Still generated.'), planTurn(plan('Generate the docs from greet.js with jsdoc')));
    await clickCodeLens(wb, /Request changes \(1 comment\)/);
    await wb.page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible' });
    await wb.page.keyboard.press('Enter');
    await model.waitForRequests(mark2 + 2);
    const second = messageText(model.requests[mark2]!.body.messages.at(-1));
    assert.match(second, /<review_thread id="c1"/);
    assert.doesNotMatch(second, /id="c2"/);
    await wb.screenshot('review-03-resolved');
  });

  it('after a window reload the threads are back with their replies and states, and the gate counts the open one', async function () {
    assert.ok(wb);
    assert.ok(planRel, 'the first scenario made the plan and its threads');
    await panel.waitFor('.pw-gate-revision', { text: 'revision 3' });
    const requests = model.mark();

    await reloadWindow(wb);
    // The session comes back by itself with its gate; the engine's card counts the one open thread.
    await panel.waitFor('.pw-gate-revision', { text: 'revision 3', timeoutMs: 90_000 });
    await panel.waitFor('.pw-gate-comments', { text: /\b1 open comment(?!s)/ });
    await openFile(wb, planRel);
    await waitForCodeLens(wb, /Request changes \(1 comment\)/, 60_000);
    await wb.runCommand('Comments: Expand All Comments');

    // c1: open, outdated since revision 2 (its step changed there and again in 3), with the person's comment and both answers.
    const c1 = wb.page.locator('.review-widget', { hasText: 'Still generated.' }).first();
    await c1.waitFor({ state: 'visible', timeout: 60_000 });
    const c1Text = await c1.innerText();
    assert.match(c1Text, /c1 · step 2 · outdated since revision 2/);
    assert.match(c1Text, /Generate the docs from greet\.js instead\./);
    assert.match(c1Text, /Step 2 now generates the docs from greet\.js\./);
    assert.match(c1Text, /Written on revision 1, where it read:/);
    await c1.getByRole('button', { name: 'Resolve' }).first().waitFor({ state: 'visible' });
    // c2: resolved, with its answer; it offers Reopen, not Resolve.
    const c2 = wb.page.locator('.review-widget', { hasText: 'The callers are the CLI and the web form.' }).first();
    await c2.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await c2.innerText(), /c2 · the summary/);
    await c2.getByRole('button', { name: 'Reopen' }).first().waitFor({ state: 'visible' });
    assert.equal(await c2.getByRole('button', { name: 'Resolve' }).count(), 0, 'c2 is still resolved');
    await wb.screenshot('review-04-after-reload');

    // Approving from the palette asks once; Escape (Back) leaves the gate open and sends nothing.
    await wb.runCommand('Planwise: Approve Plan');
    const dialog = wb.page.locator('.monaco-dialog-box', { hasText: 'Approve with 1 unresolved comment?' });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    await panel.waitFor('.pw-gate-revision', { text: 'revision 3' });
    assert.equal(model.mark(), requests, 'nothing was sent to the model');
  });
});
