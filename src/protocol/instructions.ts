/**
 * The row that names the repository's instruction files an agent was given (AGENTS.md and its
 * kin), with their sizes as the engine measured them. Each name opens its file.
 */
import * as z from 'zod';

const id = z.string().min(1).max(200);
const count = z.number().int().nonnegative();

export const InstructionFileSchema = z.object({
  /** Workspace-relative. */
  path: z.string(),
  bytes: count,
  /** Bytes that reached the model (less than `bytes` when the bound cut the file). */
  shownBytes: count,
  scope: z.enum(['workspace', 'folder', 'applyTo']),
});

export const InstructionsItemSchema = z.object({
  id,
  kind: z.literal('instructions'),
  /** `start`: an agent's first turn; `changed`: a file changed; `added`: added to one tool result. */
  reason: z.enum(['start', 'changed', 'added']),
  agent: z.enum(['plan', 'build']).optional(),
  files: z.array(InstructionFileSchema),
  /** The bound cut some text; the model was told so too. */
  truncated: z.boolean(),
  maxBytes: count,
});

export type InstructionsItem = z.infer<typeof InstructionsItemSchema>;
