/**
 * Keyboard-only helpers for the panel: focusing the view the way a person does (the palette's
 * "Focus on Planning View") and waiting until the webview really holds the focus, reading what is
 * focused from Chromium's own accessibility tree (role, accessible name and description, as a
 * screen reader gets them), and counting the Tab presses from there to a control.
 */
import type { CDPSession, Frame } from 'playwright-core';
import type { Workbench } from '../harness';
import { FOCUS_PANEL, type Panel } from './ui';

export interface Focused {
  readonly role: string;
  readonly name: string;
  readonly description: string;
}

interface AXValue {
  value?: unknown;
}
interface AXNode {
  ignored?: boolean;
  role?: AXValue;
  name?: AXValue;
  description?: AXValue;
}
interface FrameTree {
  frame: { id: string; url: string };
  childFrames?: FrameTree[];
}

/** Where the frame's focus is, as a short CSS-ish path (for failure messages). */
function describeActive(frame: Frame): Promise<string> {
  return frame
    .evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return document.hasFocus() ? 'body' : 'outside the panel';
      return `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 60)}"`;
    })
    .catch(() => 'unknown');
}

/**
 * The focused element of `frame` as Chromium's accessibility tree has it: the element that is the
 * frame's `document.activeElement`, read through CDP in an isolated world of that frame, and its
 * node in the accessibility tree (`Accessibility.getPartialAXTree`: role, name, description as
 * Chromium computes them for a screen reader).
 */
export async function focusedAccessible(wb: Workbench, frame: Frame): Promise<Focused> {
  // CDP knows the inner frame by its first URL (the outer frame's, index.html?id=<webview id>), not
  // by the fake.html Playwright reports: both carry the webview's id, and the inner frame is the leaf.
  const id = new URL(frame.url()).searchParams.get('id');
  if (!id) throw new Error(`the panel's frame has no webview id in its URL ${frame.url()}`);
  const cdp: CDPSession = await wb.page.context().newCDPSession(wb.page);
  try {
    const { frameTree } = (await cdp.send('Page.getFrameTree')) as { frameTree: FrameTree };
    const ids: string[] = [];
    const walk = (t: FrameTree) => {
      const children = t.childFrames ?? [];
      if (children.length === 0 && new URL(t.frame.url).searchParams.get('id') === id) ids.push(t.frame.id);
      for (const c of children) walk(c);
    };
    walk(frameTree);
    if (ids.length !== 1) throw new Error(`${ids.length} frames of the page carry the panel's webview id ${id}`);
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', {
      frameId: ids[0]!,
      worldName: 'planwise-e2e-a11y',
    });
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: 'document.activeElement === document.body ? null : document.activeElement',
      contextId: executionContextId,
    });
    if (!result.objectId) {
      throw new Error(`nothing in the panel has the focus (focus: ${await describeActive(frame)})`);
    }
    const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', {
      objectId: result.objectId,
      fetchRelatives: false,
    })) as { nodes: AXNode[] };
    const node = nodes[0];
    if (!node || node.ignored) {
      throw new Error(`the focused element is not in the accessibility tree (focus: ${await describeActive(frame)})`);
    }
    return {
      role: String(node.role?.value ?? ''),
      name: String(node.name?.value ?? ''),
      description: String(node.description?.value ?? ''),
    };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * "Planwise: Focus on Planning View" from the palette, then waits until the panel's document has
 * the focus on a control (not its body): the real condition the first key press needs.
 */
export async function focusView(wb: Workbench, panel: Panel, timeoutMs = 30_000): Promise<Frame> {
  await wb.runCommand(FOCUS_PANEL);
  const frame = await panel.frame();
  try {
    await frame.waitForFunction(
      () => document.hasFocus() && document.activeElement !== null && document.activeElement !== document.body,
      undefined,
      { timeout: timeoutMs, polling: 100 },
    );
  } catch (err) {
    throw new Error(
      `Focus on Planning View never put the focus on a control in the panel (focus: ${await describeActive(frame)}).`,
      {
        cause: err,
      },
    );
  }
  return frame;
}

/** Waits until the focused control's accessible name is `name` (focus that moves by itself, e.g. a new gate). */
export async function waitForFocus(wb: Workbench, panel: Panel, name: string, timeoutMs = 30_000): Promise<Focused> {
  const deadline = Date.now() + timeoutMs;
  let last: Focused | string = '';
  for (;;) {
    const frame = await panel.frame();
    last = await focusedAccessible(wb, frame).catch((err: unknown) => String(err));
    if (typeof last !== 'string' && last.name === name) return last;
    if (Date.now() >= deadline) {
      throw new Error(`The focus never reached "${name}" within ${timeoutMs} ms; it is on ${JSON.stringify(last)}.`);
    }
    await frame.waitForTimeout(100);
  }
}

/**
 * From wherever the focus is in the panel, presses Tab (or Shift+Tab when `selector` comes before
 * the focus in the document) until Chromium's accessibility tree reports the focused element named
 * `name`, at most `max` presses. Returns the presses made and what is focused then.
 */
export async function tabTo(
  wb: Workbench,
  panel: Panel,
  selector: string,
  name: string,
  max = 5,
): Promise<{ presses: number; key: 'Tab' | 'Shift+Tab'; focused: Focused }> {
  const frame = await panel.frame();
  const backwards = await frame
    .locator(selector)
    .first()
    .evaluate((target) => {
      const active = document.activeElement;
      if (!active || active === document.body || active === target) return false;
      return (active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
    });
  const key = backwards ? 'Shift+Tab' : 'Tab';
  const seen: string[] = [];
  for (let presses = 0; ; presses++) {
    const focused = await focusedAccessible(wb, frame);
    seen.push(`${focused.role} "${focused.name}"`);
    if (focused.name === name) return { presses, key, focused };
    if (presses >= max) {
      throw new Error(`${max} ${key} presses did not reach "${name}"; the focus went: ${seen.join(' → ')}`);
    }
    await wb.page.keyboard.press(key);
  }
}
