/**
 * Which archived sessions Resume Session lists: the newest that can be resumed (the engine's
 * `SessionArchive.resumable`: the archive holds a checkpoint). One that cannot is left out,
 * rather than listed only to fail when picked.
 */
import type { ArchiveStore } from '../../core/api/ports';

export async function resumableIds(archive: ArchiveStore, limit: number): Promise<string[]> {
  // The engine loads with the first session, never at activation.
  const { SessionArchive } = await import('../../core/api/sessions');
  const ids: string[] = [];
  for (const id of (await archive.list()).reverse()) {
    if (ids.length >= limit) break;
    if (await SessionArchive.resumable(archive, id)) ids.push(id);
  }
  return ids;
}
