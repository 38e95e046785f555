import './setupDom';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { FIRST_PAINT_MARK, markFirstPaint, type FirstPaintDetail } from '../../webview/firstPaint';

describe('webview: the first meaningful paint mark', () => {
  // Saved when the tests run, not when the file loads: the suite's shared DOM must come back as it was.
  let saved: { document: Document; raf: typeof globalThis.requestAnimationFrame };
  let frames: (() => void)[];
  beforeEach(() => {
    saved = { document: globalThis.document, raf: globalThis.requestAnimationFrame };
    const dom = new JSDOM(`<body data-resolved-at="${Date.now() - 40}"></body>`);
    globalThis.document = dom.window.document;
    frames = [];
    globalThis.requestAnimationFrame = (f: FrameRequestCallback) => frames.push(() => f(0));
    performance.clearMarks(FIRST_PAINT_MARK);
  });
  afterEach(() => {
    globalThis.document = saved.document;
    globalThis.requestAnimationFrame = saved.raf;
    performance.clearMarks(FIRST_PAINT_MARK);
  });

  const marks = () => performance.getEntriesByName(FIRST_PAINT_MARK) as PerformanceMark[];
  /** Runs the pending animation frames, then lets the task queued from them run. */
  const paint = async () => {
    for (const f of frames.splice(0)) f();
    await new Promise((r) => setTimeout(r, 20));
  };

  it('marks once, after the frame that follows the first snapshot, timed from the host resolve', async () => {
    let ready = false;
    const listeners = new Set<() => void>();
    markFirstPaint(
      (l) => (listeners.add(l), () => listeners.delete(l)),
      () => ready,
    );
    await paint();
    assert.equal(marks().length, 0, 'no mark before the snapshot');
    ready = true;
    for (const l of [...listeners]) l();
    assert.equal(marks().length, 0, 'no mark before the frame is painted');
    await paint();
    assert.equal(marks().length, 1);
    const detail = marks()[0]!.detail as FirstPaintDetail;
    assert.ok(detail.sinceResolveMs !== null && detail.sinceResolveMs >= 40, JSON.stringify(detail));
    assert.equal(typeof detail.sinceNavigationMs, 'number');
    assert.equal(listeners.size, 0, 'it stops listening');
    for (const l of [...listeners]) l();
    await paint();
    assert.equal(marks().length, 1, 'later snapshots do not mark again');
  });

  it('has no resolve time when the page carries none', async () => {
    globalThis.document = new JSDOM('<body></body>').window.document;
    markFirstPaint(
      () => () => {},
      () => true,
    );
    await paint();
    assert.equal((marks()[0]!.detail as FirstPaintDetail).sinceResolveMs, null);
  });
});
