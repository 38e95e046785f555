// A review thread follows its element into the next revision, in a real VS Code (code-server) on
// the installed VSIX: threads on step 1 and step 2, Request changes, and the scripted planner
// answers with revision 2, whose longer summary moves every step down and whose step 2 is
// reworded. The thread on step 1 is then on step 1's line of revision 2 in the editor (its gutter
// mark) and in the Comments panel ("[Ln N]"), not outdated; the one on step 2 is outdated since
// revision 2; each thread's row in the Comments panel previews its own comment; and
// `planwise review` (the CLI, another process) names the same line. Revision 3 rewords the
// summary and step 2 around an unchanged step 1: the thread stays on step 1's line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { ModelScript } from './support/modelScript';
import {
  Panel,
  clickCodeLens,
  commentOnLine,
  openFile,
  planwiseSettings,
  setApiKey,
  startPlanning,
  waitForEditorText,
  widenSidebar,
} from './support/ui';
import { endScenario, screenshotOnFailure } from './support/artifacts';

const CLI = path.resolve(__dirname, '../../dist/cli.cjs');

function plan(summary: string, step2: string): string {
  return `# Greeting threads

## Summary

${summary}

## Implementation Steps

1. Change the greeting text -> files: [greet.js] -> verify: [node check.js]
2. ${step2} -> files: [README.md] -> verify: [node check.js]

## Test Cases and Validation

- tests: \`node check.js\`

## Assumptions and Defaults

- English only
`;
}

const REV1 = plan('Make the greeting friendlier.', 'Document the greeting by hand');
const REV2 = plan(
  'Make the greeting friendlier.\n\nCallers are the CLI and the web form.\n\nNothing else changes.',
  'Generate the greeting docs from greet.js',
);

const REV3 = plan(
  'Make the greeting friendlier.\n\nCallers are the web form and the CLI.\n\nNothing else changes at all.',
  'Generate the greeting docs from greet.js with jsdoc',
);

const reply = (id: string, text: string) =>
  sse.toolTurn([{ name: 'reply_to_review_comment', args: { id, reply: text, status: 'addressed' } }]);

/** The 1-based line of `text` whose trimmed start is `start`. */
function lineOf(text: string, start: string): number {
  const i = text.split('\n').findIndex((l) => l.startsWith(start));
  assert.ok(i >= 0, `no line starts with ${start}`);
  return i + 1;
}

describe('e2e: a review thread follows its step into the next revision (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;

  before(async function () {
    const vsix = buildPlanwiseVsix();
    ws = makeWorkspace('planwise-e2e-threads-');
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
    await endScenario('planwise-review-follows', { server, wb, model, ws });
  });

  /**
   * Request changes (2 comments) from the plan's CodeLens, confirmed with Enter: the planner answers
   * c1 and c2 with `replies` and writes `plan`, which reaches the gate card as revision `revision`.
   */
  async function requestChanges(replies: readonly [string, string], plan: string, revision: number): Promise<void> {
    const mark = model.mark();
    model.push(reply('c1', replies[0]), reply('c2', replies[1]), planTurn(plan));
    await clickCodeLens(wb!, /Request changes \(2 comments\)/);
    await wb!.page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible' });
    await wb!.page.keyboard.press('Enter');
    await model.waitForRequests(mark + 3);
    await panel.waitFor('.pw-gate-revision', { text: `revision ${revision}`, timeoutMs: 60_000 });
  }

  /** The lines (1-based) of the editor's comment-thread gutter marks, top to bottom. */
  async function gutterThreadLines(): Promise<number[]> {
    const rows = wb!.page.locator('.editor-group-container.active .monaco-editor .margin-view-overlays > div');
    const lines = await rows.evaluateAll((els) =>
      els
        .filter((e) =>
          e.querySelector('.comment-range-glyph.comment-thread, .comment-range-glyph.comment-thread-unresolved'),
        )
        .map((e) => Number((e.querySelector('.line-numbers') as HTMLElement | null)?.innerText.trim()))
        .filter((n) => Number.isFinite(n) && n > 0),
    );
    return [...new Set(lines)].sort((a, b) => a - b);
  }

  /** The Comments panel's thread rows as text. */
  async function commentsPanelRows(): Promise<string[]> {
    const rows = wb!.page.locator('.comments-panel .monaco-list-row');
    return (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /**
   * Waits until the editor shows `text` of the new revision. VS Code reloads the file when its
   * watcher sees the write; a loaded machine has let that pass unseen for minutes, and then the
   * person's way to get it is File: Revert File, which reloads it the same way.
   */
  async function waitForReload(text: string): Promise<void> {
    const shown = await waitForEditorText(wb!, text, 20_000).then(
      () => true,
      () => false,
    );
    if (shown) return;
    await wb!.runCommand('File: Revert File');
    await waitForEditorText(wb!, text, 60_000);
  }

  async function waitFor<T>(
    what: string,
    read: () => Promise<T>,
    ok: (v: T) => boolean,
    timeoutMs = 30_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let seen = await read();
    while (!ok(seen) && Date.now() < deadline) {
      await wb!.page.waitForTimeout(250);
      seen = await read();
    }
    assert.ok(ok(seen), `${what}: ${JSON.stringify(seen)}`);
    return seen;
  }

  it('keeps the thread on step 1 on step 1’s line in revisions 2 and 3, in the editor and the Comments panel', async function () {
    assert.ok(wb);
    model.push(planTurn(REV1));
    await startPlanning(wb, 'Make the greeting friendlier');
    await panel.waitFor('.pw-gate', { text: 'Greeting threads' });
    const plans = readdirSync(ws.file('.vtcode/plans')).filter((f) => /^[^.].*(?<!\.tasks|\.report)\.md$/.test(f));
    assert.equal(plans.length, 1, `plans: ${plans.join(', ')}`);
    const planPath = path.join(ws.file('.vtcode/plans'), plans[0]!);
    const rel = path.relative(ws.root, planPath);
    await openFile(wb, rel);
    const step1Before = lineOf(readFileSync(planPath, 'utf8'), '1. Change');
    await commentOnLine(wb, step1Before, 'Keep the greeting under ten words.');
    await commentOnLine(wb, lineOf(readFileSync(planPath, 'utf8'), '2. Document'), 'Generate the docs instead.');

    // Back to the top of the file, where the plan's CodeLens row is.
    await wb.runCommand('Go to Line/Column...');
    await wb.page.keyboard.type('1');
    await wb.page.keyboard.press('Enter');
    await wb.page.keyboard.press('Control+Home');
    await requestChanges(['It stays short.', 'Step 2 now generates them.'], REV2, 2);
    await wb.runCommand('Comments: Expand All Comments');
    await wb.page
      .locator('.review-widget', { hasText: 'Step 2 now generates them.' })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });

    const text = readFileSync(planPath, 'utf8');
    const step1 = lineOf(text, '1. Change');
    const step2 = lineOf(text, '2. Generate');
    assert.ok(step1 > step1Before, `revision 2 moved step 1 down (${step1Before} → ${step1})`);

    // The editor: once it shows revision 2, the gutter marks sit on step 1's and step 2's lines of
    // revision 2.
    await wb.runCommand('Comments: Collapse All Comments');
    await waitForReload('2. Generate the greeting docs');
    const gutter = await waitFor(
      'the gutter marks of the threads',
      gutterThreadLines,
      (l) => l.length === 2 && l[0] === step1,
    );
    assert.deepEqual(gutter, [step1, step2]);
    // The thread widgets: c1 not outdated, c2 outdated since revision 2.
    await wb.runCommand('Comments: Expand All Comments');
    const c1 = wb.page.locator('.review-widget', { hasText: 'It stays short.' }).first();
    await c1.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await c1.innerText(), /c1 · step 1(?! · outdated)/);
    await wb.page.getByText('c2 · step 2 · outdated since revision 2').first().waitFor({ state: 'visible' });
    await wb.page.mouse.move(24, 650);
    await wb.screenshot('review-follows-01-editor');

    // The Comments panel: each thread at its line of revision 2, previewing its own comment.
    await wb.runCommand('Comments: Focus on Comments View');
    const rows = await waitFor('the Comments panel rows', commentsPanelRows, (r) =>
      r.some((t) => t.includes('Keep the greeting under ten words.') && t.includes(`[Ln ${step1}]`)),
    );
    const row1 = rows.find((t) => t.includes('Keep the greeting under ten words.'));
    const row2 = rows.find((t) => t.includes('Generate the docs instead.'));
    assert.ok(row1 && row2, `rows: ${JSON.stringify(rows)}`);
    assert.match(row1, new RegExp(`\\[Ln ${step1}\\]`));
    assert.match(row2, new RegExp(`\\[Ln ${step2}\\]`));
    await wb.screenshot('review-follows-02-comments-panel');

    // The CLI reads the same plan files and names the same line.
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'review', '--workspace', ws.root, plans[0]!]);
    assert.match(stdout, new RegExp(`c1 {2}step 1, line ${step1} {2}\\[open\\]`));
    assert.match(stdout, new RegExp(`c2 {2}step 2, line ${step2} {2}\\[open, outdated\\]`));

    // Revision 3 rewords the summary (as many lines) and step 2 again: step 1 keeps its line, and
    // VS Code's reload of the file replaces the lines around it. The thread stays on step 1.
    await wb.runCommand('Go to Line/Column...');
    await wb.page.keyboard.type('1');
    await wb.page.keyboard.press('Enter');
    await requestChanges(['Still short.', 'Now with jsdoc.'], REV3, 3);
    const text3 = readFileSync(planPath, 'utf8');
    assert.equal(lineOf(text3, '1. Change'), step1, 'revision 3 keeps step 1 where it was');
    await wb.runCommand('Comments: Collapse All Comments');
    await waitForReload('with jsdoc');
    const gutter3 = await waitFor(
      'the gutter marks of the threads in revision 3',
      gutterThreadLines,
      (l) => l.length === 2 && l[0] === step1,
    );
    assert.deepEqual(gutter3, [step1, lineOf(text3, '2. Generate')]);
    await wb.runCommand('Comments: Focus on Comments View');
    const rows3 = await waitFor('the Comments panel rows in revision 3', commentsPanelRows, (r) =>
      r.some((t) => t.includes('Keep the greeting under ten words.') && t.includes(`[Ln ${step1}]`)),
    );
    assert.ok(rows3.some((t) => t.includes('Generate the docs instead.') && t.includes(`[Ln ${step2}]`)));
    await wb.screenshot('review-follows-03-revision-3');
  });
});
