/**
 * A plan's revision history, `<stem>.history/`: each accepted revision as `NNN.md` (the plan text
 * without its tracker block), and beside a revision that is the person's hand edit `NNN.meta.json`
 * saying so. Revisions are only added, never deleted or rewritten.
 */
import { join } from 'node:path';
import type { WorkspaceReader, WorkspaceWriter } from '../ports';
import { stripTrackerBlock } from './trackerBlock';
import { historyRevisions, revisionFileName, revisionMetaFileName, type PlanPaths } from './storeLayout';

/** Who wrote a revision: `person` for a hand edit the store recorded (`recordEdit`). */
export type RevisionAuthor = 'planner' | 'person';

/** Plan text as stored in history: no tracker block, one trailing newline. */
export function normalise(markdown: string): string {
  return `${stripTrackerBlock(markdown).replace(/\s+$/, '')}\n`;
}

export class PlanHistory {
  constructor(
    private readonly reader: WorkspaceReader,
    private readonly writer: WorkspaceWriter,
    /** A file's text, undefined when it is not a regular file. */
    private readonly readText: (path: string) => Promise<string | undefined>,
  ) {}

  /** The revision numbers the history holds, oldest first. */
  numbers(paths: PlanPaths): Promise<number[]> {
    return historyRevisions(this.reader, paths.history);
  }

  /** Absolute path of revision `n` (1-based). */
  file(paths: PlanPaths, n: number): string {
    return join(paths.history, revisionFileName(n));
  }

  /** The text of revision `n`; undefined when the history has no such revision. */
  read(paths: PlanPaths, n: number): Promise<string | undefined> {
    return this.readText(this.file(paths, n));
  }

  /** Writes `text` as revision `n`. */
  async write(paths: PlanPaths, n: number, text: string): Promise<void> {
    await this.writer.writeFileAtomic(this.file(paths, n), text);
  }

  /** Records plan-file text that history lacks as a revision; returns the latest revision number. */
  async recordUnsavedText(paths: PlanPaths): Promise<number> {
    const numbers = await this.numbers(paths);
    const latest = numbers[numbers.length - 1] ?? 0;
    const raw = await this.readText(paths.plan);
    if (raw === undefined) return latest;
    const current = normalise(raw);
    const recorded = latest > 0 ? await this.read(paths, latest) : undefined;
    if (recorded === current) return latest;
    await this.write(paths, latest + 1, current);
    return latest + 1;
  }

  /** Marks revision `n` as the person's hand edit, recorded at `now` (epoch milliseconds). */
  async markPerson(paths: PlanPaths, n: number, now: number): Promise<void> {
    const meta = { author: 'person', recordedAt: new Date(now).toISOString() };
    await this.writer.writeFileAtomic(
      join(paths.history, revisionMetaFileName(n)),
      `${JSON.stringify(meta, null, 2)}\n`,
    );
  }

  /**
   * A revision's author from its metadata file. A file that cannot be read as the store wrote it
   * is no claim: the revision counts as the planner's, and its text is untouched either way.
   */
  async authorOf(paths: PlanPaths, n: number): Promise<RevisionAuthor> {
    const text = await this.readText(join(paths.history, revisionMetaFileName(n)));
    if (text === undefined) return 'planner';
    try {
      const meta = JSON.parse(text) as { author?: unknown };
      return meta.author === 'person' ? 'person' : 'planner';
    } catch {
      return 'planner';
    }
  }
}
