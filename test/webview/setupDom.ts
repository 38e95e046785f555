/**
 * A jsdom window as the global environment for component tests. Import it first in every
 * webview test file: the toolkit and DOMPurify read the globals when they load.
 */
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', {
  pretendToBeVisual: true,
  url: 'https://planwise.test/',
});
const win = dom.window as unknown as Window & typeof globalThis & Record<string, unknown>;

// jsdom lacks matchMedia; the toolkit asks it for the forced-colours state.
win.matchMedia = ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener() {},
  removeListener() {},
  addEventListener() {},
  removeEventListener() {},
  dispatchEvent: () => false,
})) as unknown as typeof win.matchMedia;

const g = globalThis as unknown as Record<string, unknown>;
for (const key of Object.getOwnPropertyNames(win)) {
  if (key in g) continue;
  try {
    g[key] = win[key];
  } catch {
    // read-only on this side: Node's own global stays
  }
}
g.window = win;
g.document = win.document;
g.navigator = win.navigator;

export const jsdomWindow = win;
