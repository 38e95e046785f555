/**
 * Plan files as the host needs them: is this a plan, which plan is newest, its saved revisions,
 * and which two files "Compare Plan Revisions" shows (the gate card is the engine's). Reads go through
 * the `WorkspaceReader` port, so this works on real folders in tests.
 */
import { basename, dirname, join, relative, sep } from 'node:path';
import {
  historyRevisions,
  isPlanFileName,
  listPlanFiles,
  planPaths,
  revisionFileName,
  stripTrackerBlock,
} from '../../core/api/basics';
import type { WorkspaceReader } from '../../core/api/ports';

export interface Comparison {
  readonly left: string;
  readonly right: string;
  readonly title: string;
}

const decoder = new TextDecoder();

export class PlanFiles {
  constructor(
    private readonly reader: WorkspaceReader,
    /** Plans folder, workspace-relative (read at every call: the setting may change). */
    private readonly plansDir: () => string,
  ) {}

  get root(): string {
    return this.reader.roots[0]!;
  }

  get dir(): string {
    return join(this.root, this.plansDir());
  }

  /** A plan file directly inside the plans folder of any workspace root. */
  isPlanFile(path: string): boolean {
    if (!isPlanFileName(basename(path))) return false;
    const folder = dirname(path);
    return this.reader.roots.some((r) => relative(join(r, this.plansDir()), folder) === '');
  }

  async read(path: string): Promise<string> {
    return decoder.decode(await this.reader.readFile(path));
  }

  /** The most recently modified plan, or undefined when there is none. */
  async newest(): Promise<string | undefined> {
    try {
      return (await listPlanFiles(this.reader, this.dir))[0]?.file;
    } catch {
      return undefined;
    }
  }

  /** Absolute paths of the plan's history entries, oldest first. */
  async revisions(planFile: string): Promise<string[]> {
    const stem = basename(planFile).replace(/\.md$/, '');
    const history = planPaths(dirname(planFile), stem).history;
    try {
      return (await historyRevisions(this.reader, history)).map((n) => join(history, revisionFileName(n)));
    } catch {
      return [];
    }
  }

  /**
   * The previous revision against the plan as it is now. When the plan file holds text no
   * revision has (a hand edit), it is compared with the latest revision instead.
   */
  async comparison(planFile: string): Promise<Comparison | undefined> {
    const revs = await this.revisions(planFile);
    if (revs.length === 0) return undefined;
    const current = await this.read(planFile);
    const latest = revs[revs.length - 1]!;
    const latestText = await this.read(latest);
    const name = basename(planFile);
    if (normalise(latestText) !== normalise(current)) {
      return { left: latest, right: planFile, title: `${name}: revision ${revs.length} ↔ current file` };
    }
    if (revs.length < 2) return undefined;
    return {
      left: revs[revs.length - 2]!,
      right: planFile,
      title: `${name}: revision ${revs.length - 1} ↔ ${revs.length}`,
    };
  }

  /** Workspace-relative with forward slashes; absolute paths outside every root stay as they are. */
  relative(path: string): string {
    for (const r of this.reader.roots) {
      const rel = relative(r, path);
      if (rel !== '' && !rel.startsWith('..') && !/^[A-Za-z]:/.test(rel) && !rel.startsWith(sep)) {
        return rel.split(sep).join('/');
      }
    }
    return path;
  }

  /** An absolute path for a path the panel shows: relative ones resolve against the first root. Undefined outside every root. */
  resolveInWorkspace(path: string): string | undefined {
    const abs = /^([A-Za-z]:[\\/]|[\\/])/.test(path) ? path : join(this.root, path);
    return this.reader.roots.some((r) => {
      const rel = relative(r, abs);
      return rel === '' || (!rel.startsWith('..') && !/^[A-Za-z]:/.test(rel) && !rel.startsWith(sep));
    })
      ? abs
      : undefined;
  }
}

/** Plan text as revisions store it: without the embedded tracker block (progress is not a plan change). */
function normalise(text: string): string {
  return stripTrackerBlock(text.replace(/\r\n/g, '\n')).replace(/\s+$/, '');
}
