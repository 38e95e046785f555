/**
 * The verify results of a plan, kept next to it as `<stem>.verify.json`, so a reload (of the
 * window, or a resumed session) finds what ran and what a person signed off: the lens shows its
 * last result, and a step whose commands passed still says "Awaiting your check". Written whole
 * and atomically after each finished result (never a running one), one write at a time per plan.
 * A missing file is no results; an unreadable one is no results, said once through `onError`,
 * and left as it is until the next result replaces it.
 */
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import type { WorkspaceReader, WorkspaceWriter } from '../ports';
import type { VerifyRecord } from './verifier';

export const JOURNAL_VERSION = 1;

/** The journal of a plan file: `<dir>/<stem>.verify.json`. */
export function journalFileOf(planFile: string): string {
  return join(dirname(planFile), `${basename(planFile).replace(/\.md$/, '')}.verify.json`);
}

const recordSchema = z.object({
  step: z.string().regex(/^\d+(\.\d+)*$/),
  entry: z.string().min(1),
  kind: z.enum(['command', 'check']),
  command: z.string().optional(),
  status: z.enum(['passed', 'failed', 'timed_out', 'cancelled', 'checked', 'awaiting']),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().nonnegative(),
  output: z.string(),
  at: z.number(),
  origin: z.enum(['build', 'person']),
});

const journalSchema = z.object({
  version: z.literal(JOURNAL_VERSION),
  results: z.array(recordSchema),
});

/** What the Verifier needs to keep its results across reloads. */
export interface VerifyJournalPort {
  load(planFile: string): Promise<readonly VerifyRecord[]>;
  save(planFile: string, records: readonly VerifyRecord[]): Promise<void>;
}

export interface VerifyJournalDeps {
  readonly reader: Pick<WorkspaceReader, 'readFile' | 'stat'>;
  readonly writer: Pick<WorkspaceWriter, 'writeFileAtomic' | 'mkdirp'>;
  /** A journal that could not be read or written (the results stay in memory). */
  readonly onError?: (file: string, message: string) => void;
}

export class VerifyJournal implements VerifyJournalPort {
  private readonly writes = new Map<string, Promise<void>>();

  constructor(private readonly deps: VerifyJournalDeps) {}

  async load(planFile: string): Promise<readonly VerifyRecord[]> {
    const file = journalFileOf(planFile);
    const stat = await this.deps.reader.stat(file);
    if (!stat || stat.type !== 'file') return [];
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(await this.deps.reader.readFile(file)));
    } catch (err) {
      this.deps.onError?.(file, `it is not JSON (${err instanceof Error ? err.message : String(err)})`);
      return [];
    }
    const parsed = journalSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.deps.onError?.(file, `${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'invalid'}`);
      return [];
    }
    return parsed.data.results.map((r) => ({
      planFile,
      step: r.step,
      entry: r.entry,
      kind: r.kind,
      ...(r.command !== undefined ? { command: r.command } : {}),
      status: r.status,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      output: r.output,
      at: r.at,
      origin: r.origin,
    }));
  }

  /** Writes the plan's finished results; writes of one plan run one after another, in order. */
  save(planFile: string, records: readonly VerifyRecord[]): Promise<void> {
    const file = journalFileOf(planFile);
    const body = `${JSON.stringify(
      {
        version: JOURNAL_VERSION,
        results: records.filter((r) => r.status !== 'running').map(({ planFile: _plan, ...rest }) => rest),
      },
      null,
      2,
    )}\n`;
    const previous = this.writes.get(file) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        await this.deps.writer.mkdirp(dirname(file));
        await this.deps.writer.writeFileAtomic(file, body);
      } catch (err) {
        this.deps.onError?.(file, `it could not be written (${err instanceof Error ? err.message : String(err)})`);
      }
    });
    this.writes.set(file, next);
    void next.then(() => {
      if (this.writes.get(file) === next) this.writes.delete(file);
    });
    return next;
  }
}
