/**
 * The "Ready to code?" footer in real Chromium at a 300 px sidebar, after the recorded session's
 * planning, interview and gate scenes (a plan card, a tracker and a transcript above it): the
 * document never scrolls, the header stays in view, the three choices are all visible without
 * any scrolling, nothing scrolls sideways, the gate takes no focus, the text box is in view, the gate does not repeat
 * the plan, and the feedback box replaces the composer. Screenshots go to test-artifacts/webview/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { HostMessage } from '../../src/protocol';
import { launchChromium } from './browser';
import { startPageServer, type PageServer } from './pageServer';

interface Recording {
  snapshot: HostMessage;
  scenes: { name: string; messages: HostMessage[] }[];
}
type HarnessWindow = { __harness: { deliver(m: unknown[]): void } };

const repo = resolve(__dirname, '../..');
const artifacts = join(repo, 'test-artifacts', 'webview');
const session = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'session.json'), 'utf8')) as Recording;

/** A narrow sidebar, as tall as a laptop's. */
const VIEWPORT = { width: 300, height: 640 };

describe('the gate footer at a 300 px sidebar, in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: PageServer;
  let page: Page;

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
  const deliver = async (messages: unknown[]) => {
    await page.evaluate((m) => (window as never as HarnessWindow).__harness.deliver(m), messages);
    await settle();
  };

  beforeEach(async () => {
    page = await browser.newPage({ viewport: VIEWPORT });
    await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
    await page.goto(`${server.origin}/?theme=dark`);
    await page.waitForFunction(() =>
      (window as never as { __harness: { posted: { type: string }[] } }).__harness.posted.some(
        (m) => m.type === 'ready',
      ),
    );
    await deliver([session.snapshot]);
    for (const scene of session.scenes) {
      await deliver(scene.messages);
      if (scene.name === 'gate') break;
    }
    await page.getByRole('region', { name: 'Ready to code?' }).waitFor();
    await settle();
  });
  afterEach(async () => page?.close());

  it('arrives without scrolling the document: header and all three choices in view, none sideways', async () => {
    await page.screenshot({ path: join(artifacts, 'gate-300px.png') });
    const m = await page.evaluate(() => {
      // (No named helper functions in here: the test's transpiler would wrap them in a helper the page lacks.)
      const [header, ...choices] = [
        document.querySelector('.pw-header')!,
        ...document.querySelectorAll('.pw-choice'),
      ].map((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      });
      const dock = document.querySelector('.pw-dock') as HTMLElement;
      const scrollers = [document.scrollingElement!, document.body, document.querySelector('.pw-app')!];
      return {
        documentScroll: scrollers.map((el) => el.scrollTop),
        horizontal: [document.documentElement, document.body, dock, document.querySelector('.pw-gate')!].map(
          (el) => el.scrollWidth - el.clientWidth,
        ),
        header: header!,
        choices,
        dockScrolls: dock.scrollHeight - dock.clientHeight,
        gateText: document.querySelector('.pw-gate')!.textContent ?? '',
        planCard: document.querySelector('.pw-plan-card') !== null,
        activeInGate: document.activeElement?.closest('.pw-gate') !== null,
        composer: (() => {
          const r = document.querySelector('.pw-composer textarea')!.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom };
        })(),
        innerHeight: window.innerHeight,
      };
    });
    assert.deepEqual(m.documentScroll, [0, 0, 0], 'the document never scrolls');
    assert.ok(m.header.top >= 0 && m.header.bottom > 0, `header at ${m.header.top}..${m.header.bottom}`);
    assert.equal(m.choices.length, 3);
    for (const c of m.choices) {
      assert.ok(c.top >= 0 && c.bottom <= m.innerHeight, `a choice at y=${c.top}..${c.bottom} of ${m.innerHeight}`);
      assert.ok(c.left >= 0 && c.right <= VIEWPORT.width, `a choice at x=${c.left}..${c.right}`);
    }
    assert.ok(m.dockScrolls <= 0, `the gate scrolls in its dock by ${m.dockScrolls} px`);
    assert.deepEqual(
      m.horizontal.map((d) => d <= 0),
      [true, true, true, true],
      `horizontal overflow: ${m.horizontal}`,
    );
    assert.equal(m.activeInGate, false, 'the gate took no focus');
    assert.ok(
      m.composer.top >= 0 && m.composer.bottom <= m.innerHeight,
      `the text box at ${m.composer.top}..${m.composer.bottom}`,
    );
    // The plan card above shows the plan; the footer says the revision and what changed instead.
    assert.ok(m.planCard);
    assert.match(m.gateText, /revision 2 · 1 step removed, 1 changed/);
    assert.doesNotMatch(m.gateText, /token-bucket|Read limits from config|more steps/);
    const primary = await page.locator('.pw-choice-primary').evaluate((el) => {
      const s = getComputedStyle(el);
      return { bg: s.backgroundColor, n: document.querySelectorAll('.pw-choice-primary').length };
    });
    const secondary = await page
      .getByRole('button', { name: /Yes, implement this plan/ })
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(primary.n, 1);
    assert.notEqual(primary.bg, secondary, 'the primary choice is styled apart from the other two');
    // Each choice is named by its title alone; the line under it is its description.
    const names = await page.locator('.pw-choice').evaluateAll((els) =>
      els.map((el) =>
        ['aria-labelledby', 'aria-describedby'].map((attr) =>
          (el.getAttribute(attr) ?? '')
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' '),
        ),
      ),
    );
    assert.deepEqual(
      names.map(([name]) => name),
      ['Yes, implement this plan', 'Yes, clear context and implement', 'No, stay in Plan mode'],
    );
    assert.match(names[1]![1]!, /^Recommended · context \d+% used\.$/);
    for (const name of ['Yes, implement this plan', 'Yes, clear context and implement', 'No, stay in Plan mode'])
      await page.getByRole('button', { name, exact: true }).waitFor({ timeout: 2000 });
  });

  it('the feedback box replaces the composer, still with everything in view', async () => {
    await page.getByRole('button', { name: /No, stay in Plan mode/ }).click();
    await page.getByLabel('What should change?').waitFor();
    await settle();
    await page.screenshot({ path: join(artifacts, 'gate-300px-feedback.png') });
    const m = await page.evaluate(() => {
      const visible = [...document.querySelectorAll('textarea')].filter((t) => t.getClientRects().length > 0);
      const box = document.querySelector('.pw-feedback textarea')!.getBoundingClientRect();
      return {
        textareas: visible.map((t) => t.getAttribute('aria-label') ?? t.id),
        composer: document.querySelector('.pw-composer') !== null,
        box: { top: box.top, bottom: box.bottom },
        innerHeight: window.innerHeight,
        scroll: document.scrollingElement!.scrollTop,
        focused: document.activeElement?.tagName,
      };
    });
    assert.equal(m.textareas.length, 1, `visible text boxes: ${m.textareas.join(', ')}`);
    assert.equal(m.composer, false);
    assert.equal(m.focused, 'TEXTAREA');
    assert.equal(m.scroll, 0);
    assert.ok(m.box.top >= 0 && m.box.bottom <= m.innerHeight, `the feedback box at ${m.box.top}..${m.box.bottom}`);
    await page.keyboard.press('Escape');
    await settle();
    assert.equal(await page.getByLabel('Message Planwise').isVisible(), true, 'Esc brings the composer back');
  });
});
