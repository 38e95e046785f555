/**
 * The built panel bundle in real Chromium, under the host's strict CSP, driven by the recorded
 * session in fixtures/session.json instead of a VS Code host. Screenshots of every state go to
 * test-artifacts/webview/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { DeltaOp, HostMessage, ViewState, WebviewMessage } from '../../src/protocol';
import { emptyViewState } from '../../src/protocol';
import { launchChromium } from './browser';
import { startPageServer, type PageServer, type Theme } from './pageServer';
import { gate as gateFixture, tracker as trackerFixture } from './scenes';
import { XSS_CORPUS } from './xssCorpus';

interface Harness {
  posted: WebviewMessage[];
  cspViolations: { directive: string; blocked: string; sample: string }[];
  errors: string[];
  deliver(messages: unknown[]): void;
  getState(): unknown;
}
declare global {
  interface Window {
    __harness: Harness;
    __pwned?: unknown;
  }
}

interface Recording {
  recordedAt: number;
  snapshot: HostMessage;
  scenes: { name: string; messages: HostMessage[] }[];
}

const repo = resolve(__dirname, '../..');
const artifacts = join(repo, 'test-artifacts', 'webview');
const session = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'session.json'), 'utf8')) as Recording;

/** A locator that shows each scene has rendered. */
const SCENE_MARK: Record<string, (page: Page) => ReturnType<Page['getByText']>> = {
  planning: (p) => p.getByText('One decision is yours before I write the plan.'),
  interview: (p) => p.getByRole('region', { name: 'Planwise has a question' }),
  gate: (p) => p.getByRole('region', { name: 'Ready to code?' }),
  handoff: (p) => p.getByText('Restoring approved plan...'),
  executing: (p) => p.getByRole('region', { name: 'Task tracker' }),
  blocked: (p) => p.getByText('The turn stopped after 8 blocked calls in a row.', { exact: false }),
};

describe('panel in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let server: PageServer;

  before(async function () {
    this.timeout(180_000);
    try {
      execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repo, stdio: 'pipe' });
    } catch (e) {
      const err = e as { stderr?: Buffer };
      throw new Error(`Building the bundle with 'node esbuild.mjs' failed:\n${err.stderr?.toString() ?? String(e)}`);
    }
    mkdirSync(artifacts, { recursive: true });
    server = await startPageServer();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openPanel(theme: Theme = 'dark', now?: number) {
    const page = await browser.newPage({ viewport: { width: 420, height: 860 } });
    const dialogs: string[] = [];
    const warnings: string[] = [];
    const pageErrors: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
    if (now !== undefined) await page.clock.setFixedTime(now);
    await page.goto(`${server.origin}/?theme=${theme}`);
    await page.waitForFunction(() => window.__harness.posted.some((m) => m.type === 'ready'));
    const settle = () =>
      page.evaluate(
        () => new Promise<void>((ok) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(ok, 30)))),
      );
    const deliver = async (messages: unknown[]) => {
      await page.evaluate((m) => window.__harness.deliver(m), messages);
      await settle();
    };
    const posted = () => page.evaluate(() => window.__harness.posted);
    const health = () =>
      page.evaluate(() => ({
        csp: window.__harness.cspViolations,
        errors: window.__harness.errors,
        pwned: window.__pwned,
      }));
    return { page, dialogs, warnings, pageErrors, deliver, posted, settle, health };
  }

  async function playThrough(panel: Awaited<ReturnType<typeof openPanel>>, sceneName: string) {
    await panel.deliver([session.snapshot]);
    for (const scene of session.scenes) {
      await panel.deliver(scene.messages);
      await SCENE_MARK[scene.name]!(panel.page).first().waitFor();
      if (scene.name === sceneName) return;
    }
  }

  /** The codicon classes in the page whose element shows no glyph. */
  const glyphless = (page: Page) =>
    page.evaluate(() => [
      ...new Set(
        [...document.querySelectorAll('.codicon')]
          .filter((e) => ['none', 'normal', ''].includes(getComputedStyle(e, '::before').content))
          .map((e) => e.className),
      ),
    ]);

  const activeText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

  it('loads under the strict CSP without violations or errors and says ready once', async () => {
    const panel = await openPanel();
    await panel.deliver([session.snapshot]);
    assert.ok(await panel.page.getByLabel('Message Planwise').isVisible());
    assert.equal(await panel.page.evaluate(() => customElements.get('vscode-button') !== undefined), true);
    assert.deepEqual(await panel.health(), { csp: [], errors: [], pwned: undefined });
    assert.deepEqual(panel.pageErrors, []);
    assert.deepEqual(
      (await panel.posted()).map((m) => m.type),
      ['ready'],
    );
    await panel.page.close();
  });

  it("renders the snapshot its page carries before any message, and says ready with that snapshot's seq", async () => {
    const hostile = '</script><img src=x onerror="window.__pwned=1"><!--<script>';
    const state: ViewState = {
      ...emptyViewState(),
      transcript: [{ id: 'n1', kind: 'notice', level: 'info', text: `Restored ${hostile}` }],
    };
    server.setPageSnapshot({ page: 'page-1', message: { type: 'snapshot', seq: 7, state } });
    try {
      const panel = await openPanel();
      await panel.page.getByText(`Restored ${hostile}`).waitFor({ timeout: 5_000 });
      assert.deepEqual(await panel.posted(), [{ type: 'ready', seq: 7 }]);
      assert.deepEqual(await panel.health(), { csp: [], errors: [], pwned: undefined });
      assert.equal(
        await panel.page.evaluate(() => (window.__harness.getState() as { page?: string }).page),
        'page-1',
        'the page is remembered: a view re-created from the same HTML waits for the host instead',
      );
      // The host's next delta continues from the page's seq.
      await panel.deliver([
        {
          type: 'delta',
          seq: 8,
          ops: [{ op: 'item.add', item: { id: 'n2', kind: 'notice', level: 'info', text: 'Next' } }],
        },
      ]);
      await panel.page.getByText('Next', { exact: true }).waitFor({ timeout: 5_000 });
      assert.deepEqual(
        (await panel.posted()).map((m) => m.type),
        ['ready'],
        'no resync',
      );
      await panel.page.close();
    } finally {
      server.setPageSnapshot(undefined);
    }
  });

  /** A new page of the panel's size, and the console warnings it prints. */
  const pageWithWarnings = async () => {
    const page = await browser.newPage({ viewport: { width: 420, height: 860 } });
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    return { page, warnings };
  };

  it('says a warning once when it appears; its text patched in place (a countdown) is outside every live region', async () => {
    const panel = await openPanel();
    const text = (s: number) => `Retrying in ${s} s (attempt 2 of 5): the server is busy. Stop cancels the wait.`;
    await panel.deliver([
      { type: 'snapshot', seq: 1, state: emptyViewState() },
      {
        type: 'delta',
        seq: 2,
        ops: [{ op: 'item.add', item: { id: 'r', kind: 'notice', level: 'warning', text: text(8) } }],
      },
    ]);
    const alert = panel.page.getByRole('alert').filter({ hasText: 'Retrying in' });
    await alert.waitFor({ timeout: 5_000 });
    for (let s = 7; s >= 5; s--) {
      await panel.deliver([
        { type: 'delta', seq: 10 - s, ops: [{ op: 'item.patch', id: 'r', patch: { text: text(s) } }] },
      ]);
    }
    await alert.getByText(text(5)).waitFor({ timeout: 5_000 });
    // The nearest live setting of the changing text is "off": the alert is read when it is added.
    const live = await alert.getByText(text(5)).evaluate((el) => {
      const region = el.closest('[aria-live],[role="alert"],[role="status"],[role="log"]');
      const implicit: Record<string, string> = { alert: 'assertive', status: 'polite', log: 'polite' };
      return region?.getAttribute('aria-live') ?? implicit[region?.getAttribute('role') ?? ''];
    });
    assert.equal(live, 'off');
    await panel.page.close();
  });

  it("paints the page's snapshot while its chunks are held back, then checks and renders with them", async () => {
    const state: ViewState = {
      ...emptyViewState(),
      flags: { hasApiKey: true, trusted: true },
      transcript: [
        { id: 'a1', kind: 'assistant', text: 'Restored **bold** reply', streaming: false },
        { id: 'n1', kind: 'notice', level: 'error', text: 'The request failed', actions: ['retry'] },
      ],
    };
    server.setPageSnapshot({ page: 'page-chunks', message: { type: 'snapshot', seq: 3, state } });
    const { page, warnings } = await pageWithWarnings();
    try {
      // Every chunk is held until the first paint has been seen: the paint must not wait for one.
      const requested: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/media/panel/*.js', async (route) => {
        requested.push(route.request().url().split('/').pop()!);
        await held;
        await route.continue();
      });
      await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
      await page.goto(`${server.origin}/?theme=dark`);
      await page.waitForFunction(() => performance.getEntriesByName('planwise:first-paint').length > 0, null, {
        timeout: 10_000,
      });
      assert.equal(
        await page.locator('.pw-assistant .pw-markdown').textContent(),
        'Restored **bold** reply',
        'painted from the page, as plain text until the markdown chunk comes',
      );
      await page.waitForFunction(() => window.__harness.posted.some((m) => m.type === 'ready'));
      assert.deepEqual(
        requested.sort(),
        ['check.js', 'markdown.js', 'toolkit.js'],
        'the entry is in the page; the chunks are asked for',
      );
      // Before the toolkit defines it, a button is drawn by the panel's style sheet in the theme's colours.
      const primary = page.locator('vscode-button[appearance="primary"]').first();
      const looks = () =>
        primary.evaluate((b) => {
          const box = b.getBoundingClientRect();
          return {
            defined: b.matches(':defined'),
            background: getComputedStyle(b).backgroundColor,
            display: getComputedStyle(b).display,
            width: Math.round(box.width),
            height: Math.round(box.height),
          };
        });
      const before = await looks();
      assert.deepEqual([before.defined, before.background], [false, 'rgb(0, 120, 212)']);
      release();
      await page.waitForFunction(() => customElements.get('vscode-button') !== undefined, null, { timeout: 5_000 });
      // Defined after the page's load event, the toolkit still takes the theme (webview/ui/lateLoad.ts):
      // the harness's button colour, not the toolkit's default (rgb(14, 99, 156)).
      await page.waitForFunction(
        () =>
          getComputedStyle(document.querySelector('vscode-button[appearance="primary"]')!).backgroundColor ===
          'rgb(0, 120, 212)',
        null,
        { timeout: 5_000 },
      );
      const after = await looks();
      assert.equal(after.defined, true);
      // Drawn the same before and after: no jump when the toolkit arrives.
      assert.deepEqual({ ...after, defined: false }, before, JSON.stringify({ before, after }));
      assert.equal(
        await page.evaluate(() => Object.prototype.hasOwnProperty.call(window, 'addEventListener')),
        false,
        'the window has its own addEventListener back',
      );
      await page.locator('.pw-assistant strong').waitFor({ timeout: 5_000 });
      // A host message is checked with the chunk's schemas: a malformed one is dropped, a good one applied.
      await page.evaluate(
        (m) => window.__harness.deliver(m),
        [
          { type: 'delta', seq: 4, ops: [{ op: 'gate.set' }] },
          {
            type: 'delta',
            seq: 4,
            ops: [{ op: 'item.add', item: { id: 'n', kind: 'notice', level: 'info', text: 'Checked' } }],
          },
        ],
      );
      await page.getByText('Checked', { exact: true }).waitFor({ timeout: 5_000 });
      assert.ok(
        warnings.some((w) => /Malformed host message of type 'delta'/.test(w)),
        warnings.join('\n'),
      );
      assert.deepEqual(
        await page.evaluate(() => ({ csp: window.__harness.cspViolations, errors: window.__harness.errors })),
        { csp: [], errors: [] },
      );
    } finally {
      await page.close();
      server.setPageSnapshot(undefined);
    }
  });

  it('keeps working when the toolkit chunk cannot load: it says so, and its buttons still answer clicks', async () => {
    const state: ViewState = {
      ...emptyViewState(),
      flags: { hasApiKey: true, trusted: true },
      transcript: [{ id: 'n1', kind: 'notice', level: 'error', text: 'The request failed', actions: ['retry'] }],
    };
    server.setPageSnapshot({ page: 'page-no-toolkit', message: { type: 'snapshot', seq: 3, state } });
    const { page, warnings } = await pageWithWarnings();
    try {
      await page.route('**/media/panel/toolkit.js', (route) => route.abort());
      await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
      await page.goto(`${server.origin}/?theme=dark`);
      await page.waitForFunction(() => performance.getEntriesByName('planwise:first-paint').length > 0, null, {
        timeout: 10_000,
      });
      await page.waitForFunction(() => window.__harness.posted.some((m) => m.type === 'ready'));
      for (let i = 0; i < 50 && !warnings.some((w) => /UI toolkit could not be loaded/.test(w)); i++)
        await page.waitForTimeout(100);
      assert.ok(
        warnings.some((w) => /UI toolkit could not be loaded/.test(w)),
        warnings.join('\n'),
      );
      const retry = page.getByTestId('notice-retry');
      assert.equal(await retry.evaluate((b) => b.matches(':defined')), false);
      await retry.click();
      await page.waitForFunction(() => window.__harness.posted.some((m) => m.type === 'retry'));
    } finally {
      await page.close();
      server.setPageSnapshot(undefined);
    }
  });

  it('spins the working ring, and stops it when the person asks for reduced motion', async () => {
    const busy = {
      type: 'snapshot',
      seq: 1,
      state: { ...emptyViewState(), lifecycle: { state: 'planning', mode: 'plan', busy: true } },
    };
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const panel = await openPanel();
      await panel.page.emulateMedia({ reducedMotion });
      await panel.deliver([busy]);
      const ring = panel.page.locator('.pw-ring').first();
      await ring.waitFor();
      const animation = await ring.evaluate((e) => getComputedStyle(e).animationName);
      assert.equal(animation, reducedMotion === 'reduce' ? 'none' : 'pw-spin', reducedMotion);
      await panel.page.close();
    }
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`plays the recorded session and saves a screenshot of each state (${theme})`, async () => {
      const panel = await openPanel(theme, session.recordedAt + 5_000);
      await panel.deliver([session.snapshot]);
      for (const scene of session.scenes) {
        await panel.deliver(scene.messages);
        await SCENE_MARK[scene.name]!(panel.page).first().waitFor();
        const file = join(artifacts, `${scene.name}-${theme}.png`);
        await panel.page.screenshot({ path: file });
        assert.ok(statSync(file).size > 5_000, `${file} looks empty`);
        // The page carries only the glyphs the panel names (scripts/panelStyles.mjs): each one shown has its rule.
        assert.deepEqual(await glyphless(panel.page), [], `codicons without a glyph in the ${scene.name} scene`);
      }
      // What the last scenes must show: the tracker's line, its counts once opened, and the Resume offer.
      const tracker = panel.page.getByRole('region', { name: 'Task tracker' });
      assert.match((await tracker.textContent())!, /^2\/6·step 5 awaits your check: .*33%$/);
      await tracker.locator('.pw-tracker-line').click();
      assert.match((await tracker.textContent())!, /2\/6 done · 2 in progress · 1 blocked · 1 pending · 33%/);
      await panel.page.screenshot({ path: join(artifacts, `tracker-open-${theme}.png`) });
      assert.ok(
        await panel.page.getByRole('alert').filter({ hasText: 'blocked calls' }).getByText('Resume').isVisible(),
      );
      assert.deepEqual(await panel.health(), { csp: [], errors: [], pwned: undefined });
      assert.deepEqual(panel.pageErrors, []);
      await panel.page.close();
    });
  }

  it('renders the gate readably in high contrast', async () => {
    const panel = await openPanel('hc');
    await playThrough(panel, 'gate');
    await panel.page.screenshot({ path: join(artifacts, 'gate-high-contrast.png') });
    const border = await panel.page
      .getByRole('button', { name: /No, stay in Plan mode/ })
      .evaluate((el) => getComputedStyle(el).borderTopColor);
    assert.equal(border, 'rgb(111, 195, 223)', 'high contrast draws the contrast border');
    assert.deepEqual(await panel.health(), { csp: [], errors: [], pwned: undefined });
    await panel.page.close();
  });

  it('walks the interview and the gate with the keyboard only', async () => {
    const panel = await openPanel();
    const { page } = panel;
    await playThrough(panel, 'interview');
    await panel.settle();
    assert.match(await activeText(page), /^Redis/, 'focus starts on the recommended option');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter'); // choose Redis, on to question 2
    await page.getByRole('radiogroup', { name: 'Which routes get the limit?' }).waitFor();
    await panel.settle();
    assert.match(await activeText(page), /^All public routes/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter'); // choose, focus moves to Submit
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Submit');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__harness.posted.some((m) => m.type === 'interviewResponse'));
    assert.deepEqual(
      (await panel.posted()).find((m) => m.type === 'interviewResponse'),
      {
        type: 'interviewResponse',
        requestId: 'ask-1',
        outcome: {
          kind: 'answered',
          answers: [
            { questionId: 'store', choice: 'Redis' },
            { questionId: 'scope', choice: 'Only /api/search' },
          ],
        },
      },
    );

    // The gate: its arrival takes no focus; Ctrl+Alt+Shift+G reaches its bar and Tab "stay", whose
    // Enter opens the feedback box; there Shift+Enter is a newline and Enter revises.
    await panel.deliver(session.scenes.find((s) => s.name === 'gate')!.messages);
    await page.getByRole('region', { name: 'Ready to code?' }).waitFor();
    await panel.settle();
    const inGate = () => page.evaluate(() => document.activeElement?.closest('.pw-gate') !== null);
    assert.equal(await inGate(), false, 'the gate took the focus');
    await page.keyboard.press('Control+Alt+Shift+G');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'gate');
    const tabTo = async (text: RegExp) => {
      for (let i = 0; i < 6 && !text.test(await activeText(page)); i++) await page.keyboard.press('Tab');
      assert.match(await activeText(page), text);
    };
    await tabTo(/^No, stay in Plan mode/);
    await page.keyboard.press('Enter');
    await page.getByLabel('What should change?').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'TEXTAREA');
    await page.keyboard.type('Use a sliding window');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('and per-key limits');
    await panel.settle();
    assert.equal(
      (await panel.posted()).filter((m) => m.type === 'approvalResponse').length,
      0,
      'Shift+Enter never sends',
    );
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__harness.posted.some((m) => m.type === 'approvalResponse'));
    assert.deepEqual(
      (await panel.posted()).filter((m) => m.type === 'approvalResponse'),
      [
        {
          type: 'approvalResponse',
          requestId: 'approve-1',
          decision: 'revise',
          feedback: 'Use a sliding window\nand per-key limits',
        },
      ],
    );

    // A revised plan: the focus stays out of the gate; the person goes there and picks the
    // primary choice, "clear context and implement" at 62% context.
    await panel.deliver([
      {
        type: 'delta',
        seq: session.scenes.find((s) => s.name === 'gate')!.messages.at(-1)!.seq + 1,
        ops: [{ op: 'gate.set', gate: { ...gateFixture, requestId: 'approve-2' } }],
      },
    ]);
    await panel.settle();
    assert.equal(await inGate(), false, 'the revision took the focus');
    await page.keyboard.press('Control+Alt+Shift+G');
    await tabTo(/^Yes, clear context and implement/);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__harness.posted.filter((m) => m.type === 'approvalResponse').length === 2);
    assert.deepEqual((await panel.posted()).filter((m) => m.type === 'approvalResponse').at(-1), {
      type: 'approvalResponse',
      requestId: 'approve-2',
      decision: 'fresh_context',
    });
    await page.close();
  });

  it('renders an XSS corpus of model outputs with zero script execution', async () => {
    const panel = await openPanel();
    const { page } = panel;
    const entries = Object.values(XSS_CORPUS);
    const state: ViewState = {
      ...emptyViewState(),
      flags: { hasApiKey: true, trusted: true },
      transcript: entries.flatMap((text, i) => [
        { id: `a${i}`, kind: 'assistant' as const, text, streaming: i === entries.length - 1 },
        { id: `u${i}`, kind: 'user' as const, text },
        { id: `r${i}`, kind: 'tool_result' as const, callId: `c${i}`, ok: false, bytes: text.length, preview: text },
        {
          id: `c${i}`,
          kind: 'tool_call' as const,
          callId: `c${i}`,
          name: text,
          title: text,
          subject: text,
          argsSummary: text,
          verdict: { allowed: true, reason: text },
          outcome: 'failed' as const,
          bytes: text.length,
          preview: text,
        },
        { id: `n${i}`, kind: 'notice' as const, level: 'error' as const, text },
      ]),
      gate: { ...gateFixture, title: entries[0]!, summary: entries.join('\n\n'), steps: entries },
      tracker: {
        ...trackerFixture,
        items: entries.map((description, i) => ({
          path: String(i + 1),
          description,
          status: 'pending' as const,
          files: [description],
          entries: [{ kind: 'command' as const, text: description, command: description }],
          awaitingCheck: false,
          children: [],
        })),
      },
      interview: {
        requestId: 'x',
        questions: [
          {
            id: 'q',
            header: entries[1]!,
            question: entries[2]!,
            options: [{ label: entries[3]! }, { label: entries[4]! }],
          },
        ],
      },
    };
    state.transcript.push({
      id: 'plan',
      kind: 'plan',
      markdown: entries.join('\n\n'),
      file: 'x.md',
      revision: 1,
      valid: true,
      streaming: false,
    });
    await panel.deliver([{ type: 'snapshot', seq: 1, state }]);

    // Mount every row of the virtualised transcript, open every result and click every link without a target.
    const scroller = page.locator('.pw-scroller');
    const height = await scroller.evaluate((el) => el.scrollHeight);
    for (let y = 0; y <= height; y += 300) {
      await scroller.evaluate((el, top) => el.scrollTo(0, top), y);
      await panel.settle();
      await page.evaluate(() => {
        for (const b of document.querySelectorAll<HTMLElement>('.pw-tool-result button[aria-expanded="false"]'))
          b.click();
        for (const a of document.querySelectorAll<HTMLElement>('#root a:not([href])')) {
          a.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
          a.click();
        }
      });
      await panel.settle();
    }
    await page.waitForTimeout(300);

    const found = await page.evaluate(() =>
      [
        ...document.querySelectorAll(
          '#root script, #root iframe, #root img, #root svg, #root object, #root embed, #root form:not(.pw-composer), #root style',
        ),
      ].map((el) => el.outerHTML.slice(0, 80)),
    );
    assert.deepEqual(found, []);
    assert.deepEqual(panel.dialogs, []);
    assert.equal(server.trapHits(), 0);
    assert.deepEqual(await panel.health(), { csp: [], errors: [], pwned: undefined });
    assert.deepEqual(panel.pageErrors, []);
    await page.close();
  });

  it('detects a script that did get injected (the detectors work)', async () => {
    const panel = await openPanel();
    await panel.page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__pwned = 1';
      document.body.append(s);
    });
    await panel.page.waitForFunction(() => window.__harness.cspViolations.length > 0);
    const health = await panel.health();
    assert.equal(health.pwned, undefined, 'the CSP blocked it');
    assert.match(health.csp[0]?.directive ?? '', /^script-src/);
    await panel.page.close();
  });

  it('ignores malformed host messages and keeps working', async () => {
    const panel = await openPanel();
    await panel.deliver([session.snapshot]);
    await panel.deliver([
      null,
      'snapshot',
      { type: 'delta', seq: 2, ops: [{ op: 'item.add', item: { id: 'x', kind: 'html', text: '<b>x</b>' } }] },
      { type: 'snapshot', seq: 1, state: { transcript: 42 } },
      { type: 'delta', seq: 2, ops: [{ op: 'item.add', item: { id: 'ok', kind: 'user', text: 'still here' } }] },
    ]);
    await panel.page.getByText('still here').waitFor();
    assert.equal(panel.warnings.filter((w) => w.includes('Malformed host message')).length, 4);
    assert.deepEqual(panel.pageErrors, []);
    assert.deepEqual(await panel.health(), { csp: [], errors: [], pwned: undefined });
    assert.equal((await panel.posted()).filter((m) => m.type === 'resync').length, 0);
    await panel.page.close();
  });

  it('asks for a snapshot after a sequence gap', async () => {
    const panel = await openPanel();
    await panel.deliver([session.snapshot]);
    await panel.deliver([session.scenes[0]!.messages[1]]); // skips seq 2
    await panel.page.waitForFunction(() => window.__harness.posted.some((m) => m.type === 'resync'));
    assert.deepEqual(
      (await panel.posted()).find((m) => m.type === 'resync'),
      { type: 'resync', lastSeq: session.snapshot.seq },
    );
    await panel.page.close();
  });

  it('follows the stream, stops when the person scrolls up, and never pulls them back', async () => {
    const panel = await openPanel();
    const { page } = panel;
    const notes = Array.from({ length: 400 }, (_, i) => ({
      id: `n${i}`,
      kind: 'notice' as const,
      level: 'info' as const,
      text: `Earlier note ${i}: read src/file${i}.ts`,
    }));
    await panel.deliver([
      {
        type: 'snapshot',
        seq: 1,
        state: {
          ...emptyViewState(),
          flags: { hasApiKey: true, trusted: true },
          transcript: [...notes, { id: 's', kind: 'assistant', text: '', streaming: true }],
        },
      },
    ]);
    let seq = 1;
    const stream = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const ops: DeltaOp[] = [{ op: 'item.append', id: 's', text: `token ${seq} and some more words. ` }];
        if (i % 10 === 9)
          ops.push({ op: 'item.add', item: { id: `x${seq}`, kind: 'notice', level: 'info', text: `progress ${seq}` } });
        await panel.deliver([{ type: 'delta', seq: ++seq, ops }]);
      }
    };
    const distanceFromBottom = () =>
      page.locator('.pw-scroller').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await stream(30);
    assert.ok((await distanceFromBottom()) <= 24, 'follows the stream');
    assert.ok((await page.locator('.pw-row').count()) < 80, 'only rows near the viewport are in the DOM');

    const box = (await page.locator('.pw-scroller').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -900);
    await panel.settle();
    const top = await page.locator('.pw-scroller').evaluate((el) => el.scrollTop);
    await stream(30);
    assert.ok(Math.abs((await page.locator('.pw-scroller').evaluate((el) => el.scrollTop)) - top) <= 2, 'did not move');
    assert.ok((await distanceFromBottom()) > 300);
    await page.waitForTimeout(400); // the scroll position is saved a moment after scrolling stops
    const saved = (await page.evaluate(() => window.__harness.getState())) as { scrollTop: number; follow: boolean };
    assert.equal(saved.follow, false);
    assert.ok(Math.abs(saved.scrollTop - top) <= 2, 'the scroll position is kept in the UI state');
    await page.getByRole('button', { name: 'Jump to latest' }).click();
    await stream(5);
    assert.ok((await distanceFromBottom()) <= 24, 'follows again');
    assert.deepEqual(panel.pageErrors, []);
    await page.close();
  });
});
