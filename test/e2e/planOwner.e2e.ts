// One plan, one owner, in a real VS Code (code-server) on the installed VSIX, against the scripted
// model: after a revision at the gate, a person's Mark checked, Revert to step 1 and Revert Build,
// the panel's tracker, the status bar, the build card, the plan file's CodeLens and `planwise
// plans` (the CLI, another process reading the same files) all show the same new state, within a
// second of each other.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { ModelScript } from './support/modelScript';
import {
  Panel,
  activeTab,
  clickCodeLens,
  codeLensTitles,
  planwiseSettings,
  setApiKey,
  startPlanning,
} from './support/ui';
import { endScenario, screenshotOnFailure } from './support/artifacts';

const PASS = 'node -e "process.exit(0)"';
const CHECK = 'confirm the two module shows 20 when called';
const CLI = resolve(__dirname, '../../dist/cli.cjs');

/** Revision 1: one step. The person asks for the second; revision 2 is PLAN. */
const PLAN_R1 = `# One and two

## Summary

Make one() return 10.

## Implementation Steps

1. Make one() return 10 -> files: [src/one.js] -> verify: [${PASS}]

## Test Cases and Validation

- tests: \`${PASS}\`

## Assumptions and Defaults

- none
`;

const PLAN = `# One and two

## Summary

Make one() return 10, then two() return 20.

## Implementation Steps

1. Make one() return 10 -> files: [src/one.js] -> verify: [${PASS}]
2. Make two() return 20 -> files: [src/two.js] -> verify: [${PASS}, ${CHECK}]

## Test Cases and Validation

- tests: \`${PASS}\`

## Assumptions and Defaults

- none
`;

/** What one surface shows now, and whether it shows the state expected. */
interface Surface {
  readonly name: string;
  read(): Promise<string>;
  readonly expect: RegExp;
}

describe('e2e: every surface follows the plan (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;
  let planFile = '';

  before(async function () {
    const vsix = buildPlanwiseVsix();
    ws = makeWorkspace('planwise-e2e-owner-');
    mkdirSync(ws.file('src'), { recursive: true });
    writeFileSync(ws.file('src/one.js'), 'exports.one = () => 1;\n');
    writeFileSync(ws.file('src/two.js'), 'exports.two = () => 2;\n');
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: vsix.file,
      settings: planwiseSettings(model.baseURL, {
        'planwise.build.scope': 'record',
        'planwise.buildCommandAllowList': ['node -e *'],
        'files.autoSave': 'off',
      }),
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
    await endScenario('plan-owner', { server, wb, model, ws });
  });

  /** `planwise plans --json` on the workspace, as another process sees the files. */
  type CliPlan = { file: string; steps: number; revisions: number; progress: { percent: number } | null };
  async function cliPlans(): Promise<CliPlan[]> {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'plans', '--json', '--workspace', ws.root]);
    return JSON.parse(stdout) as CliPlan[];
  }

  async function cliPercent(): Promise<string> {
    return `${(await cliPlans())[0]?.progress?.percent ?? 'none'}%`;
  }

  function surfaces(percent: number, status: RegExp, lens: RegExp, stepsDone: number): Surface[] {
    return [
      {
        name: 'panel tracker',
        read: async () => (await (await panel.locator('.pw-tracker-line-percent')).first().innerText()).trim(),
        expect: new RegExp(`^${percent}%$`),
      },
      { name: 'status bar', read: () => wb!.statusBarText(), expect: status },
      {
        name: 'build card',
        read: async () =>
          (await (await panel.locator('[data-testid="build-report"] .pw-report-facts')).last().innerText()).trim(),
        expect: new RegExp(`Steps\\s+${stepsDone} of 2 done`),
      },
      { name: 'CodeLens', read: async () => (await codeLensTitles(wb!)).join(' | '), expect: lens },
      { name: 'planwise plans', read: () => cliPercent(), expect: new RegExp(`^${percent}%$`) },
    ];
  }

  /**
   * Polls every surface until each shows what is expected; returns when each first did, in ms
   * after `since`. Fails with what each showed when one never does.
   */
  async function follow(list: readonly Surface[], since: number): Promise<Record<string, number>> {
    const at: Record<string, number> = {};
    const last: Record<string, string> = {};
    const deadline = Date.now() + 30_000;
    // Each surface is polled on its own, so a slow reader (the CLI process) delays no other.
    await Promise.all(
      list.map(async (s) => {
        while (Date.now() < deadline) {
          last[s.name] = await s.read().catch((e: unknown) => `(unreadable: ${String(e)})`);
          if (s.expect.test(last[s.name]!)) {
            at[s.name] = Date.now() - since;
            return;
          }
          await new Promise((r) => setTimeout(r, 25));
        }
      }),
    );
    const missing = list.filter((s) => at[s.name] === undefined);
    assert.equal(missing.length, 0, missing.map((s) => `${s.name} shows ${JSON.stringify(last[s.name])}`).join('; '));
    return at;
  }

  function spread(at: Record<string, number>): number {
    return Math.max(...Object.values(at)) - Math.min(...Object.values(at));
  }

  it('a revision at the gate: tracker, status bar, lens and CLI all show revision 2 and its two steps', async function () {
    assert.ok(wb);
    model.push(planTurn(PLAN_R1));
    await startPlanning(wb, 'Change one and two');
    await panel.waitFor('.pw-gate', { text: 'Ready to code?' });
    const frame = await panel.frame();
    await frame.getByRole('button', { name: 'No, stay in Plan mode', exact: true }).click();
    await frame.getByLabel('What should change?').fill('Also make two() return 20, as its own step.');
    const mark = model.mark();
    model.push(planTurn(PLAN));
    await wb.page.keyboard.press('Enter');
    await model.waitForRequests(mark + 1);
    const sent = Date.now();
    // The plan is opened once revision 2 is on the gate card, as a person would from its "Open plan".
    // (An editor left open on revision 1 is reloaded by VS Code's file watcher, on its own schedule.)
    void panel
      .waitFor('.pw-gate-revision', { text: 'revision 2', timeoutMs: 30_000 })
      .then(async () => {
        await wb!.runCommand('Planwise: Open Current Plan');
        await activeTab(wb!, /\.md$/);
      })
      .catch(() => undefined);
    const at = await follow(
      [
        {
          name: 'panel tracker',
          read: async () => (await (await panel.locator('.pw-tracker-line-counts')).first().innerText()).trim(),
          expect: /^0\/2$/,
        },
        { name: 'status bar', read: () => wb!.statusBarText(), expect: /Planwise: 0 of 2 steps done/ },
        {
          name: 'CodeLens',
          read: async () => (await codeLensTitles(wb!)).join(' | '),
          expect: /Compare with previous revision.*Check after the build: confirm the two module/,
        },
        {
          name: 'planwise plans',
          read: async () => {
            const p = (await cliPlans())[0];
            return p ? `${p.steps} steps, revision ${p.revisions}` : 'none';
          },
          expect: /^2 steps, revision 2$/,
        },
      ],
      sent,
    );
    console.log(`      after the revision (ms from the request): ${JSON.stringify(at)}; spread ${spread(at)} ms`);
    const { CodeLens: lens, ...own } = at;
    assert.ok(spread(own) <= 1000, `the surfaces followed ${spread(own)} ms apart`);
    assert.ok(lens! - Math.max(...Object.values(own)) <= 5000, `the CodeLens followed ${lens} ms after the others`);
    await panel.waitFor('.pw-gate-revision', { text: 'revision 2' });
  });

  it('after the build, Mark checked on the lens: tracker, status bar, card, lens and CLI all say 2 of 2', async function () {
    assert.ok(wb);
    await panel.waitFor('.pw-gate', { text: 'Ready to code?' });
    const update = (index: number, status: string) =>
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index, status } }]);
    model.push(
      update(1, 'in_progress'),
      sse.toolTurn([{ name: 'edit_file', args: { path: 'src/one.js', old_text: '() => 1', new_text: '() => 10' } }]),
      update(1, 'completed'),
      update(2, 'in_progress'),
      sse.toolTurn([{ name: 'edit_file', args: { path: 'src/two.js', old_text: '() => 2', new_text: '() => 20' } }]),
      update(2, 'completed'),
      sse.textTurn('one() returns 10 and two() returns 20; the check on two() is yours.'),
    );
    await (await panel.frame()).getByRole('button', { name: /Yes, implement this plan/ }).click();
    await panel.waitFor('[data-testid="build-report"]', { timeoutMs: 120_000 });
    await wb.runCommand('Planwise: Open Current Plan');
    await activeTab(wb, /\.md$/);
    planFile = (await cliPlans())[0]!.file;
    // Step 2 waits for the person's check: every surface says one of two.
    await follow(surfaces(50, /Planwise: step 2 of 2/, new RegExp(`Mark checked: ${CHECK}`), 1), Date.now());

    const clicked = Date.now();
    await clickCodeLens(wb, new RegExp(`Mark checked: ${CHECK}`));
    const at = await follow(
      surfaces(100, /Planwise: 2 of 2 steps done/, new RegExp(`${CHECK}\\s+✓ checked`), 2),
      clicked,
    );
    console.log(`      after Mark checked (ms from the click): ${JSON.stringify(at)}; spread ${spread(at)} ms`);
    // Every surface follows within a second of the others, the CodeLens included: VS Code draws it
    // when it asks for it again, after its own wait, from the same ParsedPlan the others read.
    assert.ok(spread(at) <= 1000, `the surfaces followed ${spread(at)} ms apart`);
    const card = await (await panel.locator('[data-testid="build-report"] .pw-report-facts')).last().innerText();
    assert.match(card, /Steps\s+2 of 2 done/);
    assert.equal(await (await panel.locator('[data-testid="build-report"]')).count(), 1, 'the card is replaced');
    assert.doesNotMatch(readFileSync(planFile.replace(/\.md$/, '.report.md'), 'utf8'), /awaiting the person's check/);
    await wb.screenshot('e2e-owner-01-checked');
  });

  /**
   * Clicks a Revert button of the build card and answers "Revert"; then every surface but the
   * CodeLens must follow within a second of each other, and the CodeLens once the plan is open
   * again (the revert shows its diff in the editor).
   */
  async function revertFromCard(button: string, dialogText: RegExp, label: string, all: Surface[]): Promise<void> {
    const card = await panel.waitFor('[data-testid="build-report"]');
    await card.getByTestId(button).click();
    const dialog = wb!.page.locator('.monaco-dialog-box').filter({ hasText: dialogText });
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Revert', exact: true }).click();
    const answered = Date.now();
    const at = await follow(
      all.filter((s) => s.name !== 'CodeLens'),
      answered,
    );
    console.log(`      after ${label} (ms from the answer): ${JSON.stringify(at)}; spread ${spread(at)} ms`);
    assert.ok(spread(at) <= 1000, `the surfaces followed ${spread(at)} ms apart`);
    await wb!.runCommand('Planwise: Open Current Plan');
    await activeTab(wb!, /\.md$/);
    await follow(
      all.filter((s) => s.name === 'CodeLens'),
      Date.now(),
    );
  }

  it('Revert to step 1 from the card: step 2 is pending again on every surface, its results forgotten', async function () {
    assert.ok(wb);
    await revertFromCard(
      'report-revert-step-1',
      /Revert .*to step 1/,
      'Revert to step 1',
      surfaces(50, /Planwise: 1 of 2 steps done/, new RegExp(`Check after the build: ${CHECK}`), 1),
    );
    assert.equal(readFileSync(ws.file('src/two.js'), 'utf8'), 'exports.two = () => 2;\n');
    const journal = planFile.replace(/\.md$/, '.verify.json');
    if (existsSync(journal)) {
      const steps = (JSON.parse(readFileSync(journal, 'utf8')) as { results: { step: string }[] }).results.map(
        (r) => r.step,
      );
      assert.ok(!steps.includes('2'), `step 2's results are forgotten: ${steps.join(', ')}`);
    }
    await wb.screenshot('e2e-owner-02-reverted');
  });

  it('Revert Build from the card: no step is done on any surface', async function () {
    assert.ok(wb);
    await revertFromCard(
      'report-revert',
      /Revert /,
      'Revert Build',
      surfaces(0, /Planwise: 0 of 2 steps done/, new RegExp(`Check after the build: ${CHECK}`), 0),
    );
    assert.equal(readFileSync(ws.file('src/one.js'), 'utf8'), 'exports.one = () => 1;\n');
    await wb.screenshot('e2e-owner-03-build-reverted');
    model.assertDrained();
  });
});
