/** The panel's row for the instruction files an agent was given, from the engine's event. Pure. */
import type { ThreadEvent } from '../../core/api/sessions';
import type { InstructionsItem } from '../../protocol';

type InstructionEvent = Extract<ThreadEvent, { type: 'instructions.loaded' | 'instructions.added' }>;

/** Paths stay as the engine gave them: workspace-relative. */
export function toInstructionsItem(event: InstructionEvent): InstructionsItem {
  return {
    id: `instructions-${event.seq}`,
    kind: 'instructions',
    reason: event.type === 'instructions.added' ? 'added' : event.reason,
    ...(event.type === 'instructions.loaded' ? { agent: event.agent } : {}),
    files: event.files.map((f) => ({
      path: f.path,
      bytes: f.bytes,
      shownBytes: f.shownBytes,
      scope: f.scope,
    })),
    truncated: event.truncated,
    maxBytes: event.max_bytes,
  };
}
