/**
 * The panel's first meaningful paint, measured inside the webview: the first frame painted after
 * the host's first snapshot was rendered (the panel then shows what the host holds: the idle
 * state, a restored transcript, the setup card). Recorded as the performance mark
 * `planwise:first-paint` whose `detail` says how long after the host resolved the view
 * (`sinceResolveMs`, from the `data-resolved-at` the host writes on `<body>`, both wall clocks of
 * the same machine) and after this document's navigation started (`sinceNavigationMs`). The e2e
 * reads the mark from the frame; nothing is sent anywhere.
 */
export const FIRST_PAINT_MARK = 'planwise:first-paint';

export interface FirstPaintDetail {
  readonly sinceResolveMs: number | null;
  readonly sinceNavigationMs: number;
}

/** Calls `painted` once, after the frame that follows `rendered` has been presented. */
export function afterNextPaint(painted: () => void): void {
  // rAF runs before the frame's style, layout and paint; a task queued from it runs after them.
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      // Closed once used: an open port is a live handle (it kept the test process running).
      channel.port1.close();
      painted();
    };
    channel.port2.postMessage(undefined);
  });
}

/**
 * Marks the first paint after `ready()` first holds, checked each time `subscribe`'s listener
 * runs (the store notifies after it applied a snapshot; Preact renders in the same task).
 */
export function markFirstPaint(subscribe: (listener: () => void) => () => void, ready: () => boolean): void {
  let stop: (() => void) | undefined;
  const check = () => {
    if (!ready()) return;
    stop?.();
    stop = () => {};
    afterNextPaint(() => {
      const resolvedAt = Number(document.body.dataset['resolvedAt']);
      const detail: FirstPaintDetail = {
        sinceResolveMs: Number.isFinite(resolvedAt) && resolvedAt > 0 ? Date.now() - resolvedAt : null,
        sinceNavigationMs: performance.now(),
      };
      performance.mark(FIRST_PAINT_MARK, { detail });
    });
  };
  stop = subscribe(check);
  check();
}
