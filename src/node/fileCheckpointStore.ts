/**
 * A build's checkpoints on disk, in the session's storage (never the workspace or its git): one
 * folder per session with content-addressed blobs (`objects/ab/<sha256>`, each written once and
 * shared by every checkpoint that holds the same bytes) and `manifest.json`, written atomically.
 * No library: a blob store is these few lines, and a shadow git repository would bring an index,
 * refs and packing the revert never needs.
 */
import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { CheckpointStore } from '../core/api/ports';
import { checkSessionId } from './fileArchiveStore';
import { isMissing } from './fsWorkspace';

const HASH = /^[0-9a-f]{64}$/;

export class FileCheckpointStore implements CheckpointStore {
  readonly dir: string;

  /** `base`: the folder session data lives in (the CLI's archive folder, the extension's storage). */
  constructor(base: string, sessionId: string) {
    checkSessionId(sessionId);
    this.dir = join(base, `${sessionId}.checkpoints`);
  }

  private blobPath(hash: string): string {
    if (!HASH.test(hash)) throw new Error(`not a sha256 content hash: ${JSON.stringify(hash)}`);
    return join(this.dir, 'objects', hash.slice(0, 2), hash);
  }

  async put(hash: string, data: Uint8Array): Promise<void> {
    const path = this.blobPath(hash);
    try {
      await fsp.access(path);
      return;
    } catch {
      // not stored yet
    }
    await fsp.mkdir(join(path, '..'), { recursive: true });
    await this.atomic(path, data);
  }

  async get(hash: string): Promise<Uint8Array | undefined> {
    try {
      return await fsp.readFile(this.blobPath(hash));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async writeManifest(text: string): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true });
    await this.atomic(join(this.dir, 'manifest.json'), text);
  }

  async readManifest(): Promise<string | undefined> {
    try {
      return await fsp.readFile(join(this.dir, 'manifest.json'), 'utf8');
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  private async atomic(path: string, data: string | Uint8Array): Promise<void> {
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await fsp.writeFile(tmp, data);
    try {
      await fsp.rename(tmp, path);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }
}
