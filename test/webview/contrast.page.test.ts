/**
 * WCAG AA contrast, measured in real Chromium from computed colours (not by eye) in the four
 * themes: every text at least 4.5:1 against what is really behind it, and chips and badges at
 * least 3:1, through every recorded scene of a session plus the setup card, a failed request,
 * the build's final card and a file tool's row opened to its diff; in the high contrast themes,
 * the selected Plan/Build mode is told by an outline and its weight, not by colour alone.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { emptyViewState, type HostMessage, type ViewState } from '../../src/protocol';
import { launchChromium } from './browser';
import { startPageServer, type PageServer, type Theme } from './pageServer';
import { reportScene } from './reportScene';

const repo = resolve(__dirname, '../..');
const session = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'session.json'), 'utf8')) as {
  snapshot: HostMessage;
  scenes: { name: string; messages: HostMessage[] }[];
};

/** Runs in the page: every text and chip below #root whose contrast is under its threshold. */
function measure(): string[] {
  type C = { r: number; g: number; b: number; a: number };
  const parse = (s: string): C => {
    const n = s.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
    const srgb = s.startsWith('color(srgb');
    const k = srgb ? 255 : 1;
    return { r: n[0]! * k, g: n[1]! * k, b: n[2]! * k, a: n.length > 3 ? n[3]! : 1 };
  };
  const over = (top: C, under: C): C => {
    const a = top.a + under.a * (1 - top.a);
    const mix = (x: number, y: number) => (x * top.a + y * under.a * (1 - top.a)) / (a || 1);
    return { r: mix(top.r, under.r), g: mix(top.g, under.g), b: mix(top.b, under.b), a };
  };
  const lum = (c: C) => {
    const f = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const ratio = (x: C, y: C) => {
    const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p);
    return (a! + 0.05) / (b! + 0.05);
  };
  const behind = (el: Element | null): C => {
    const layers: C[] = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.a > 0) layers.push(c);
      if (c.a >= 1) break;
    }
    let col: C = parse(getComputedStyle(document.documentElement).backgroundColor);
    if (col.a < 1) col = over(col, { r: 255, g: 255, b: 255, a: 1 });
    for (const l of layers.reverse()) col = over(l, col);
    return col;
  };
  const shown = (el: Element) => {
    const s = getComputedStyle(el);
    return el.getClientRects().length > 0 && s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
  };
  const bad: string[] = [];
  const root = document.getElementById('root')!;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const seen = new Set<Element>();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || seen.has(el) || !n.textContent?.trim() || !shown(el) || el.closest('.pw-sr-only')) continue;
    seen.add(el);
    const bg = behind(el);
    const fg = over(parse(getComputedStyle(el).color), bg);
    const r = ratio(fg, bg);
    if (r < 4.5)
      bad.push(`text ${r.toFixed(2)}:1 "${n.textContent.trim().slice(0, 40)}" (${el.className || el.tagName})`);
  }
  for (const chip of root.querySelectorAll('.pw-tag, .pw-pill, .pw-verify-cmd')) {
    if (!shown(chip)) continue;
    const s = getComputedStyle(chip);
    const own = parse(s.backgroundColor);
    const border = parse(s.borderTopColor);
    const around = behind(chip.parentElement);
    // A chip is told apart by its fill or its border, whichever is stronger.
    const fill = own.a > 0 ? ratio(over(own, around), around) : 1;
    const edge = Number.parseFloat(s.borderTopWidth) > 0 && border.a > 0 ? ratio(over(border, around), around) : 1;
    const text = ratio(over(parse(s.color), behind(chip)), behind(chip));
    if (Math.max(fill, edge) < 3 && own.a > 0 && fill > 1.01)
      bad.push(`chip edge ${Math.max(fill, edge).toFixed(2)}:1 (${chip.className || chip.tagName})`);
    if (text < 3) bad.push(`chip text ${text.toFixed(2)}:1 (${chip.className || chip.tagName})`);
  }
  return bad;
}

describe('contrast in the four themes (Chromium)', function () {
  this.timeout(180_000);
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

  for (const theme of ['hc', 'hcLight'] as Theme[]) {
    it(`the selected Plan/Build mode shows by more than colour (${theme})`, async () => {
      const page = await browser.newPage({ viewport: { width: 300, height: 600 } });
      await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
      await page.addInitScript('window.__name = (f) => f');
      await page.goto(`${server.origin}/?theme=${theme}`);
      await page.waitForFunction(() =>
        (window as never as { __harness: { posted: { type: string }[] } }).__harness.posted.some(
          (m) => m.type === 'ready',
        ),
      );
      const deliver = (m: unknown[]) =>
        page.evaluate(
          (x) => (window as never as { __harness: { deliver(y: unknown[]): void } }).__harness.deliver(x),
          m,
        );
      /** Each mode button: pressed or not, its outline (width, contrast against what is behind), its weight. */
      const modes = () =>
        page.evaluate(() => {
          const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
          const lum = (c: number[]) =>
            c
              .map((v) => v / 255)
              .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
              .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
          const ratio = (a: number[], b: number[]) => {
            const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
            return (x! + 0.05) / (y! + 0.05);
          };
          const clear = (c: string) => c === 'transparent' || /rgba\(.*,\s*0\)$/.test(c);
          /** The first fill behind `el`, itself included. */
          const behind = (el: Element | null): string => {
            for (let e = el; e; e = e.parentElement) {
              const c = getComputedStyle(e).backgroundColor;
              if (!clear(c)) return c;
            }
            return getComputedStyle(document.documentElement).backgroundColor;
          };
          return [...document.querySelectorAll('.pw-mode')].map((b) => {
            const s = getComputedStyle(b);
            const fill = behind(b);
            const width = s.outlineStyle === 'none' ? 0 : Number.parseFloat(s.outlineWidth);
            return {
              label: b.textContent,
              pressed: b.getAttribute('aria-pressed'),
              outline: width,
              edge: width > 0 ? Number(ratio(rgb(s.outlineColor), rgb(fill)).toFixed(2)) : 0,
              weight: Number(s.fontWeight),
            };
          });
        });
      for (const mode of ['plan', 'build'] as const) {
        const state: ViewState = { ...emptyViewState(), lifecycle: { state: 'idle', mode, busy: false } };
        await deliver([{ type: 'snapshot', seq: 1, state }]);
        await page.waitForFunction(
          (m) => document.querySelector('.pw-mode[aria-pressed="true"]')?.textContent === m,
          mode === 'plan' ? 'Plan' : 'Build',
        );
        const [on, off] = (await modes()).sort((a, b) => (a.pressed === 'true' ? -1 : b.pressed === 'true' ? 1 : 0));
        assert.equal(on!.pressed, 'true', JSON.stringify(on));
        assert.equal(off!.pressed, 'false');
        assert.equal(off!.outline, 0, `the mode not selected has no outline: ${JSON.stringify(off)}`);
        assert.ok(on!.outline >= 1, `the selected mode has an outline: ${JSON.stringify(on)}`);
        assert.ok(on!.edge >= 3, `its outline stands out at least 3:1: ${JSON.stringify(on)}`);
        assert.ok(on!.weight > off!.weight, `and a heavier label: ${JSON.stringify([on, off])}`);
      }
      await page.close();
    });
  }

  for (const theme of ['dark', 'light', 'hc', 'hcLight'] as Theme[]) {
    it(`text >= 4.5:1 and chips >= 3:1 in every scene (${theme})`, async () => {
      const page = await browser.newPage({ viewport: { width: 420, height: 1400 } });
      await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
      // tsx names functions with a helper the page does not have.
      await page.addInitScript('window.__name = (f) => f');
      await page.goto(`${server.origin}/?theme=${theme}`);
      await page.waitForFunction(() =>
        (window as never as { __harness: { posted: { type: string }[] } }).__harness.posted.some(
          (m) => m.type === 'ready',
        ),
      );
      const deliver = (m: unknown[]) =>
        page.evaluate(
          (x) => (window as never as { __harness: { deliver(y: unknown[]): void } }).__harness.deliver(x),
          m,
        );
      const problems = new Set<string>();
      await deliver([session.snapshot]);
      for (const scene of session.scenes) {
        await deliver(scene.messages);
        await page.waitForTimeout(150);
        for (const p of await page.evaluate(measure)) problems.add(`${scene.name}: ${p}`);
      }
      // The setup card (first run, a URL being checked, a failed test) and a failed request's notice.
      const extra: ViewState = {
        ...emptyViewState(),
        flags: { hasApiKey: false, keyRequired: true, trusted: false, provider: { label: 'OpenAI', model: 'gpt-4.1' } },
        transcript: [
          { id: 'u', kind: 'user', text: 'add a greeting helper' },
          {
            id: 'e',
            kind: 'notice',
            level: 'error',
            text: 'Cannot reach the model at http://localhost:11434/v1: connection refused.',
            actions: ['retry', 'changeProvider'],
          },
        ],
        setup: {
          reason: 'first-run',
          draft: { choice: 'other', baseUrl: 'ftp://x', model: '' },
          url: { ok: false, error: '"ftp://x" must start with http:// or https://.' },
          local: false,
          keyRow: true,
          hasKey: false,
          models: { status: 'failed', ids: [], error: 'Could not reach it.' },
          test: { status: 'failed', text: 'Could not reach http://x/models: connection refused.' },
        },
      };
      await deliver([{ type: 'snapshot', seq: 1, state: extra }]);
      await page.waitForTimeout(150);
      for (const p of await page.evaluate(measure)) problems.add(`setup: ${p}`);
      // The build's final card, its steps and files open (incomplete, one file out of scope).
      const built: ViewState = {
        ...emptyViewState(),
        lifecycle: { state: 'executing', mode: 'build', busy: false },
        flags: { hasApiKey: true, trusted: true },
        transcript: [reportScene().item],
      };
      await deliver([{ type: 'snapshot', seq: 1, state: built }]);
      await page.waitForTimeout(150);
      for (const p of await page.evaluate(measure)) problems.add(`build report: ${p}`);
      // A file tool's row with its counts, opened to its diff.
      const edited: ViewState = {
        ...built,
        transcript: [
          {
            id: 'edit',
            kind: 'tool_call',
            callId: 'e',
            name: 'edit_file',
            title: 'Edited src/a.ts',
            subject: 'src/a.ts',
            argsSummary: 'src/a.ts',
            verdict: { allowed: true, reason: 'in the plan' },
            outcome: 'ok',
            bytes: 60,
            preview: 'edited src/a.ts',
            change: {
              added: 2,
              removed: 1,
              diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n+C\n c\n\\ No newline at end of file',
              omitted: 3,
            },
          },
        ],
      };
      await deliver([{ type: 'snapshot', seq: 1, state: edited }]);
      await page.locator('.pw-tool-change .pw-disclosure').click();
      await page.locator('.pw-diff').waitFor();
      for (const p of await page.evaluate(measure)) problems.add(`diff: ${p}`);
      await page.close();
      assert.deepEqual([...problems], []);
    });
  }
});
