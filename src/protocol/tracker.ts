/**
 * The plan's tracker as the panel shows it: each item with its status, files and verify entries
 * (with their latest results), and the leaf counts and percentage the engine computed for
 * `tracker.updated`.
 */
import * as z from 'zod';

const count = z.number().int().nonnegative();

export const TrackerStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'blocked']);

/** The latest result of one verify entry, as the engine's `verify.recorded` reported it. */
export const VerifyResultSchema = z.object({
  status: z.enum(['running', 'passed', 'failed', 'timed_out', 'cancelled', 'checked']),
  /** Null while running, for checks, and when the command was stopped before it exited. */
  exitCode: z.number().int().nullable(),
  /** Epoch milliseconds. */
  at: z.number(),
  durationMs: z.number().nonnegative(),
  output: z.string().optional(),
});

/** One `verify:` entry as the engine parsed it: a command to run, or a check a person signs off. */
export const VerifyEntrySchema = z.object({
  kind: z.enum(['command', 'check']),
  /** The entry as written in the plan (the key of its results). */
  text: z.string(),
  command: z.string().optional(),
  result: VerifyResultSchema.optional(),
});

export interface TrackerNode {
  /** 1-based index path, e.g. "2.1". */
  path: string;
  description: string;
  status: z.infer<typeof TrackerStatusSchema>;
  files: string[];
  entries: z.infer<typeof VerifyEntrySchema>[];
  /** "Awaiting your check": in progress, commands passed, a check not signed off. */
  awaitingCheck: boolean;
  children: TrackerNode[];
}

export const TrackerNodeSchema: z.ZodType<TrackerNode> = z.lazy(() =>
  z.object({
    path: z.string().regex(/^[1-9][0-9]*(\.[1-9][0-9]*)*$/, 'an index path like "2.1"'),
    description: z.string(),
    status: TrackerStatusSchema,
    files: z.array(z.string()),
    entries: z.array(VerifyEntrySchema),
    awaitingCheck: z.boolean(),
    children: z.array(TrackerNodeSchema),
  }),
);

/** Leaf counts and the percentage, computed by the engine and carried in `tracker.updated`. */
export const TrackerCountsSchema = z.object({
  done: count,
  inProgress: count,
  pending: count,
  blocked: count,
  total: count,
});

export const TrackerSchema = z.object({
  title: z.string(),
  planFile: z.string().optional(),
  items: z.array(TrackerNodeSchema),
  counts: TrackerCountsSchema,
  percent: z.number().int().min(0).max(100),
});

export type TrackerStatus = z.infer<typeof TrackerStatusSchema>;
export type VerifyResult = z.infer<typeof VerifyResultSchema>;
export type VerifyEntryView = z.infer<typeof VerifyEntrySchema>;
export type TrackerCounts = z.infer<typeof TrackerCountsSchema>;
export type Tracker = z.infer<typeof TrackerSchema>;
