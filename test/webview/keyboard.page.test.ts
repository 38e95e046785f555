/**
 * Keyboard and screen reader in real Chromium, with a 12-step tracker and a transcript full of
 * links and results: focusing the view lands on the gate's bar (never on a choice), its first
 * choice is at most 5 Tab presses away and Enter there approves, and the opened tracker and the
 * transcript are one Tab stop each (a tree, and arrows).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { emptyViewState, type TrackerNode, type TranscriptItem, type ViewState } from '../../src/protocol';
import { launchChromium } from './browser';
import { startPageServer, type PageServer } from './pageServer';
import { gate, tracker } from './scenes';

const repo = resolve(__dirname, '../..');

const steps: TrackerNode[] = Array.from({ length: 12 }, (_, i) => ({
  path: String(i + 1),
  description: `Step ${i + 1}: change module ${i + 1}`,
  status: i === 0 ? 'in_progress' : 'pending',
  files: [`src/module${i + 1}.ts`],
  entries: [{ kind: 'command', text: 'npm test', command: 'npm test' }],
  awaitingCheck: false,
  children: [],
}));

const transcript: TranscriptItem[] = Array.from({ length: 12 }, (_, i) => ({
  id: `c${i}`,
  kind: 'tool_call',
  callId: `c${i}`,
  name: 'read_file',
  title: `Read src/module${i + 1}.ts`,
  subject: `src/module${i + 1}.ts`,
  argsSummary: `src/module${i + 1}.ts`,
  verdict: { allowed: true, reason: 'read-only' },
  outcome: 'ok',
  bytes: 100,
  preview: `see src/module${i + 1}.ts:3`,
}));

const state: ViewState = {
  ...emptyViewState(),
  lifecycle: { state: 'awaiting_approval', mode: 'plan', busy: false },
  flags: { hasApiKey: true, trusted: true },
  tracker: {
    ...tracker,
    items: steps,
    counts: { done: 0, inProgress: 1, pending: 11, blocked: 0, total: 12 },
    percent: 0,
  },
  transcript,
  gate,
};

describe('keyboard and screen reader in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: PageServer;
  let page: Page;
  before(async function () {
    this.timeout(180_000);
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repo, stdio: 'pipe' });
    server = await startPageServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 300, height: 900 } });
    await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
    await page.goto(`${server.origin}/?theme=dark`);
    await page.waitForFunction(() =>
      (window as never as { __harness: { posted: { type: string }[] } }).__harness.posted.some(
        (m) => m.type === 'ready',
      ),
    );
    await page.evaluate(
      (m) => (window as never as { __harness: { deliver(x: unknown[]): void } }).__harness.deliver(m),
      [{ type: 'snapshot', seq: 1, state }],
    );
    await page.getByRole('region', { name: 'Ready to code?' }).waitFor();
    await page.evaluate(() => new Promise((ok) => setTimeout(ok, 100)));
  });
  afterEach(async () => page?.close());

  const active = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { text: el?.textContent?.trim() ?? '', role: el?.getAttribute('role') ?? el?.tagName ?? '' };
    });

  it('focusing the view lands on the gate bar, its first choice is at most 5 Tab presses away, and Enter there approves', async () => {
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.dispatchEvent(new Event('focus'));
    });
    const landed = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    assert.equal(landed, 'gate', 'the view focus lands on the gate bar, not on a choice');
    // Nothing typed there approves.
    await page.keyboard.type(' y\n');
    let presses = 0;
    while (!/^Yes, implement this plan/.test((await active()).text) && presses < 10) {
      await page.keyboard.press('Tab');
      presses++;
    }
    assert.ok(presses <= 5, `${presses} Tab presses to the first choice`);
    const posted = () =>
      page.evaluate(() =>
        (window as never as { __harness: { posted: { type: string }[] } }).__harness.posted.filter(
          (m) => m.type === 'approvalResponse',
        ),
      );
    assert.deepEqual(await posted(), []);
    await page.keyboard.press('Enter');
    assert.deepEqual(await posted(), [{ type: 'approvalResponse', requestId: gate.requestId, decision: 'execute' }]);
  });

  it('the tracker and the transcript are one Tab stop each; arrows move inside them', async () => {
    // A plan proposed during the build: the tracker's line shows with the gate; opened, it is a tree.
    await page.evaluate(
      (m) => (window as never as { __harness: { deliver(x: unknown[]): void } }).__harness.deliver(m),
      [
        {
          type: 'snapshot',
          seq: 2,
          state: { ...state, lifecycle: { state: 'executing', mode: 'build', busy: false } },
        },
      ],
    );
    await page.locator('.pw-tracker-line').click();
    const snapshot = await page.locator('.pw-tracker').ariaSnapshot();
    assert.match(snapshot, /tree "Plan steps"/);
    assert.match(snapshot, /treeitem/);
    // Walk the whole Tab order from the top: count the stops inside each region.
    await page.locator('.pw-header button').first().focus();
    const stops: string[] = ['header'];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        const el = document.activeElement!;
        return el.closest('.pw-todo-list')
          ? 'tracker'
          : el.closest('.pw-scroller')
            ? 'transcript'
            : el.closest('.pw-dock')
              ? 'gate'
              : 'other';
      });
      stops.push(where);
      if (where === 'gate') break;
    }
    assert.equal(stops.filter((s) => s === 'tracker').length, 1, `stops: ${stops.join(' ')}`);
    assert.equal(stops.filter((s) => s === 'transcript').length, 1, `stops: ${stops.join(' ')}`);
    assert.ok(stops.length <= 8, `the gate is ${stops.length} Tab presses from the top: ${stops.join(' ')}`);

    // In the tracker: Down moves between steps, Right reaches a step's controls.
    await page.locator('.pw-todo-row').first().focus();
    await page.keyboard.press('ArrowDown');
    assert.match((await active()).text, /^2Step 2/);
    await page.keyboard.press('ArrowRight');
    assert.equal((await active()).role, 'BUTTON');
    // In the transcript: Right reaches its first control, Escape goes back to the scroller.
    await page.locator('.pw-scroller').focus();
    await page.keyboard.press('ArrowRight');
    assert.notEqual(await page.evaluate(() => document.activeElement?.className), 'pw-scroller');
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'pw-scroller');
  });
});
