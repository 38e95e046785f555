/**
 * The builds kept in a workspace: each session's build checkpoints (`.vtcode/sessions/<id>.checkpoints/`)
 * name the plan they built. `planwise plans` shows each plan's last build, the id `planwise revert` takes.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parseManifest } from '../core/api/build';

export const SESSIONS_DIR = '.vtcode/sessions';
const SUFFIX = '.checkpoints';

export interface BuildRecord {
  readonly session: string;
  /** When its checkpoints were last written (ms since the epoch). */
  readonly at: number;
}

/** Each plan file's newest build, by the plan's absolute path. */
export async function lastBuilds(root: string): Promise<Map<string, BuildRecord>> {
  const dir = path.join(root, SESSIONS_DIR);
  const out = new Map<string, BuildRecord>();
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (!name.endsWith(SUFFIX)) continue;
    const file = path.join(dir, name, 'manifest.json');
    try {
      const [text, st] = await Promise.all([fsp.readFile(file, 'utf8'), fsp.stat(file)]);
      const planFile = parseManifest(text)?.planFile;
      if (planFile === undefined) continue;
      const had = out.get(planFile);
      if (!had || st.mtimeMs > had.at) out.set(planFile, { session: name.slice(0, -SUFFIX.length), at: st.mtimeMs });
    } catch {
      // a session without readable checkpoints built nothing that can be reverted
    }
  }
  return out;
}
