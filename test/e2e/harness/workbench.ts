// Drives the VS Code workbench served by code-server in Debian's Chromium. See ./index.ts for the API guide.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import type { CodeServer } from './codeServer';
import { artifactsDir, chromiumPath } from './paths';
import { findWebviewFrame } from './webview';

export { CHROMIUM_ARGS } from '../../support/chromium';
import { CHROMIUM_ARGS } from '../../support/chromium';

/** Selectors of VS Code's workbench that the harness relies on (the same in 1.100 and 1.106). */
export const SELECTORS = {
  workbench: '.monaco-workbench',
  statusBar: '.part.statusbar',
  statusBarItem: '.part.statusbar .statusbar-item',
  quickInput: '.quick-input-widget',
  quickInputBox: '.quick-input-widget .quick-input-box input',
  quickInputRow: '.quick-input-widget .quick-input-list .monaco-list-row',
  quickInputRowLabel: '.label-name',
  notificationToast: '.notifications-toasts .notification-toast',
  notificationMessage: '.notification-list-item-message',
} as const;

export interface Workbench {
  browser: Browser;
  page: Page;
  /** Milliseconds from navigation to a rendered workbench (status bar and activity bar visible). */
  renderMs: number;
  /** Opens the command palette (F1), types `title` and runs the entry whose label is exactly `title`. */
  runCommand(title: string, opts?: { timeoutMs?: number }): Promise<void>;
  /** Saves a PNG of the page to test-artifacts/e2e/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
  /** Waits for a notification toast whose message matches `text`; returns the message. */
  waitForNotification(text: RegExp, opts?: { timeoutMs?: number }): Promise<string>;
  /** Text of every visible status bar item, joined with " | ". */
  statusBarText(): Promise<string>;
  /** The content frame of a webview view (the inner iframe); see ./webview.ts. */
  webviewFrame(viewTitle?: string, opts?: { timeoutMs?: number }): Promise<Frame>;
  /** Console errors the page reported so far. */
  consoleErrors(): string[];
  close(): Promise<void>;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function artifactName(name: string): string {
  const safe = name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '');
  if (!safe) throw new Error(`screenshot name "${name}" has no usable characters; use letters, digits, "-" or ".".`);
  return safe.endsWith('.png') ? safe : `${safe}.png`;
}

export async function openWorkbench(
  server: Pick<CodeServer, 'url'>,
  opts: { timeoutMs?: number; viewport?: { width: number; height: number } } = {},
): Promise<Workbench> {
  const timeout = opts.timeoutMs ?? 60_000;
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  const errors: string[] = [];
  try {
    const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    const started = Date.now();
    await page.goto(server.url, { timeout });
    await page.locator(SELECTORS.statusBar).waitFor({ state: 'visible', timeout });
    await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout });
    const renderMs = Date.now() - started;

    const runCommand = async (title: string, o: { timeoutMs?: number } = {}): Promise<void> => {
      const deadline = Date.now() + (o.timeoutMs ?? 30_000);
      const left = (cap: number) => Math.max(500, Math.min(cap, deadline - Date.now()));
      const box = page.locator(SELECTORS.quickInputBox);
      const row = page
        .locator(SELECTORS.quickInputRow)
        .filter({
          has: page.locator(SELECTORS.quickInputRowLabel, { hasText: new RegExp(`^${escapeRegExp(title)}$`) }),
        })
        .first();
      const open = async (): Promise<boolean> => {
        if (await box.isVisible()) return true;
        await page.keyboard.press('F1');
        if (
          await box.waitFor({ state: 'visible', timeout: left(5000) }).then(
            () => true,
            () => false,
          )
        )
          return true;
        // F1 can be swallowed while focus sits in a widget that handles it; the other default binding.
        await page.keyboard.press('Control+Shift+P');
        return box.waitFor({ state: 'visible', timeout: left(5000) }).then(
          () => true,
          () => false,
        );
      };
      // The palette lists the commands known when it was filled: an extension whose contributions
      // arrive later (right after load) shows up only when the text changes, so type it again. Right
      // after a load the workbench may also close the palette while it restores focus: open it again.
      // Under load the list can take seconds to follow the text: it is retyped only once it has
      // filtered (its labels carry match highlights, or it says nothing matches) without the row,
      // never while it still shows what it showed before.
      const filtered = page.locator(
        `${SELECTORS.quickInputRow} ${SELECTORS.quickInputRowLabel} .highlight, ${SELECTORS.quickInput} .quick-input-message:has-text("No matching")`,
      );
      const rowOrFiltered = async (): Promise<boolean> => {
        const until = Date.now() + left(15_000);
        let filteredSince: number | undefined;
        for (;;) {
          if (await row.isVisible().catch(() => false)) return true;
          if ((await filtered.count().catch(() => 0)) > 0) {
            filteredSince ??= Date.now();
            // Filtered for a while and still no row: the command is not offered (yet). VS Code 1.106
            // can show the previous search's highlighted rows for a moment after the new text is
            // typed, and retyping restarts that: wait long enough for the list to catch up.
            if (Date.now() - filteredSince >= 2500) return false;
          } else filteredSince = undefined;
          if (Date.now() >= until) return false;
          await page.waitForTimeout(100);
        }
      };
      // What each attempt saw, for the error when none finds the command.
      const attempts: string[] = [];
      for (;;) {
        if (await open()) {
          await box.fill(`>${title}`).catch(() => undefined);
          const found = await rowOrFiltered();
          const clicked = found
            ? await row.click({ timeout: left(3000) }).then(
                () => 'clicked',
                (e: unknown) => `row seen, click failed (${String(e).split('\n')[0]})`,
              )
            : 'row not offered';
          if (clicked === 'clicked') break;
          attempts.push(clicked);
        } else attempts.push('palette did not open');
        if (Date.now() >= deadline) {
          const shown = await page
            .locator(`${SELECTORS.quickInputRow} ${SELECTORS.quickInputRowLabel}`)
            .allInnerTexts()
            .catch(() => []);
          await page.keyboard.press('Escape');
          throw new Error(
            `The command palette has no command "${title}" (it showed: ${shown.slice(0, 8).join('; ') || 'nothing'}; ` +
              `attempts: ${attempts.join('; ')}). Pass the label exactly as the palette shows it, "Category: Title".`,
          );
        }
        // A command whose when-clause became true while the palette was open is offered only by a
        // palette opened after it: close it and open a new one.
        await page.keyboard.press('Escape');
        await box.waitFor({ state: 'hidden', timeout: left(2000) }).catch(() => undefined);
      }
      // The palette closes (or is reused by the command's own input box, which replaces the rows).
      await row.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
    };

    const screenshot = async (name: string): Promise<string> => {
      mkdirSync(artifactsDir, { recursive: true });
      const file = path.join(artifactsDir, artifactName(name));
      await page.screenshot({ path: file });
      return file;
    };

    const waitForNotification = async (text: RegExp, o: { timeoutMs?: number } = {}): Promise<string> => {
      const toast = page.locator(SELECTORS.notificationToast).filter({ hasText: text }).first();
      try {
        await toast.waitFor({ state: 'visible', timeout: o.timeoutMs ?? 30_000 });
      } catch {
        const shown = await page
          .locator(`${SELECTORS.notificationToast} ${SELECTORS.notificationMessage}`)
          .allInnerTexts();
        throw new Error(`No notification matching ${text} appeared (visible: ${shown.join('; ') || 'none'}).`);
      }
      // Let the slide-in animation finish so a screenshot taken next shows the whole toast.
      let box = await toast.boundingBox();
      for (let i = 0; i < 20; i++) {
        await page.waitForTimeout(100);
        const next = await toast.boundingBox();
        if (next && box && next.y === box.y && next.height === box.height) break;
        box = next;
      }
      return (await toast.locator(SELECTORS.notificationMessage).first().innerText()).trim();
    };

    const statusBarText = async (): Promise<string> => {
      const items = await page.locator(SELECTORS.statusBarItem).evaluateAll((els) =>
        els
          .filter((e) => (e as HTMLElement).offsetParent !== null)
          .map((e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
          .filter((t) => t.length > 0),
      );
      return items.join(' | ');
    };

    return {
      browser,
      page,
      renderMs,
      runCommand,
      screenshot,
      waitForNotification,
      statusBarText,
      webviewFrame: (viewTitle, o) => findWebviewFrame(page, viewTitle, o?.timeoutMs ?? 30_000),
      consoleErrors: () => [...errors],
      close: () => browser.close(),
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
}
