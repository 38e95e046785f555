/**
 * The panel speaks to people: through every recorded scene of a session, plus a gate with open
 * review comments, a Stop, a silent stream and a search row, the page's
 * visible text (real Chromium, the built bundle) holds no raw tool name, no `ctx`, no `KiB`, no
 * "first draft" and no internal id (item, call, request or session ids).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { emptyViewState, type HostMessage, type ViewState } from '../../src/protocol';
import { launchChromium } from './browser';
import { startPageServer, type PageServer } from './pageServer';
import { budget, gate } from './scenes';

const repo = resolve(__dirname, '../..');
const session = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'session.json'), 'utf8')) as {
  snapshot: HostMessage;
  scenes: { name: string; messages: HostMessage[] }[];
};

/** Every tool name the engine registers, read from the tools' own sources. */
function toolNames(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/\bname: '([a-z]+(?:_[a-z]+)+)'/g)) names.add(m[1]!);
      }
    }
  };
  walk(join(repo, 'src', 'core', 'tools'));
  return [...names];
}

/** The ids a host message carries (item, call, request, session), which a person never needs to read. */
function idsOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => idsOf(v, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // Ids made by machines (with a digit: "c1", "call-2", "approve-1", a session's), not words a
      // person also writes (an interview question's "store").
      if (typeof v === 'string' && /^(id|callId|requestId|sessionId)$/.test(k) && /\d/.test(v)) into.add(v);
      else idsOf(v, into);
    }
  }
  return into;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function problemsIn(text: string, tools: readonly string[], ids: Iterable<string>): string[] {
  const found: string[] = [];
  for (const t of tools) if (new RegExp(`\\b${t}\\b`).test(text)) found.push(`tool name ${t}`);
  if (/\bctx\b/.test(text)) found.push('ctx');
  if (/KiB|MiB/.test(text)) found.push('KiB');
  if (/first draft/i.test(text)) found.push('first draft');
  for (const id of ids) {
    if (new RegExp(`(^|[^\\w-])${escape(id)}($|[^\\w-])`).test(text)) found.push(`internal id ${id}`);
  }
  return found;
}

describe('panel words in Chromium', function () {
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

  async function open(): Promise<{ page: Page; deliver: (m: unknown[]) => Promise<void> }> {
    const page = await browser.newPage({ viewport: { width: 300, height: 800 } });
    await page.addInitScript({ path: join(__dirname, 'harness', 'harness.js') });
    await page.addInitScript('window.__name = (f) => f');
    await page.goto(`${server.origin}/?theme=dark`);
    await page.waitForFunction(() =>
      (window as never as { __harness: { posted: { type: string }[] } }).__harness.posted.some(
        (m) => m.type === 'ready',
      ),
    );
    const deliver = async (m: unknown[]) => {
      await page.evaluate(
        (x) => (window as never as { __harness: { deliver(y: unknown[]): void } }).__harness.deliver(x),
        m,
      );
      await page.waitForTimeout(100);
    };
    return { page, deliver };
  }

  /** The text a person sees, with every collapsed detail opened first. */
  const visibleText = async (page: Page) => {
    await page.evaluate(() => {
      for (const d of document.querySelectorAll('details')) d.open = true;
    });
    await page.waitForTimeout(50);
    return page.locator('#root').innerText();
  };

  it('finds no tool name, ctx, KiB, "first draft" or internal id in any scene', async () => {
    const tools = toolNames();
    assert.ok(tools.includes('read_file') && tools.includes('request_user_input'), `tools: ${tools.join(', ')}`);
    const { page, deliver } = await open();
    const problems = new Set<string>();
    const ids = idsOf(session);
    await deliver([session.snapshot]);
    for (const scene of session.scenes) {
      await deliver(scene.messages);
      for (const p of problemsIn(await visibleText(page), tools, ids)) problems.add(`${scene.name}: ${p}`);
    }

    // More states: a gate with open review comments, a search row, a Stop, a wait.
    const extra: ViewState = {
      ...emptyViewState(),
      lifecycle: { state: 'planning', mode: 'plan', busy: true, waitingSince: Date.now() - 34_000 },
      flags: { hasApiKey: true, trusted: true },
      budget: budget(10, 4, 32_000),
      transcript: [
        { id: 'u-9', kind: 'user', text: 'add a greeting helper' },
        {
          id: 'call-7f3a',
          kind: 'tool_call',
          callId: 'call-7f3a',
          name: 'code_search',
          title: 'Searched src for `parse(`',
          subject: 'src',
          argsSummary: 'parse(',
          outcome: 'ok',
          bytes: 5000,
          preview: 'src/a.ts:3: parse(',
        },
        { id: 'n-4', kind: 'notice', level: 'info', text: 'Stopped.' },
      ],
      gate: {
        ...gate,
        revision: 1,
        changes: undefined as never,
        hasPreviousRevision: false,
        openComments: [
          { id: 'c1', label: 'step 2', line: 12, outdated: false, answered: false },
          { id: 'c2', label: 'the summary', line: 5, outdated: true, answered: true },
        ],
      },
    };
    delete (extra.gate as { changes?: string }).changes;
    const moreIds = idsOf(extra);
    await deliver([{ type: 'snapshot', seq: 100_000, state: extra }]);
    const text = await visibleText(page);
    assert.match(text, /Waiting for the model · 3\d s/);
    for (const p of problemsIn(text, tools, moreIds)) problems.add(`more states: ${p}`);
    await page.close();
    assert.deepEqual([...problems], []);
  });
});
