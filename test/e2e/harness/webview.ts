// Finds the content frame of a webview view in VS Code's web workbench (1.106, and 1.100 for the smoke).
//
// How webview views are laid out there (checked on code-server 4.100.3 and 4.106.3):
// - A webview is NOT inside its view's DOM. The workbench keeps an overlay `<div>` per webview at the
//   root of `.monaco-workbench` and positions it over the view's `.pane-body`; when the view is hidden
//   the overlay is hidden too (zero size or `visibility: hidden`).
// - The overlay holds the OUTER frame: `iframe.webview` (class `ready` once booted), served from
//   `.../static/out/vs/workbench/contrib/webview/browser/pre/index.html?id=…&extensionId=<publisher.name>&purpose=webviewView…`.
// - The outer frame holds the INNER frame with the extension's HTML: `iframe#active-frame`
//   (named `pending-frame` while its first document loads, then renamed `active-frame`).
// - The view itself is a `.pane` whose `.pane-header` has `aria-label="<View Name> Section"`; when a
//   view container has a single view the header is hidden (class `hidden`) but still present.
// So: find the view's `.pane-body`, pick the visible `iframe.webview.ready` whose centre lies inside
// it, and descend into `iframe#active-frame`.
import type { Frame, Page } from 'playwright-core';

interface Candidate {
  index: number;
  extensionId: string;
  inside: boolean;
}

/** Returns the inner frame of the webview shown in the view titled `viewTitle` (or the only visible webview). */
export async function findWebviewFrame(page: Page, viewTitle: string | undefined, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = '';
  while (Date.now() < deadline) {
    const found = await page.evaluate((title: string | null) => {
      let body: DOMRect | null = null;
      if (title !== null) {
        const want = `${title} Section`.toLowerCase();
        const header = Array.from(document.querySelectorAll('.pane > .pane-header')).find((h) =>
          (h.getAttribute('aria-label') ?? '').toLowerCase().startsWith(want),
        );
        const paneBody = header?.parentElement?.querySelector(':scope > .pane-body');
        if (!paneBody) return { problem: `no open view titled "${title}"`, candidates: [] };
        body = paneBody.getBoundingClientRect();
        if (body.width === 0 || body.height === 0)
          return { problem: `the view "${title}" is collapsed`, candidates: [] };
      }
      const frames = Array.from(document.querySelectorAll('iframe.webview'));
      const candidates = frames.flatMap((f, index) => {
        const r = f.getBoundingClientRect();
        const style = getComputedStyle(f);
        if (!f.classList.contains('ready') || r.width === 0 || r.height === 0 || style.visibility === 'hidden')
          return [];
        const cx = r.left + r.width / 2;
        const cy = r.top + r.height / 2;
        const inside = body === null || (cx >= body.left && cx <= body.right && cy >= body.top && cy <= body.bottom);
        const extensionId = new URL((f as HTMLIFrameElement).src).searchParams.get('extensionId') ?? '?';
        return [{ index, extensionId, inside }];
      });
      return { problem: '', candidates };
    }, viewTitle ?? null);

    const matching: Candidate[] = found.candidates.filter((c) => c.inside);
    if (found.problem) {
      lastProblem = found.problem;
    } else if (matching.length === 1 && matching[0]) {
      const inner = await innerFrame(page, matching[0].index, Math.max(1000, deadline - Date.now()));
      if (inner) return inner;
      lastProblem = 'the webview has not loaded its content yet';
    } else if (matching.length === 0) {
      lastProblem = viewTitle ? `no visible webview over the view "${viewTitle}"` : 'no visible webview';
    } else {
      lastProblem = `${matching.length} visible webviews (${matching.map((c) => c.extensionId).join(', ')}); pass the view title`;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(
    `Could not find the webview frame: ${lastProblem}. Open the view first, e.g. runCommand("<Container>: Focus on <View> View").`,
  );
}

async function innerFrame(page: Page, index: number, timeoutMs: number): Promise<Frame | null> {
  const outerHandle = await page.locator('iframe.webview').nth(index).elementHandle();
  const outer = await outerHandle?.contentFrame();
  if (!outer) return null;
  try {
    const innerHandle = await outer.locator('iframe#active-frame').elementHandle({ timeout: timeoutMs });
    const inner = await innerHandle.contentFrame();
    if (!inner) return null;
    await inner.waitForLoadState('domcontentloaded', { timeout: timeoutMs });
    return inner;
  } catch {
    return null;
  }
}
