/**
 * In real Chromium: the opened tracker scrolls (inside itself, never the document) to the step in
 * progress, so step 1 running is visible even after the tracker was scrolled to steps 7–11.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { emptyViewState, type Tracker, type TrackerNode, type ViewState } from '../../src/protocol';
import { launchChromium } from './browser';
import { startPageServer, type PageServer } from './pageServer';

const repo = resolve(__dirname, '../..');

function tracker(active: number): Tracker {
  const items: TrackerNode[] = Array.from({ length: 12 }, (_, i) => ({
    path: String(i + 1),
    description: `Step ${i + 1}: change module ${i + 1} and its tests`,
    status: i + 1 < active ? 'completed' : i + 1 === active ? 'in_progress' : 'pending',
    files: [`src/module${i + 1}.ts`],
    entries: [{ kind: 'command', text: 'npm test', command: 'npm test' }],
    awaitingCheck: false,
    children: [],
  }));
  const done = active - 1;
  return {
    title: 'Twelve steps',
    items,
    counts: { done, inProgress: 1, pending: 12 - active, blocked: 0, total: 12 },
    percent: Math.round((done / 12) * 100),
  };
}

describe('tracker in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: PageServer;
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

  it('scrolls itself to the active step and never scrolls the document', async () => {
    const page = await browser.newPage({ viewport: { width: 300, height: 700 } });
    await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
    await page.goto(`${server.origin}/?theme=dark`);
    await page.waitForFunction(() =>
      (window as never as { __harness: { posted: { type: string }[] } }).__harness.posted.some(
        (m) => m.type === 'ready',
      ),
    );
    const deliver = async (state: ViewState, seq: number) => {
      await page.evaluate(
        (m) => (window as never as { __harness: { deliver(x: unknown[]): void } }).__harness.deliver(m),
        [{ type: 'snapshot', seq, state }],
      );
      await page.evaluate(
        () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(ok, 30)))),
      );
    };
    const base: ViewState = { ...emptyViewState(), flags: { hasApiKey: true, trusted: true } };
    const visible = (path: string) =>
      page.evaluate((p) => {
        const box = document.querySelector('.pw-tracker')!.getBoundingClientRect();
        const row = document.querySelector(`li[data-path="${p}"] > .pw-todo-row`)!.getBoundingClientRect();
        return row.top >= box.top - 1 && row.bottom <= box.bottom + 1;
      }, path);
    await deliver({ ...base, tracker: tracker(11) }, 1);
    // One line until the person opens it.
    await page.locator('.pw-tracker-line').click();
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 30))));
    assert.equal(await visible('11'), true, 'step 11 in progress is in view');
    assert.ok(
      (await page.evaluate(() => document.querySelector('.pw-tracker')!.scrollTop)) > 0,
      'the tracker scrolled',
    );
    await deliver({ ...base, tracker: tracker(1) }, 1);
    assert.equal(await visible('1'), true, 'step 1 in progress is in view again');
    assert.equal(await page.evaluate(() => document.scrollingElement!.scrollTop), 0, 'the document never scrolls');
    await page.close();
  });
});
