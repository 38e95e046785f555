/**
 * The toolkit applies VS Code's theme to its design tokens on the window's `load` event, from a
 * listener it adds while its module is evaluated. The toolkit is a chunk loaded after the panel's
 * first paint (toolkitChunk.ts), which is usually after that event, when such a listener would
 * never run. This module is imported by the chunk before the toolkit: while the toolkit evaluates,
 * a `load` listener added once the page has loaded runs at once (in a microtask) instead.
 * `endLateLoad()` puts the window's own `addEventListener` back.
 */
type Add = typeof window.addEventListener;

const late = typeof window !== 'undefined' && document.readyState === 'complete';

if (late) {
  const add = EventTarget.prototype.addEventListener;
  const lateAdd = (
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void => {
    if (type !== 'load' || listener === null) return add.call(window, type, listener, options);
    const event = new Event('load');
    queueMicrotask(() => (typeof listener === 'function' ? listener.call(window, event) : listener.handleEvent(event)));
  };
  // An own property of the window, over EventTarget's method; deleted by endLateLoad().
  Object.defineProperty(window, 'addEventListener', { value: lateAdd, configurable: true, writable: true });
}

export function endLateLoad(): void {
  if (late) delete (window as { addEventListener?: Add }).addEventListener;
}
