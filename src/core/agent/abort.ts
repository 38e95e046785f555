/**
 * A short-lived signal that follows a long-lived one. Libraries (fetch, the SDK) attach abort
 * listeners per request and do not always remove them; hanging them on a per-request child keeps
 * the session's signal clean however long the session runs.
 */
export function childSignal(parent: AbortSignal | undefined): { signal: AbortSignal | undefined; dispose(): void } {
  if (!parent) return { signal: undefined, dispose: () => undefined };
  const child = new AbortController();
  if (parent.aborted) child.abort(parent.reason);
  const onAbort = () => child.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { signal: child.signal, dispose: () => parent.removeEventListener('abort', onAbort) };
}

/**
 * `childSignal`, made only when a tool reads its signal: most tools (reads, listings) never do,
 * and an AbortController plus a listener on the session's signal per call add up over a session.
 * `withSignal` puts `signal` on a tool context as a getter; `dispose` detaches a child if one was
 * made. Read after `dispose`, the signal is the parent itself (no listener is left behind).
 */
export function lazyChildSignal(parent: AbortSignal | undefined): {
  withSignal<T extends object>(ctx: T): T;
  dispose(): void;
} {
  let child: ReturnType<typeof childSignal> | undefined;
  let disposed = false;
  return {
    withSignal(ctx) {
      if (!parent) return ctx;
      return Object.defineProperty(ctx, 'signal', {
        get: () => (disposed ? parent : (child ??= childSignal(parent)).signal),
        enumerable: true,
        configurable: true,
      });
    },
    dispose() {
      disposed = true;
      child?.dispose();
    },
  };
}
