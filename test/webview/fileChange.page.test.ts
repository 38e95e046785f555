/**
 * A file tool's row in real Chromium, from a real build: the engine edits and creates files, the
 * host's translator carries its result events into the panel's state, and the row reads "Edited
 * src/a.ts +2 −1" ("Created …" for a new file) and opens to the unified diff by Enter or Space on
 * the row and by a click; the diff is text, its added and removed lines marked in every theme.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ViewState } from '../../src/protocol';
import { launchChromium } from './browser';
import { startPageServer, type PageServer, type Theme } from './pageServer';

const repo = resolve(__dirname, '../..');
describe('file change rows in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: PageServer;
  let state: ViewState;

  before(async function () {
    this.timeout(180_000);
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repo, stdio: 'pipe' });
    // The build runs in its own process: a jsdom test in this one may have replaced the globals the engine uses.
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(__dirname, 'fileChangeScene.ts')], {
      cwd: repo,
      maxBuffer: 16 * 1024 * 1024,
    });
    state = JSON.parse(out.toString()) as ViewState;
    server = await startPageServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(theme: Theme): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 300, height: 800 } });
    await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
    // tsx names functions with a helper the page does not have.
    await page.addInitScript('window.__name = (f) => f');
    await page.goto(`${server.origin}/?theme=${theme}`);
    await page.waitForFunction(() =>
      (window as never as { __harness: { posted: { type: string }[] } }).__harness.posted.some(
        (m) => m.type === 'ready',
      ),
    );
    await page.evaluate(
      (m) => (window as never as { __harness: { deliver(x: unknown[]): void } }).__harness.deliver(m),
      [{ type: 'snapshot', seq: 1, state }],
    );
    await page.locator('.pw-tool-change').first().waitFor();
    return page;
  }

  const rowText = (page: Page, i: number) =>
    page
      .locator('.pw-tool-change .pw-disclosure')
      .nth(i)
      .evaluate((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim());

  it('reads "Edited src/a.ts +2 −1" and "Created src/b.ts +1 −0", with no raw arguments', async () => {
    const page = await open('dark');
    try {
      assert.equal(await rowText(page, 0), 'Edited src/a.ts +2 \u22121');
      assert.equal(await rowText(page, 1), 'Created src/b.ts +1 \u22120');
      const text = await page.locator('.pw-transcript, .pw-scroller').first().innerText();
      assert.doesNotMatch(text, /old_text|new_text|edit_file|write_file|content=/);
      // The rows start closed.
      assert.equal(await page.locator('.pw-diff').count(), 0);
    } finally {
      await page.close();
    }
  });

  it('opens to the diff by Enter and Space on the row, and by a click', async () => {
    const page = await open('dark');
    try {
      const row = page.locator('.pw-tool-change .pw-disclosure').first();
      // The keyboard's way in: the transcript is one Tab stop, Right reaches its first control.
      await page.locator('.pw-scroller').focus();
      for (let i = 0; i < 10; i++) {
        if (await row.evaluate((el) => el === document.activeElement)) break;
        await page.keyboard.press('ArrowRight');
        if (await row.evaluate((el) => el === document.activeElement)) break;
        await page.keyboard.press('ArrowDown');
      }
      assert.ok(await row.evaluate((el) => el === document.activeElement), 'the row has the focus');
      await page.keyboard.press('Enter');
      assert.equal(await row.getAttribute('aria-expanded'), 'true');
      const diff = page.locator('.pw-diff').first();
      await diff.waitFor();
      const lines = await diff
        .locator('.pw-diff-line')
        .evaluateAll((els) =>
          els.map((e) => [e.className.replace('pw-diff-line ', ''), e.textContent!.replace(/\n$/, '')]),
        );
      assert.deepEqual(lines, [
        ['pw-diff-file', '--- a/src/a.ts'],
        ['pw-diff-file', '+++ b/src/a.ts'],
        ['pw-diff-hunk', '@@ -1,3 +1,4 @@'],
        ['pw-diff-same', ' export const a = 1;'],
        ['pw-diff-del', '-export const b = 2;'],
        ['pw-diff-add', '+export const b = 20;'],
        ['pw-diff-add', '+export const bb = 22;'],
        ['pw-diff-same', ' export const c = 3;'],
      ]);
      await page.keyboard.press('Space');
      assert.equal(await row.getAttribute('aria-expanded'), 'false');
      assert.equal(await page.locator('.pw-diff').count(), 0);
      await page.keyboard.press('Space');
      assert.equal(await row.getAttribute('aria-expanded'), 'true');

      // The mouse: the created file's row opens on a click; its text is shown as text, never as markup.
      const second = page.locator('.pw-tool-change .pw-disclosure').nth(1);
      await second.click();
      assert.equal(await second.getAttribute('aria-expanded'), 'true');
      const created = page.locator('.pw-diff').nth(1);
      assert.equal(await created.locator('.pw-diff-add').textContent(), '+const t = "<img src=x onerror=alert(1)>";\n');
      assert.equal(await page.locator('.pw-diff img').count(), 0);
      await second.click();
      assert.equal(await second.getAttribute('aria-expanded'), 'false');
    } finally {
      await page.close();
    }
  });

  for (const theme of ['hc', 'hcLight', 'dark', 'light'] as Theme[]) {
    it(`marks added and removed lines apart from the rest, text in the theme's foreground (${theme})`, async () => {
      const page = await open(theme);
      try {
        await page.locator('.pw-tool-change .pw-disclosure').first().click();
        const looks = await page.evaluate(() => {
          const of = (sel: string) => {
            const s = getComputedStyle(document.querySelector(sel)!);
            return { bg: s.backgroundColor, bar: s.borderLeftColor, color: s.color };
          };
          const fg = getComputedStyle(document.body).color;
          return { add: of('.pw-diff-add'), del: of('.pw-diff-del'), same: of('.pw-diff-same'), fg };
        });
        const mark = (l: { bg: string; bar: string }) => `${l.bg} ${l.bar}`;
        assert.notEqual(mark(looks.add), mark(looks.same), 'added lines look different');
        assert.notEqual(mark(looks.del), mark(looks.same), 'removed lines look different');
        assert.notEqual(mark(looks.add), mark(looks.del), 'added and removed lines look different');
        for (const l of [looks.add, looks.del, looks.same]) assert.equal(l.color, looks.fg);
        await page.screenshot({ path: join(repo, 'test-artifacts', 'webview', `file-change-${theme}.png`) });
      } finally {
        await page.close();
      }
    });
  }
});
