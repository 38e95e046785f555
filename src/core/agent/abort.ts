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
