import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveStore } from '../core/api/ports';

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const SUFFIX = '.jsonl';

/** Throws when `id` could escape the archive folder or is not a portable file name. */
export function checkSessionId(id: string): void {
  if (typeof id !== 'string' || !ID_RE.test(id) || WINDOWS_DEVICE.test(id)) {
    throw new Error(
      `invalid session id ${JSON.stringify(id)}: use 1 to 128 letters, digits, '.', '_' or '-', ` +
        'starting with a letter or digit (no path separators)',
    );
  }
}

function isMissing(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'ENOENT';
}

/**
 * The session archive on disk: one `<id>.jsonl` per session in one folder, append-only.
 *
 * Appends to one session are serialised. The first append of a session in this process checks
 * the file's last byte: when an earlier process was killed mid-line, a newline is written first,
 * so the torn fragment stays a line of its own and new records are never glued onto it.
 */
export class FileArchiveStore implements ArchiveStore {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly tailChecked = new Set<string>();

  constructor(readonly dir: string) {}

  pathOf(sessionId: string): string {
    checkSessionId(sessionId);
    return join(this.dir, sessionId + SUFFIX);
  }

  append(sessionId: string, line: string): Promise<void> {
    let path: string;
    try {
      path = this.pathOf(sessionId);
      if (line.includes('\n') || line.includes('\r')) {
        throw new Error(`an archive line must not contain a line break (session ${JSON.stringify(sessionId)})`);
      }
    } catch (err) {
      return Promise.reject(err);
    }
    const previous = this.queues.get(sessionId) ?? Promise.resolve();
    const write = previous.then(() => this.write(sessionId, path, line));
    this.queues.set(
      sessionId,
      write.catch(() => undefined),
    );
    return write;
  }

  async read(sessionId: string): Promise<string[] | undefined> {
    const path = this.pathOf(sessionId);
    let text: string;
    try {
      text = await fsp.readFile(path, 'utf8');
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  async list(): Promise<string[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
    return names
      .filter((n) => n.endsWith(SUFFIX))
      .map((n) => n.slice(0, -SUFFIX.length))
      .filter((id) => ID_RE.test(id) && !WINDOWS_DEVICE.test(id))
      .sort();
  }

  private async write(sessionId: string, path: string, line: string): Promise<void> {
    let prefix = '';
    if (!this.tailChecked.has(sessionId)) {
      await fsp.mkdir(this.dir, { recursive: true });
      if (await endsMidLine(path)) prefix = '\n';
      this.tailChecked.add(sessionId);
    }
    await fsp.appendFile(path, prefix + line + '\n', 'utf8');
  }
}

async function endsMidLine(path: string): Promise<boolean> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, 'r');
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}
