/**
 * The session archive with secrets removed: a key that reached an event (a server error quoting
 * it, a file the agent read) is replaced before the line is written.
 */
import type { ArchiveStore } from '../../core/api/ports';

export class RedactingArchiveStore implements ArchiveStore {
  constructor(
    private readonly inner: ArchiveStore,
    private readonly secrets: () => readonly string[],
  ) {}

  append(sessionId: string, line: string): Promise<void> {
    return this.inner.append(sessionId, redactJsonLine(line, this.secrets()));
  }

  read(sessionId: string): Promise<string[] | undefined> {
    return this.inner.read(sessionId);
  }

  list(): Promise<string[]> {
    return this.inner.list();
  }
}

/**
 * Only exact secrets are replaced (not the secret-shaped patterns the log uses): archived events
 * must stay byte-identical otherwise. `[redacted]` needs no JSON escaping, so the line stays valid.
 */
export function redactJsonLine(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const s of secrets) {
    if (s.length < 4) continue;
    out = out.split(s).join('[redacted]');
    // The secret as it appears inside a JSON string, if it has characters JSON escapes.
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s) out = out.split(escaped).join('[redacted]');
  }
  return out;
}

/** A message for the webview with every exact secret replaced (returns the same object when clean). */
export function redactMessage<T>(message: T, secrets: readonly string[]): T {
  const live = secrets.filter((s) => s.length >= 4);
  if (live.length === 0) return message;
  const text = JSON.stringify(message);
  if (!live.some((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)))) return message;
  return JSON.parse(redactJsonLine(text, live)) as T;
}
