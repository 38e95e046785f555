/**
 * Host → webview messages.
 *
 * Sequencing contract:
 * - The host answers every `ready` (the first and any later one, e.g. after the view was
 *   re-created) and every `resync` with a `snapshot`, except a `ready` whose `seq` is the host's
 *   latest: that page already shows the state its HTML carried (renderPanelHtml's `snapshot`),
 *   and the next delta continues from it.
 * - Each `delta` carries `seq` = the previous message's `seq` + 1, counting from the snapshot's.
 *   The webview drops a delta whose `seq` it has already seen, and on a gap it sends `resync`
 *   and ignores deltas until the next snapshot.
 * - A snapshot may be sent at any time (e.g. after a fresh-context handoff); it replaces the
 *   webview's whole state and restarts the count.
 */
import * as z from 'zod';
import { SetupStateSchema } from './setup';
import {
  BudgetSchema,
  EnterPlanningPromptSchema,
  FlagsSchema,
  GateSchema,
  GrantMorePromptSchema,
  HandoffSchema,
  InterviewSchema,
  ItemPatchSchema,
  LifecycleSchema,
  PanelNoticeSchema,
  TranscriptItemSchema,
  ViewStateSchema,
} from './viewState';
import { TrackerSchema } from './tracker';

const seq = z.number().int().nonnegative();
const itemId = z.string().min(1).max(200);

export const DeltaOpSchema = z.discriminatedUnion('op', [
  /** Appends an item to the transcript (an item with an existing id replaces it in place). */
  z.object({ op: z.literal('item.add'), item: TranscriptItemSchema }),
  /** Streaming: appends to `text` (or a plan's `markdown`). */
  z.object({ op: z.literal('item.append'), id: itemId, text: z.string() }),
  /** Changes some fields of an item, e.g. `streaming: false`, a verdict, a result size. */
  z.object({ op: z.literal('item.patch'), id: itemId, patch: ItemPatchSchema }),
  /** A fresh thread: the transcript keeps only the items named (the plan carried over), in order. */
  z.object({ op: z.literal('transcript.restart'), keep: z.array(itemId).max(50) }),
  z.object({ op: z.literal('tracker.set'), tracker: TrackerSchema.nullable() }),
  z.object({ op: z.literal('budget.set'), budget: BudgetSchema.nullable() }),
  z.object({ op: z.literal('gate.set'), gate: GateSchema.nullable() }),
  z.object({ op: z.literal('interview.set'), interview: InterviewSchema.nullable() }),
  z.object({ op: z.literal('enterPlanning.set'), prompt: EnterPlanningPromptSchema.nullable() }),
  z.object({ op: z.literal('grantMore.set'), prompt: GrantMorePromptSchema.nullable() }),
  z.object({ op: z.literal('lifecycle.set'), lifecycle: LifecycleSchema }),
  z.object({ op: z.literal('handoff.set'), handoff: HandoffSchema.nullable() }),
  z.object({ op: z.literal('notices.set'), notices: z.array(PanelNoticeSchema) }),
  z.object({ op: z.literal('flags.set'), flags: FlagsSchema }),
  z.object({ op: z.literal('setup.set'), setup: SetupStateSchema.nullable() }),
]);

export const SnapshotMessageSchema = z.object({ type: z.literal('snapshot'), seq, state: ViewStateSchema });
export const DeltaMessageSchema = z.object({ type: z.literal('delta'), seq, ops: z.array(DeltaOpSchema).min(1) });

export const HostMessageSchema = z.discriminatedUnion('type', [SnapshotMessageSchema, DeltaMessageSchema]);

export type DeltaOp = z.infer<typeof DeltaOpSchema>;
export type DeltaOpName = DeltaOp['op'];
export type SnapshotMessage = z.infer<typeof SnapshotMessageSchema>;
export type DeltaMessage = z.infer<typeof DeltaMessageSchema>;
export type HostMessage = z.infer<typeof HostMessageSchema>;
