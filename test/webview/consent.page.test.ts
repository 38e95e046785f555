/**
 * Consent at the gate, in real Chromium with the built panel at a 300 × 800 side bar: a person
 * typing in the text box while a plan, its gate and then a revision arrive keeps the focus and
 * every character, and nothing is approved; no printable key approves, nor Enter or Space on a
 * choice the panel (not the person) focused; a deliberate click or Tab-then-Enter does. The Build
 * toggle at an open gate asks first and keeps the plan by default. The layout holds a 12-step plan:
 * the document never scrolls, the plan shows once, the text box, the three choices and a third of
 * the panel of transcript are on screen together, and the confirmations open in view.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { emptyViewState, type Gate, type PlanItem, type TranscriptItem, type ViewState } from '../../src/protocol';
import { launchChromium } from './browser';
import { startPageServer, type PageServer } from './pageServer';

const repo = resolve(__dirname, '../..');
const artifacts = join(repo, 'test-artifacts', 'webview');
const VIEWPORT = { width: 300, height: 800 };
const TITLE = 'Twelve careful steps';

function planItem(revision: number): PlanItem {
  const steps = Array.from({ length: 12 }, (_, i) => ({
    index: i + 1,
    title: `Change module ${i + 1} and its tests (revision ${revision})`,
    files: [`src/module${i + 1}.ts`],
    verify: [{ kind: 'command' as const, text: 'npm test', command: 'npm test' }],
  }));
  return {
    id: `plan-${revision}`,
    kind: 'plan',
    markdown: `# ${TITLE}\n\n## Steps\n${steps.map((s) => `${s.index}. ${s.title}`).join('\n')}`,
    file: '.vtcode/plans/twelve.md',
    revision,
    valid: true,
    streaming: false,
    view: { title: TITLE, summary: 'Twelve steps, each with its tests.', steps },
  };
}

function gateOf(revision: number, extra: Partial<Gate> = {}): Gate {
  return {
    requestId: `approve-${revision}`,
    title: TITLE,
    summary: 'Twelve steps, each with its tests.',
    steps: ['Change module 1'],
    moreSteps: 11,
    validation: { valid: true, problems: [] },
    contextPercent: 12,
    proposedDuringExecution: false,
    revision,
    ...(revision > 1 ? { changes: '12 steps changed' } : {}),
    hasPreviousRevision: revision > 1,
    planFile: '.vtcode/plans/twelve.md',
    ...extra,
  };
}

const talk: TranscriptItem[] = [
  { id: 'u1', kind: 'user', text: 'Split the twelve modules carefully' },
  { id: 'a1', kind: 'assistant', text: 'I read the modules; here is a plan.', streaming: false },
];

const base: ViewState = {
  ...emptyViewState(),
  lifecycle: { state: 'planning', mode: 'plan', busy: true },
  flags: { hasApiKey: true, trusted: true },
  transcript: talk,
};

const atGate = (revision: number, extra: Partial<Gate> = {}): ViewState => ({
  ...base,
  lifecycle: { state: 'awaiting_approval', mode: 'plan', busy: false },
  transcript: [...talk, ...Array.from({ length: revision }, (_, i) => planItem(i + 1))],
  gate: gateOf(revision, extra),
});

type HarnessWindow = {
  __harness: { posted: { type: string; decision?: string; mode?: string }[]; deliver(m: unknown[]): void };
};

describe('consent at the gate, in Chromium at 300 × 800', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: PageServer;
  let page: Page;
  let seq = 0;

  before(async function () {
    this.timeout(180_000);
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repo, stdio: 'pipe' });
    mkdirSync(artifacts, { recursive: true });
    server = await startPageServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const settle = () =>
    page.evaluate(
      () => new Promise<void>((ok) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(ok, 30)))),
    );
  const show = async (state: ViewState) => {
    await page.evaluate(
      (m) => (window as never as HarnessWindow).__harness.deliver(m),
      [{ type: 'snapshot', seq: ++seq, state }],
    );
    await settle();
  };
  const posted = (type: string) =>
    page.evaluate((t) => (window as never as HarnessWindow).__harness.posted.filter((m) => m.type === t), type);
  const composer = () => page.getByLabel('Message Planwise');
  const inView = (selector: string) =>
    page.locator(selector).evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    });
  const documentScroll = () =>
    page.evaluate(() => {
      const d = document.scrollingElement!;
      return { top: d.scrollTop, fits: d.scrollHeight <= d.clientHeight };
    });

  beforeEach(async () => {
    seq = 0;
    page = await browser.newPage({ viewport: VIEWPORT });
    await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
    await page.goto(`${server.origin}/?theme=dark`);
    await page.waitForFunction(() =>
      (window as never as HarnessWindow).__harness.posted.some((m) => m.type === 'ready'),
    );
    await show(base);
  });
  afterEach(async () => page?.close());

  it('typing through the plan, the gate and a revision: the focus stays, every character is kept, nothing is approved', async () => {
    await composer().click();
    await page.keyboard.type('first words, ');
    await show(atGate(1));
    await page.keyboard.type('then more words with spaces   ');
    await show(atGate(2));
    await page.keyboard.type(' and y es ');
    const typed = 'first words, then more words with spaces    and y es ';
    assert.equal(await composer().inputValue(), typed, 'every character is kept');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message Planwise');
    assert.deepEqual(await posted('approvalResponse'), []);
    assert.deepEqual(await posted('submit'), []);
    // The arrival was announced, with the key that reaches the choices.
    assert.match(
      await page.getByTestId('announcer').innerText(),
      /Plan ready: Twelve careful steps\. .*Ctrl\+Alt\+Shift\+G/,
    );

    // Deliberate: by mouse.
    await page.getByRole('button', { name: 'Yes, implement this plan', exact: true }).click();
    assert.deepEqual(await posted('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'approve-2', decision: 'execute' },
    ]);
    assert.equal(await composer().inputValue(), typed, 'the draft is still whole after the approval');
  });

  it('no printable key approves, nor Enter or Space on a choice the panel focused; Tab then Enter does', async () => {
    await show(atGate(1));
    // Every printable key, typed on the gate bar reached with Ctrl+Alt+Shift+G.
    await composer().click();
    await page.keyboard.press('Control+Alt+Shift+G');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'gate');
    for (let c = 0x20; c < 0x7f; c++) await page.keyboard.type(String.fromCharCode(c));
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted('approvalResponse'), []);
    // A choice focused by code (not by the person) ignores Enter and Space.
    await page.getByRole('button', { name: 'Yes, implement this plan', exact: true }).evaluate((b) => b.focus());
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted('approvalResponse'), []);
    assert.equal(await inView('.pw-gate .pw-hint[role="status"]'), true, 'the panel says how to choose');
    // The person's own Tab to a choice, then Enter: approved.
    await page.keyboard.press('Control+Alt+Shift+G');
    let presses = 0;
    while ((await page.evaluate(() => document.activeElement?.textContent ?? '')).indexOf('Yes, implement') !== 0) {
      await page.keyboard.press('Tab');
      if (++presses > 6) assert.fail('six Tab presses did not reach "Yes, implement this plan"');
    }
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'approve-1', decision: 'execute' },
    ]);
  });

  it('Space after Tab approves; a revision arriving while the focus sits on a choice needs a new move', async () => {
    await show(atGate(1));
    await page.keyboard.press('Control+Alt+Shift+G');
    await page.keyboard.press('Tab');
    while ((await page.evaluate(() => document.activeElement?.textContent ?? '')).indexOf('Yes, implement') !== 0) {
      await page.keyboard.press('Tab');
    }
    await show(atGate(2));
    await page.keyboard.press('Space');
    assert.deepEqual(await posted('approvalResponse'), [], 'a key on the old focus does not approve revision 2');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    assert.deepEqual(await posted('approvalResponse'), [
      { type: 'approvalResponse', requestId: 'approve-2', decision: 'execute' },
    ]);
  });

  it('the Build toggle at an open gate asks first, in view, keeping the plan by default', async () => {
    await show(atGate(1));
    await page.getByRole('button', { name: 'Build', exact: true }).click();
    const ask = page.getByRole('alertdialog', { name: 'Switch to Build and discard the plan?' });
    await ask.waitFor();
    assert.equal(await inView('[data-testid="mode-confirm"]'), true);
    await page.screenshot({ path: join(artifacts, 'consent-mode-confirm.png') });
    assert.deepEqual(await posted('setMode'), []);
    // The default (focused) choice keeps the plan.
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'mode-confirm-keep');
    await page.keyboard.press('Enter');
    await ask.waitFor({ state: 'detached' });
    assert.deepEqual(await posted('setMode'), []);
    assert.ok(await page.getByRole('region', { name: 'Ready to code?' }).isVisible(), 'the plan still waits');
    await page.getByRole('button', { name: 'Build', exact: true }).click();
    await page.getByTestId('mode-confirm-go').click();
    assert.deepEqual(await posted('setMode'), [{ type: 'setMode', mode: 'build' }]);
  });

  it('a 12-step plan at 300 × 800: the document never scrolls, the plan shows once, text box, choices and a third of transcript in view', async () => {
    await show(atGate(1));
    await page.screenshot({ path: join(artifacts, 'consent-12-steps-300x800.png') });
    // (No named helpers inside: the test's transpiler would wrap them in a helper the page lacks.)
    const m = await page.evaluate((title) => {
      const [log, box, ...choices] = [
        document.querySelector('[role="log"]')!,
        document.querySelector('.pw-composer textarea')!,
        ...document.querySelectorAll('.pw-choice'),
      ].map((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: r.height };
      });
      return {
        logs: document.querySelectorAll('[role="log"]').length,
        log: log!,
        box: box!,
        choices,
        stepLists: [...document.querySelectorAll('.pw-plan-steps')].filter((el) => el.getClientRects().length > 0)
          .length,
        titles: [...document.querySelectorAll('body *')].filter(
          (el) => el.getClientRects().length > 0 && el.children.length === 0 && (el.textContent ?? '').trim() === title,
        ).length,
        height: innerHeight,
      };
    }, TITLE);
    assert.deepEqual(await documentScroll(), { top: 0, fits: true }, 'the document never scrolls');
    assert.equal(m.logs, 1, 'one role="log" region');
    assert.ok(m.log.height >= m.height / 3, `the transcript is ${m.log.height} px of ${m.height}`);
    assert.ok(m.box.top >= 0 && m.box.bottom <= m.height, `the text box at ${m.box.top}..${m.box.bottom}`);
    assert.equal(m.choices.length, 3);
    for (const c of m.choices) assert.ok(c.top >= 0 && c.bottom <= m.box.top, `a choice at ${c.top}..${c.bottom}`);
    assert.equal(m.stepLists, 1, 'the steps are shown once');
    assert.ok(m.titles <= 2, `the title is shown ${m.titles} times (the plan card and the gate at most)`);

    // Scrolled up, "Jump to latest" takes a line of its own and covers no text.
    await page.locator('[role="log"]').evaluate((el) => (el.scrollTop = 0));
    await page.locator('[role="log"]').dispatchEvent('wheel', { deltaY: -100 });
    await page.getByRole('button', { name: 'Jump to latest' }).waitFor();
    const overlap = await page.evaluate(() => {
      const log = document.querySelector('[role="log"]')!.getBoundingClientRect();
      const jump = document.querySelector('.pw-jump')!.getBoundingClientRect();
      return jump.top < log.bottom && jump.bottom > log.top;
    });
    assert.equal(overlap, false, 'Jump to latest lies over the transcript');
    assert.deepEqual(await documentScroll(), { top: 0, fits: true });
  });

  it('high contrast, keyboard only: the bar and the choice the person tabbed to show their focus', async () => {
    await page.goto(`${server.origin}/?theme=hc`);
    await page.waitForFunction(() =>
      (window as never as HarnessWindow).__harness.posted.some((m) => m.type === 'ready'),
    );
    seq = 0;
    await show(atGate(1));
    await composer().click();
    await page.keyboard.press('Control+Alt+Shift+G');
    const outline = () =>
      page.evaluate(() => {
        const s = getComputedStyle(document.activeElement!);
        return { style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor };
      });
    const bar = await outline();
    assert.notEqual(bar.style, 'none', 'the gate bar shows its focus');
    await page.screenshot({ path: join(artifacts, 'consent-hc-gate-bar.png') });
    while ((await page.evaluate(() => document.activeElement?.textContent ?? '')).indexOf('Yes, implement') !== 0) {
      await page.keyboard.press('Tab');
    }
    const choice = await outline();
    assert.notEqual(choice.style, 'none', 'the choice shows its focus');
    assert.notEqual(choice.color, 'rgba(0, 0, 0, 0)');
    await page.screenshot({ path: join(artifacts, 'consent-hc-choice-focused.png') });
  });

  it('the unresolved-comments question and the feedback box’s Send open in view; Enter sends the feedback', async () => {
    const comments = [1, 2].map((n) => ({
      id: `c${n}`,
      label: `comment ${n}`,
      line: n + 3,
      outdated: false,
      answered: false,
    }));
    await show(atGate(1, { openComments: comments }));
    await page.getByRole('button', { name: 'Yes, implement this plan', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Approve with unresolved comments?' }).waitFor();
    await settle();
    assert.equal(await inView('.pw-gate .pw-confirm'), true, 'the question is on screen');
    await page.screenshot({ path: join(artifacts, 'consent-unresolved-300x800.png') });
    assert.deepEqual(await posted('approvalResponse'), []);
    await page.getByText('Back', { exact: true }).click();

    await page.getByRole('button', { name: 'No, stay in Plan mode', exact: true }).click();
    const box = page.getByLabel('What should change?');
    await box.waitFor();
    await settle();
    assert.equal(await inView('.pw-feedback vscode-button'), true, 'Send is on screen');
    assert.equal(await inView('.pw-feedback .pw-hint'), true, 'its hint is on screen');
    assert.deepEqual(await documentScroll(), { top: 0, fits: true });
    await page.keyboard.type('Fold modules 11 and 12 together');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('please');
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted('approvalResponse'), [
      {
        type: 'approvalResponse',
        requestId: 'approve-1',
        decision: 'revise',
        feedback: 'Fold modules 11 and 12 together\nplease',
      },
    ]);
  });
});
