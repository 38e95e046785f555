/**
 * The build's final card in real Chromium, in the built bundle under the host's CSP: at 300 px it
 * fits (nothing wider than the panel, the Revert buttons on screen), its Revert buttons are
 * reached and pressed from the keyboard, and hostile text in it never runs. A screenshot goes to
 * test-artifacts/webview/build-report.png.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { emptyViewState, type TranscriptItem, type ViewState, type WebviewMessage } from '../../src/protocol';
import { launchChromium } from './browser';
import { startPageServer, type PageServer } from './pageServer';
import { reportScene } from './reportScene';
import { XSS_CORPUS } from './xssCorpus';

const repo = resolve(__dirname, '../..');
const artifacts = join(repo, 'test-artifacts', 'webview');

interface Harness {
  posted: WebviewMessage[];
  cspViolations: unknown[];
  errors: string[];
  deliver(messages: unknown[]): void;
}

function stateWith(report: TranscriptItem): ViewState {
  return {
    ...emptyViewState(),
    lifecycle: { state: 'executing', mode: 'build', busy: false },
    flags: { hasApiKey: true, trusted: true },
    transcript: [
      { id: 'u1', kind: 'user', text: 'add rate limiting' },
      { id: 'a1', kind: 'assistant', text: 'Done: the limiter is in, one verify failed.', streaming: false },
      report,
    ],
  };
}

describe("the build's final card in Chromium", function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: PageServer;
  let page: Page;
  const dialogs: string[] = [];
  const pwnedRequests: string[] = [];

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

  async function open(report: TranscriptItem, width = 300) {
    page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('request', (r) => {
      if (r.url().includes('pwned')) pwnedRequests.push(r.url());
    });
    await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
    await page.goto(`${server.origin}/?theme=dark`);
    await page.waitForFunction(() =>
      (window as never as { __harness: Harness }).__harness.posted.some((m) => m.type === 'ready'),
    );
    await page.evaluate(
      (m) => (window as never as { __harness: Harness }).__harness.deliver(m),
      [{ type: 'snapshot', seq: 1, state: stateWith(report) }],
    );
    await page.getByTestId('build-report').waitFor();
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 50))));
  }
  afterEach(async () => page?.close());

  const posted = () =>
    page.evaluate(() =>
      (window as never as { __harness: Harness }).__harness.posted.filter((m) => m.type === 'revertBuild'),
    );

  it('fits 300 px: nothing in the card is wider than the panel, and the Revert buttons are on screen', async () => {
    await open(reportScene().item);
    const box = await page.evaluate(() => {
      const card = document.querySelector<HTMLElement>('[data-testid="build-report"]')!;
      const wide = [...card.querySelectorAll<HTMLElement>('*')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((el) => `${el.tagName}.${el.className}`);
      return {
        wide,
        cardRight: card.getBoundingClientRect().right,
        docWidth: document.documentElement.scrollWidth,
        width: window.innerWidth,
      };
    });
    assert.deepEqual(box.wide, [], 'elements past the right edge');
    assert.ok(box.cardRight <= box.width, `card right ${box.cardRight} > ${box.width}`);
    assert.ok(box.docWidth <= box.width, `the page scrolls sideways: ${box.docWidth} > ${box.width}`);
    for (const id of ['report-revert', 'report-revert-step-1']) {
      await page.getByTestId(id).scrollIntoViewIfNeeded();
      const b = await page.getByTestId(id).boundingBox();
      assert.ok(b && b.x >= 0 && b.x + b.width <= 300, `${id} at ${JSON.stringify(b)}`);
    }
    await page.setViewportSize({ width: 300, height: 1300 });
    await page.getByTestId('build-report').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(artifacts, 'build-report.png') });
  });

  it('is reached from the keyboard: Right into the transcript, Down to Revert Build, Enter; then Revert to step 1 with Space', async () => {
    await open(reportScene().item);
    await page.locator('.pw-scroller').focus();
    await page.keyboard.press('ArrowRight');
    let presses = 0;
    const activeTestId = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    while ((await activeTestId()) !== 'report-revert' && presses < 30) {
      await page.keyboard.press('ArrowDown');
      presses++;
    }
    assert.equal(await activeTestId(), 'report-revert', `not reached after ${presses} presses`);
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    assert.equal(await activeTestId(), 'report-revert-step-1');
    await page.keyboard.press('Space');
    assert.deepEqual(await posted(), [
      { type: 'revertBuild', sessionId: 'sbuild1' },
      { type: 'revertBuild', sessionId: 'sbuild1', toStep: '1' },
    ]);
  });

  it('runs nothing from hostile text in the title, step, path and command', async () => {
    for (const [name, payload] of Object.entries(XSS_CORPUS)) {
      await open(reportScene(payload).item);
      const health = await page.evaluate(() => ({
        pwned: (window as never as { __pwned?: unknown }).__pwned,
        imgs: document.querySelectorAll('[data-testid="build-report"] img, [data-testid="build-report"] svg').length,
        csp: (window as never as { __harness: Harness }).__harness.cspViolations.length,
      }));
      assert.deepEqual(health, { pwned: undefined, imgs: 0, csp: 0 }, name);
      await page.close();
    }
    assert.deepEqual(dialogs, []);
    assert.deepEqual(pwnedRequests, []);
  });
});
