/** VS Code's `CancellationToken`, structurally (so this file needs no `vscode`). */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

export class CancelledError extends Error {
  constructor(message = 'Cancelled by the person') {
    super(message);
    this.name = 'CancelledError';
  }
}

/**
 * The core's `AbortSignal` for a VS Code `CancellationToken`. Dispose the returned handle when the
 * operation ends, so a long-lived token does not keep the listener.
 */
export function signalOf(token: CancellationTokenLike | undefined): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (!token) return { signal: controller.signal, dispose: () => undefined };
  if (token.isCancellationRequested) {
    controller.abort(new CancelledError());
    return { signal: controller.signal, dispose: () => undefined };
  }
  const sub = token.onCancellationRequested(() => controller.abort(new CancelledError()));
  return { signal: controller.signal, dispose: () => void sub.dispose() };
}

/** One signal that aborts when any of `signals` does. */
export function anySignal(signals: readonly (AbortSignal | undefined)[]): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length === 1) return present[0]!;
  const controller = new AbortController();
  for (const s of present) {
    if (s.aborted) {
      controller.abort(s.reason);
      return controller.signal;
    }
  }
  const onAbort = (s: AbortSignal) => () => {
    if (!controller.signal.aborted) controller.abort(s.reason);
  };
  for (const s of present) s.addEventListener('abort', onAbort(s), { once: true });
  return controller.signal;
}
