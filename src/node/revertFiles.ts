/**
 * Revert Build on disk (the CLI): each item restored (atomically, parent folders made) or removed,
 * and the emptied folders the build created left alone (they may hold the person's files).
 */
import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import type { RevertItem } from '../core/api/build';
import { NodeWorkspaceWriter } from './fsWorkspace';

/** The file's content as it stands on disk, undefined when missing. */
export async function readOnDisk(abs: string): Promise<Uint8Array | undefined> {
  try {
    const stat = await fsp.stat(abs);
    if (!stat.isFile()) return undefined;
    return await fsp.readFile(abs);
  } catch (err) {
    if ((err as { code?: string } | null)?.code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function applyRevertOnDisk(items: readonly RevertItem[]): Promise<void> {
  const writer = new NodeWorkspaceWriter();
  for (const item of items) {
    if (item.op === 'remove') {
      await fsp.rm(item.abs, { force: true });
      continue;
    }
    await fsp.mkdir(dirname(item.abs), { recursive: true });
    await writer.writeFileAtomic(item.abs, item.data ?? new Uint8Array());
  }
}
