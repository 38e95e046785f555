/**
 * The panel's view state: everything the webview shows that the host owns. The host keeps the
 * authoritative copy (see `ViewModel`), sends it whole in a `snapshot`, then keeps the webview in
 * step with `delta` operations. UI-only state (expanded nodes, wizard step, scroll position) is not
 * here: the webview keeps that itself.
 */
import * as z from 'zod';
import { ProviderLabelSchema, SetupStateSchema } from './setup';
import { BuildReportItemSchema } from './buildReport';
import { InstructionsItemSchema } from './instructions';
import { TrackerSchema } from './tracker';

const id = z.string().min(1).max(200);
const count = z.number().int().nonnegative();

export const RequestIdSchema = id;
export const ModeSchema = z.enum(['plan', 'build']);
export const LifecycleStateSchema = z.enum([
  'idle',
  'planning',
  'awaiting_approval',
  'revising',
  'executing',
  'cancelled',
]);
export const NoticeLevelSchema = z.enum(['info', 'warning', 'error']);

// ---- transcript items -------------------------------------------------------------------

export const VerdictSchema = z.object({ allowed: z.boolean(), reason: z.string() });

/** allowed and ran · ran and failed · blocked by the gate · refused by the plan's scope · held back by a guard. */
export const ToolOutcomeSchema = z.enum(['ok', 'failed', 'blocked', 'refused', 'skipped']);

/** What a file tool changed, as the engine measured it: lines added and removed, and a unified diff. */
export const FileChangeSchema = z.object({
  added: count,
  removed: count,
  /** File headers, then the hunks; '' when nothing changed. Shown as text, never as markup. */
  diff: z.string(),
  /** Diff lines the engine left out past its cut. */
  omitted: count,
  /** A line for the person under the row (the change waits unsaved in their editor). */
  note: z.string().optional(),
});

export const UserItemSchema = z.object({ id, kind: z.literal('user'), text: z.string() });
/** Model prose, rendered as sanitised markdown. `streaming` is true until the item completes. */
export const AssistantItemSchema = z.object({
  id,
  kind: z.literal('assistant'),
  text: z.string(),
  streaming: z.boolean(),
});
/** Model reasoning; the panel shows it collapsed by default. */
export const ThinkingItemSchema = z.object({
  id,
  kind: z.literal('thinking'),
  text: z.string(),
  streaming: z.boolean(),
});
export const ToolCallItemSchema = z.object({
  id,
  kind: z.literal('tool_call'),
  callId: z.string(),
  name: z.string(),
  /** The call in a person's words, as its tool describes it ("Searched src for `parse(`"). */
  title: z.string(),
  /** What the call was done to (a path, a command), for a call that did not run. */
  subject: z.string(),
  /** A short, human-readable summary of the arguments (the host shortens long JSON). */
  argsSummary: z.string(),
  /** The read-only gate's verdict; absent until the gate has decided. */
  verdict: VerdictSchema.optional(),
  /** What became of the call, as the engine decided it; absent until it ended. One row per call: */
  outcome: ToolOutcomeSchema.optional(),
  /** …its result's size and preview live on the call's row too. */
  bytes: count.optional(),
  preview: z.string().optional(),
  /** A file tool's change: the row reads "+3 −1" after its title and opens to the diff. */
  change: FileChangeSchema.optional(),
});
export const ToolResultItemSchema = z.object({
  id,
  kind: z.literal('tool_result'),
  callId: z.string(),
  ok: z.boolean(),
  bytes: count,
  preview: z.string(),
});
/** The plan card's view, from the engine's parse: steps as titles with file chips and verify pills. */
export const PlanViewSchema = z.object({
  title: z.string(),
  summary: z.string(),
  steps: z.array(
    z.object({
      index: z.number().int().positive(),
      title: z.string(),
      files: z.array(z.string()),
      verify: z.array(
        z.object({ kind: z.enum(['command', 'check']), text: z.string(), command: z.string().optional() }),
      ),
    }),
  ),
});

export const PlanItemSchema = z.object({
  id,
  kind: z.literal('plan'),
  markdown: z.string(),
  /** Workspace-relative path of the plan file; empty while the plan is still streaming. */
  file: z.string(),
  revision: count,
  valid: z.boolean(),
  streaming: z.boolean(),
  /** Absent while streaming (and in archives from before it existed): the card shows the markdown. */
  view: PlanViewSchema.optional(),
});
/**
 * What a failed request's notice offers: send the person's message again, open the provider setup,
 * or set the API key (the endpoint refused the key, or asked for one).
 */
export const NoticeActionSchema = z.enum(['retry', 'changeProvider', 'setApiKey']);
export const NoticeItemSchema = z.object({
  id,
  kind: z.literal('notice'),
  level: NoticeLevelSchema,
  text: z.string(),
  /** Buttons under the notice; a used Retry is patched away (an empty list). */
  actions: z.array(NoticeActionSchema).optional(),
});

export const TranscriptItemSchema = z.discriminatedUnion('kind', [
  UserItemSchema,
  AssistantItemSchema,
  ThinkingItemSchema,
  ToolCallItemSchema,
  ToolResultItemSchema,
  PlanItemSchema,
  NoticeItemSchema,
  BuildReportItemSchema,
  InstructionsItemSchema,
]);

/**
 * Fields an `item.patch` may change. Only the fields that exist on the item's kind are applied;
 * `id` and `kind` never change.
 */
export const ItemPatchSchema = z
  .object({
    text: z.string(),
    streaming: z.boolean(),
    title: z.string(),
    subject: z.string(),
    argsSummary: z.string(),
    verdict: VerdictSchema,
    outcome: ToolOutcomeSchema,
    ok: z.boolean(),
    bytes: count,
    preview: z.string(),
    change: FileChangeSchema,
    markdown: z.string(),
    file: z.string(),
    revision: count,
    valid: z.boolean(),
    view: PlanViewSchema,
    level: NoticeLevelSchema,
    actions: z.array(NoticeActionSchema),
  })
  .partial()
  .strict();

// ---- budget --------------------------------------------------------------------------------

const usedMax = z.object({ used: count, max: count });
/** Mirrors the engine's budget snapshot, so the panel's meter matches the status bar. */
export const BudgetSchema = z.object({
  toolCalls: usedMax,
  loops: usedMax,
  previewBytes: usedMax,
  blockedCalls: z.object({ consecutive: count, total: count, fuse: count }),
  /** `cap` is the planning spend cap in tokens; 0 means no cap. */
  tokens: z.object({ input: count, output: count, cap: count }),
  contextPercent: z.number().min(0).max(100),
  /** The context window in tokens ("4% of 128k tokens"), when known. */
  contextWindow: count.optional(),
});

// ---- prompts: gate, interview, enter-planning, grant-more ---------------------------------

export const GateSchema = z.object({
  requestId: id,
  title: z.string(),
  summary: z.string(),
  /** The first steps' actions, as the engine elided them; `moreSteps` were left out. */
  steps: z.array(z.string()),
  moreSteps: count,
  validation: z.object({ valid: z.boolean(), problems: z.array(z.string()) }),
  /** Context window used before the handoff, 0–100. At 50 or more a fresh thread is recommended. */
  contextPercent: z.number().min(0).max(100),
  proposedDuringExecution: z.boolean(),
  /** The plan's revision (1 for a first draft). */
  revision: count,
  /** `person`: this revision is the person's own edit of the plan file (absent: the planner's). */
  author: z.literal('person').optional(),
  /** What changed since the previous revision, as the engine worded it ("1 step removed, 1 changed"). */
  changes: z.string().optional(),
  hasPreviousRevision: z.boolean(),
  /** Workspace-relative plan file, for an "open plan" link. */
  planFile: z.string().optional(),
  /** Unresolved review threads on the plan (the engine's list), each linked to its line. */
  openComments: z
    .array(
      z.object({
        id: z.string(),
        label: z.string(),
        line: z.number().int().positive(),
        outdated: z.boolean(),
        answered: z.boolean(),
      }),
    )
    .optional(),
  /**
   * Every verify command of the plan with what the build does with it (the engine's verdict):
   * runs read-only, runs from the allow-list, asks first, never runs. `approvable`: the person may
   * approve it together with the plan.
   */
  verifyCommands: z
    .array(
      z.object({
        step: z.string(),
        command: z.string(),
        verdict: z.enum(['read_only', 'allow_list', 'ask', 'refused']),
        reason: z.string().optional(),
        approvable: z.boolean(),
      }),
    )
    .optional(),
});

export const InterviewOptionSchema = z.object({
  label: z.string().min(1),
  description: z.string().optional(),
  recommended: z.boolean().optional(),
});
export const InterviewQuestionSchema = z.object({
  id,
  header: z.string(),
  question: z.string(),
  options: z.array(InterviewOptionSchema).min(2).max(4),
  allowNote: z.boolean().optional(),
});
export const InterviewSchema = z.object({
  requestId: id,
  questions: z.array(InterviewQuestionSchema).min(1).max(3),
});

/** An execution agent proposed planning (`start_planning`): "Enter planning workflow?". */
export const EnterPlanningPromptSchema = z.object({ requestId: id, reason: z.string().optional() });

/** A session tool-call or loop limit was reached: grant more? */
export const GrantMorePromptSchema = z.object({
  requestId: id,
  kind: z.enum(['session_tool_calls', 'tool_loop']),
  used: count,
  max: count,
});

export const HandoffStepSchema = z.object({
  label: z.string(),
  status: z.enum(['pending', 'active', 'done', 'failed']),
});
/** While non-null a handoff is running: the panel shows the steps and disables input. */
export const HandoffSchema = z.object({ steps: z.array(HandoffStepSchema) });

/**
 * Standing notices from the lifecycle. `keep_planning`: no valid plan yet, keep planning.
 * `blocked_handoff`: the turn stopped because of blocked behaviour. Resume is offered only when
 * `resumeAvailable` and a `sessionId` are both present.
 */
export const PanelNoticeSchema = z.object({
  id,
  kind: z.enum(['keep_planning', 'blocked_handoff', 'info', 'warning', 'error']),
  text: z.string(),
  resumeAvailable: z.boolean(),
  sessionId: z.string().min(1).optional(),
});

export const LifecycleSchema = z.object({
  state: LifecycleStateSchema,
  mode: ModeSchema,
  /** A turn is running: mode switches are locked. */
  busy: z.boolean(),
  /** The model's stream has been silent since this time (ms since the epoch): "Waiting for the model · 34 s". */
  waitingSince: z.number().optional(),
});

export const FlagsSchema = z.object({
  /** Only whether a key is stored; the key itself never reaches the webview. */
  hasApiKey: z.boolean(),
  /** False until secret storage answered: `hasApiKey` is not known yet, so no "set your key" banner. */
  keyChecked: z.boolean().optional(),
  /** The configured endpoint needs a key (a local server such as Ollama does not). Default true. */
  keyRequired: z.boolean().optional(),
  /** Workspace trust: when false, shell and verify runs are off. */
  trusted: z.boolean(),
  /** The provider and model in use, for the header. */
  provider: ProviderLabelSchema.optional(),
});

export const ViewStateSchema = z.object({
  lifecycle: LifecycleSchema,
  flags: FlagsSchema,
  transcript: z.array(TranscriptItemSchema),
  tracker: TrackerSchema.nullable(),
  budget: BudgetSchema.nullable(),
  gate: GateSchema.nullable(),
  interview: InterviewSchema.nullable(),
  enterPlanning: EnterPlanningPromptSchema.nullable(),
  grantMore: GrantMorePromptSchema.nullable(),
  handoff: HandoffSchema.nullable(),
  notices: z.array(PanelNoticeSchema),
  /** The setup card, while it is open. */
  setup: SetupStateSchema.nullable().optional(),
});

export type Mode = z.infer<typeof ModeSchema>;
export type LifecycleState = z.infer<typeof LifecycleStateSchema>;
export type NoticeLevel = z.infer<typeof NoticeLevelSchema>;
export type Verdict = z.infer<typeof VerdictSchema>;
export type UserItem = z.infer<typeof UserItemSchema>;
export type AssistantItem = z.infer<typeof AssistantItemSchema>;
export type ThinkingItem = z.infer<typeof ThinkingItemSchema>;
export type ToolCallItem = z.infer<typeof ToolCallItemSchema>;
export type ToolOutcome = z.infer<typeof ToolOutcomeSchema>;
export type FileChangeView = z.infer<typeof FileChangeSchema>;
export type ToolResultItem = z.infer<typeof ToolResultItemSchema>;
export type PlanItem = z.infer<typeof PlanItemSchema>;
export type PlanView = z.infer<typeof PlanViewSchema>;
export type NoticeItem = z.infer<typeof NoticeItemSchema>;
export type NoticeAction = z.infer<typeof NoticeActionSchema>;
export type TranscriptItem = z.infer<typeof TranscriptItemSchema>;
export type TranscriptItemKind = TranscriptItem['kind'];
export type ItemPatch = z.infer<typeof ItemPatchSchema>;
export type Budget = z.infer<typeof BudgetSchema>;
export type Gate = z.infer<typeof GateSchema>;
export type InterviewOption = z.infer<typeof InterviewOptionSchema>;
export type InterviewQuestion = z.infer<typeof InterviewQuestionSchema>;
export type Interview = z.infer<typeof InterviewSchema>;
export type EnterPlanningPrompt = z.infer<typeof EnterPlanningPromptSchema>;
export type GrantMorePrompt = z.infer<typeof GrantMorePromptSchema>;
export type HandoffStep = z.infer<typeof HandoffStepSchema>;
export type Handoff = z.infer<typeof HandoffSchema>;
export type PanelNotice = z.infer<typeof PanelNoticeSchema>;
export type Lifecycle = z.infer<typeof LifecycleSchema>;
export type Flags = z.infer<typeof FlagsSchema>;
export type ViewState = z.infer<typeof ViewStateSchema>;
