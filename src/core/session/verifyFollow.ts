/**
 * The session follows the engine's verifier for its plan: every result goes out as
 * `verify.recorded`. The plan's workspace settles a step a person's result completes (or puts back
 * in progress), and the session shows that through the plan's change (`planFollow.ts`).
 */
import type { SessionCore } from './core';

/** Subscribes the session to the verifier; returns the unsubscribe. */
export function followVerifier(core: SessionCore): () => void {
  return core.verifier.onRecorded((r) => {
    if (core.planFile === undefined ? r.planFile !== '' : r.planFile !== core.planFile) return;
    core.bus.emit({
      type: 'verify.recorded',
      plan_file: r.planFile,
      step: r.step,
      entry: r.entry,
      kind: r.kind,
      ...(r.command !== undefined ? { command: r.command } : {}),
      status: r.status,
      exit_code: r.exitCode,
      duration_ms: r.durationMs,
      output: r.output,
      origin: r.origin,
    });
  });
}
