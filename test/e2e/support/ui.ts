/**
 * Planwise-specific helpers over the harness's workbench: the panel's frame, the command palette
 * flows, editors and CodeLenses. Selectors are those of VS Code 1.106's web workbench and of the
 * panel's own markup (webview/components/*).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { SELECTORS, type Workbench } from '../harness';

export const PANEL_VIEW = 'Planning';
export const FOCUS_PANEL = 'Planwise: Focus on Planning View';

/** User settings that point Planwise at the scripted model. */
export function planwiseSettings(baseURL: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'planwise.baseUrl': baseURL,
    'planwise.planningModel': 'scripted-model',
    // The scripted plans verify with `node check.js` and `node -e …`: this person allow-listed them,
    // so a step completes without the command question (a test that wants the question sets its own list).
    'planwise.buildCommandAllowList': ['node check.js', 'node -e *'],
    // The panel's width decides how much of it a screenshot shows.
    'workbench.sideBar.location': 'left',
    ...extra,
  };
}

/** The Planwise panel's content frame, found again whenever VS Code re-creates the webview. */
export class Panel {
  private current: Frame | undefined;

  constructor(private readonly wb: Workbench) {}

  async frame(): Promise<Frame> {
    if (this.current && !this.current.isDetached()) return this.current;
    // VS Code may replace the frame while it loads (a reload restoring the view): find it again.
    for (let attempt = 1; ; attempt++) {
      const frame = await this.wb.webviewFrame(PANEL_VIEW, { timeoutMs: 60_000 });
      try {
        await frame.locator('.pw-app').waitFor({ state: 'visible', timeout: 30_000 });
        this.current = frame;
        return frame;
      } catch (err) {
        if (!frame.isDetached() || attempt >= 3) throw err;
      }
    }
  }

  /** Opens (focuses) the view and returns its frame. */
  async open(): Promise<Frame> {
    await this.wb.runCommand(FOCUS_PANEL);
    this.current = undefined;
    return this.frame();
  }

  async locator(selector: string): Promise<Locator> {
    return (await this.frame()).locator(selector);
  }

  /** Waits for `selector` (optionally holding `text`) to be visible in the panel. */
  async waitFor(selector: string, opts: { text?: string | RegExp; timeoutMs?: number } = {}): Promise<Locator> {
    const timeout = opts.timeoutMs ?? 60_000;
    const deadline = Date.now() + timeout;
    for (;;) {
      const frame = await this.frame();
      let loc = frame.locator(selector);
      if (opts.text !== undefined) loc = loc.filter({ hasText: opts.text });
      try {
        await loc.first().waitFor({ state: 'visible', timeout: Math.max(1000, Math.min(5000, deadline - Date.now())) });
        return loc.first();
      } catch (err) {
        if (Date.now() >= deadline) {
          const shown = await this.text().catch(() => '(the panel could not be read)');
          throw new Error(
            `The panel never showed ${selector}${opts.text !== undefined ? ` with ${String(opts.text)}` : ''} ` +
              `within ${timeout} ms. It shows:\n${shown.slice(0, 3000)}`,
            { cause: err },
          );
        }
      }
    }
  }

  /** Opens the tracker (one line until the person clicks it); it stays open, as the person left it. */
  async openTracker(timeoutMs = 60_000): Promise<void> {
    const line = await this.waitFor('.pw-tracker-line', { timeoutMs });
    if ((await line.getAttribute('aria-expanded')) !== 'true') await line.click();
    await this.waitFor('.pw-tracker-body');
  }

  /** The panel's visible text. */
  async text(): Promise<string> {
    return (await this.frame()).locator('body').innerText();
  }

  /** The panel's whole DOM, attributes included. */
  async html(): Promise<string> {
    return (await this.frame()).content();
  }
}

/** The workbench's modal dialog (VS Code's own, drawn in the page). */
export const DIALOG = '.monaco-dialog-box';

/**
 * "Planwise: Start Planning", then the task typed into its input box. When a plan waits at the gate
 * (or a finished build offers Revert) the command asks first: the scenario's person then chooses
 * "discard" (the default here), or keeps what is there and starts nothing.
 */
export async function startPlanning(
  wb: Workbench,
  task: string,
  opts: { atStake?: 'discard' | 'keep' } = {},
): Promise<void> {
  await wb.runCommand('Planwise: Start Planning');
  const input = wb.page.locator(SELECTORS.quickInput).filter({ hasText: /Describe the task/ });
  const dialog = wb.page.locator(DIALOG);
  await input.or(dialog).first().waitFor({ state: 'visible', timeout: 30_000 });
  if (await dialog.isVisible()) {
    const keep = (opts.atStake ?? 'discard') === 'keep';
    await dialog.getByRole('button', { name: keep ? /^Keep the/ : /^(Discard and start|Start a new plan)$/ }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    if (keep) return;
  }
  await fillInputBox(wb, task, /Describe the task/);
}

/** Waits for the quick input box (showing `prompt`), types `text` and presses Enter. */
export async function fillInputBox(wb: Workbench, text: string, prompt?: RegExp): Promise<void> {
  const widget = wb.page.locator(SELECTORS.quickInput);
  if (prompt) await widget.filter({ hasText: prompt }).waitFor({ state: 'visible', timeout: 30_000 });
  const box = wb.page.locator(SELECTORS.quickInputBox);
  await box.waitFor({ state: 'visible', timeout: 30_000 });
  await box.fill(text);
  await box.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: 30_000 });
}

/** Picks the row whose label matches `label` in an open QuickPick. */
export async function pickQuickItem(wb: Workbench, label: RegExp): Promise<void> {
  const row = wb.page.locator(SELECTORS.quickInputRow).filter({ hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
}

/**
 * The labels the command palette offers for `text` (then closes it). It reads the rows once the
 * palette's list has filtered to `text` (its first row matches it, or it says nothing matches) and
 * two reads agree, instead of after a fixed wait.
 */
export async function paletteEntries(wb: Workbench, text: string): Promise<string[]> {
  const box = wb.page.locator(SELECTORS.quickInputBox);
  if (!(await box.isVisible())) {
    await wb.page.keyboard.press('F1');
    if (
      !(await box.waitFor({ state: 'visible', timeout: 10_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      await wb.page.keyboard.press('Control+Shift+P');
      await box.waitFor({ state: 'visible', timeout: 10_000 });
    }
  }
  await box.fill(`>${text}`);
  const rows = wb.page.locator(`${SELECTORS.quickInputRow} ${SELECTORS.quickInputRowLabel}`);
  const empty = wb.page.locator(`${SELECTORS.quickInput} .quick-input-message`).filter({ hasText: /No matching/ });
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  // The list has caught up with the text once its first row matches it (fuzzy matches may follow).
  const filtered = (labels: string[]) => labels.length > 0 && words.every((w) => labels[0]!.toLowerCase().includes(w));
  let last: string[] | undefined;
  const deadline = Date.now() + 10_000;
  for (;;) {
    let labels = (await rows.allInnerTexts()).map((l) => l.trim());
    const none =
      (labels.length === 0 && (await empty.isVisible())) || (labels.length === 1 && /^No matching/.test(labels[0]!));
    if (none) labels = [];
    if ((filtered(labels) || none) && last !== undefined && last.join('\n') === labels.join('\n')) {
      await box.press('Escape');
      return labels;
    }
    if (Date.now() >= deadline) {
      await box.press('Escape');
      throw new Error(
        `The command palette never settled on ">${text}" (it showed: ${labels.slice(0, 8).join('; ') || 'nothing'}).`,
      );
    }
    last = labels;
    await wb.page.waitForTimeout(150);
  }
}

/**
 * Waits until the command palette's offer for "Planwise:" satisfies `ready` (commands come and go
 * with the context keys, e.g. Start Planning only while nothing runs), reopening it to read again.
 */
export async function waitForPalette(
  wb: Workbench,
  ready: (labels: readonly string[]) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const labels = await paletteEntries(wb, 'Planwise:');
    if (ready(labels)) return labels;
    if (Date.now() >= deadline) {
      throw new Error(`The command palette never ${what} within ${timeoutMs} ms; it offers: ${labels.join('; ')}`);
    }
  }
}

/** How long `openFile` waits for the quick-open box after each press of its keybinding. */
const QUICK_OPEN_WAIT_MS = 20_000;

/**
 * Opens a workspace file through Quick Open (the palette without ">"). Under load the workbench
 * can take long to show the box, or drop the key while it moves focus (right after a load, a
 * reload, a closing dialog): it waits for the box itself, presses the keybinding once more if the
 * box never came, and then says what it saw. Every later step (the file's row, its tab) still has
 * to happen, so a real failure is never retried away.
 */
export async function openFile(wb: Workbench, relativePath: string): Promise<void> {
  const box = wb.page.locator(SELECTORS.quickInputBox);
  const shown = () =>
    box.waitFor({ state: 'visible', timeout: QUICK_OPEN_WAIT_MS }).then(
      () => true,
      () => false,
    );
  await wb.page.keyboard.press('F1');
  if (!(await shown())) {
    // The other default binding of the palette, in case F1 went to a widget that handles it.
    await wb.page.keyboard.press('Control+Shift+P');
    if (!(await shown())) {
      const focused = await wb.page
        .evaluate(() => {
          const el = document.activeElement;
          return el
            ? `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`
            : 'nothing';
        })
        .catch(() => 'unknown');
      throw new Error(
        `Quick Open never showed its input box (F1, then Ctrl+Shift+P, ${QUICK_OPEN_WAIT_MS} ms each) to open ` +
          `${relativePath}; the focus was on ${focused}.`,
      );
    }
  }
  await box.fill(relativePath);
  const name = path.basename(relativePath);
  const row = wb.page
    .locator(SELECTORS.quickInputRow)
    .filter({ has: wb.page.locator(SELECTORS.quickInputRowLabel, { hasText: name }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await box.press('Enter');
  await activeTab(wb, name);
}

/** Waits until the active editor tab is `name`. */
export async function activeTab(wb: Workbench, name: string | RegExp, timeoutMs = 30_000): Promise<void> {
  await wb.page
    .locator('.editor-group-container.active .tab.active')
    .filter({ hasText: name })
    .waitFor({ state: 'visible', timeout: timeoutMs });
}

/**
 * The text of the active editor's rendered lines (small files only: Monaco renders what is in view).
 * `within` narrows to a part of the editor group, e.g. ".monaco-diff-editor" (both sides).
 */
export async function activeEditorText(wb: Workbench, within = ''): Promise<string> {
  const lines = wb.page.locator(`.editor-group-container.active ${within} .monaco-editor .view-lines`);
  const texts = await lines.evaluateAll((els) =>
    els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => (e as HTMLElement).innerText),
  );
  return texts.join('\n').replace(/\u00a0/g, ' ');
}

/** Waits until the active editor shows `text`; returns what it shows then. */
export async function waitForEditorText(
  wb: Workbench,
  text: string | RegExp,
  timeoutMs = 30_000,
  within = '',
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let shown = '';
  while (Date.now() < deadline) {
    shown = await activeEditorText(wb, within).catch(() => '');
    if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
    await wb.page.waitForTimeout(200);
  }
  throw new Error(`The active editor never showed ${String(text)}; it shows:\n${shown}`);
}

/** The CodeLens titles the active editor shows, top to bottom. */
export async function codeLensTitles(wb: Workbench): Promise<string[]> {
  const lenses = wb.page.locator('.editor-group-container.active .monaco-editor .codelens-decoration');
  const texts = await lenses.evaluateAll((els) =>
    els.flatMap((e) =>
      Array.from(e.querySelectorAll('a, span:not(.codicon)'))
        .map((a) => (a as HTMLElement).innerText.replace(/\u00a0/g, ' ').trim())
        .filter((t) => t !== '' && t !== '|'),
    ),
  );
  return [...new Set(texts)];
}

/** Waits until some CodeLens title matches `title`; returns every title shown then. */
export async function waitForCodeLens(wb: Workbench, title: RegExp, timeoutMs = 30_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let shown: string[] = [];
  while (Date.now() < deadline) {
    shown = await codeLensTitles(wb);
    if (shown.some((t) => title.test(t))) return shown;
    await wb.page.waitForTimeout(250);
  }
  throw new Error(`No CodeLens matching ${title} appeared; the editor shows: ${JSON.stringify(shown)}`);
}

/** Clicks the CodeLens whose title matches `title`. */
export async function clickCodeLens(wb: Workbench, title: RegExp): Promise<void> {
  await waitForCodeLens(wb, title);
  await wb.page
    .locator('.editor-group-container.active .monaco-editor .codelens-decoration a')
    .filter({ hasText: title })
    .first()
    .click();
}

/** Every file under `dir` (recursively) whose path matches `include`. */
export function filesUnder(dir: string, include: RegExp = /./): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = path.join(d, n);
      let isDir = false;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        continue;
      }
      if (isDir) walk(p);
      else if (include.test(p)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** The Planwise output channel's log files (`<userDataDir>/logs/<stamp>/exthost*\/planwise.planwise/*.log`). */
export function planwiseLogFiles(userDataDir: string): string[] {
  return filesUnder(path.join(userDataDir, 'logs'), /[\\/]planwise\.planwise[\\/][^\\/]+\.log$/);
}

export function readAll(files: readonly string[]): string {
  return files.map((f) => readFileSync(f, 'utf8')).join('\n');
}

/**
 * "Planwise: Set API Key" with `key` typed into its password box, opened by `open` (by default from
 * the palette); waits for the confirmation.
 */
export async function setApiKey(
  wb: Workbench,
  key: string,
  open: () => Promise<void> = () => wb.runCommand('Planwise: Set API Key'),
): Promise<void> {
  await open();
  const box = wb.page.locator(SELECTORS.quickInputBox);
  await box.waitFor({ state: 'visible', timeout: 30_000 });
  if ((await box.getAttribute('type')) !== 'password') throw new Error('the API key box is not a password box');
  await box.fill(key);
  await box.press('Enter');
  await wb.waitForNotification(/API key saved/);
}

/** Drags the sash between the side bar and the editor so the side bar is `width` pixels wide. */
export async function widenSidebar(wb: Workbench, width: number): Promise<void> {
  const box = await wb.page.locator('.part.sidebar').boundingBox();
  if (!box) throw new Error('the side bar is not visible');
  const y = box.y + box.height / 2;
  const edge = box.x + box.width;
  await wb.page.mouse.move(edge + 1, y);
  await wb.page.mouse.down();
  await wb.page.mouse.move(box.x + width, y, { steps: 8 });
  await wb.page.mouse.up();
}

/** "Developer: Reload Window": waits for the page to load again and the workbench to render. */
export async function reloadWindow(wb: Workbench): Promise<void> {
  const loaded = wb.page.waitForEvent('load', { timeout: 60_000 });
  try {
    await wb.runCommand('Developer: Reload Window');
  } catch (err) {
    // Under full-suite load the palette once never filtered to the command (a clean-clone CI run).
    // In the web workbench the command reloads the page, so reload it the browser's way instead.
    console.warn(`      reloadWindow: ${(err as Error).message.split('\n')[0]}; reloading the page instead`);
    await wb.page.reload();
  }
  await loaded;
  await wb.page.locator(SELECTORS.statusBar).waitFor({ state: 'visible', timeout: 60_000 });
  await wb.page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
}

/** Puts the cursor on `line` (1-based) of the active editor and opens a new comment there. */
export async function commentOnLine(wb: Workbench, line: number, text: string): Promise<void> {
  const page = wb.page;
  await wb.runCommand('Go to Line/Column...');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await wb.runCommand('Comments: Add Comment on Current Selection');
  const form = page.locator('.review-widget .comment-form').last();
  await form.waitFor({ state: 'visible', timeout: 20_000 });
  // The form's input is an editor: VS Code 1.100 types through its hidden textarea, 1.106 through
  // an EditContext with no textarea, so focus it the way a person does, by clicking it. Under
  // full-suite load a click once did not take focus and the text went nowhere (a clean-clone CI
  // run): type again until the input shows it.
  const input = form.locator('.monaco-editor').first();
  for (let attempt = 1; ; attempt++) {
    await input.click();
    await page.keyboard.type(text);
    const shown = await input
      .locator('.view-lines')
      .filter({ hasText: text })
      .waitFor({ state: 'visible', timeout: 3000 })
      .then(
        () => true,
        () => false,
      );
    if (shown) break;
    assert.ok(attempt < 3, `the comment input never showed the typed text after ${attempt} tries`);
    await input.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
  }
  await page.locator('.review-widget').getByText('Add Comment', { exact: true }).last().click();
  await page.locator('.review-widget', { hasText: text }).first().waitFor({ state: 'visible', timeout: 20_000 });
}
