/**
 * Webview → host messages. Every prompt answer echoes the `requestId` the host put in the
 * view state, so the host's pending-request table can match it (and ignore late answers).
 * The webview never sends UI-only state: that stays in its own `vscode.setState`.
 */
import * as z from 'zod';
import { ModeSchema, RequestIdSchema } from './viewState';
import { RevertBuildMessageSchema } from './buildReport';
import {
  SetupCloseMessageSchema,
  SetupEditMessageSchema,
  SetupSaveMessageSchema,
  SetupTestMessageSchema,
} from './setup';

const text = (max: number) => z.string().max(max);

/**
 * The panel is listening. `seq` is the snapshot it already shows, the one its page carried
 * (absent when it shows none): the host sends a snapshot only when its state is newer.
 */
export const ReadyMessageSchema = z.object({ type: z.literal('ready'), seq: z.number().int().min(0).optional() });
/** Sent on a sequence gap: the host answers with a snapshot. `lastSeq` is -1 before any snapshot. */
export const ResyncMessageSchema = z.object({ type: z.literal('resync'), lastSeq: z.number().int().min(-1) });
/** The composer's text: a task, an intent phrase, `/plan`, `/plan off`. The host interprets it. */
export const SubmitMessageSchema = z.object({ type: z.literal('submit'), text: text(100_000).min(1) });
export const SetModeMessageSchema = z.object({ type: z.literal('setMode'), mode: ModeSchema });

export const InterviewAnswerSchema = z.object({
  questionId: z.string().min(1),
  /** The chosen option's label. */
  choice: z.string().min(1),
  note: text(10_000).optional(),
});
export const InterviewOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('answered'), answers: z.array(InterviewAnswerSchema).min(1).max(3) }),
  /** The person pressed Esc or Cancel. */
  z.object({ kind: z.literal('cancelled') }),
]);
export const InterviewResponseMessageSchema = z.object({
  type: z.literal('interviewResponse'),
  requestId: RequestIdSchema,
  outcome: InterviewOutcomeSchema,
});

export const ApprovalDecisionSchema = z.enum(['execute', 'fresh_context', 'revise', 'cancel']);
export const ApprovalResponseMessageSchema = z.object({
  type: z.literal('approvalResponse'),
  requestId: RequestIdSchema,
  decision: ApprovalDecisionSchema,
  /** Only with `revise`: what to change. */
  feedback: text(20_000).optional(),
  /**
   * Only with `execute` or `fresh_context`, and only when the person ticked "also allow": the
   * verify commands the gate listed that they approve with the plan, by their text.
   */
  allowCommands: z.array(text(4_000)).max(200).optional(),
});

export const EnterPlanningResponseMessageSchema = z.object({
  type: z.literal('enterPlanningResponse'),
  requestId: RequestIdSchema,
  accept: z.boolean(),
});
export const GrantMoreMessageSchema = z.object({
  type: z.literal('grantMore'),
  requestId: RequestIdSchema,
  grant: z.boolean(),
});

/** Opens a workspace file (relative or absolute as shown) in the editor, at a 1-based line. */
export const OpenFileMessageSchema = z.object({
  type: z.literal('openFile'),
  path: z.string().min(1).max(4096),
  line: z.number().int().positive().optional(),
});
const verifyEntryRef = {
  /** The plan the entry belongs to, workspace-relative as the panel shows it (the tracker's or the plan card's file). */
  planFile: z.string().min(1).max(4096).optional(),
  itemPath: z.string().regex(/^[1-9][0-9]*(\.[1-9][0-9]*)*$/),
  /** The verify entry as written in the plan (the engine parsed it; the host looks it up). */
  entry: z.string().min(1).max(4096),
};
/** Runs one tracker item's verify entry, through the same path as the CodeLens. */
export const RunVerifyMessageSchema = z.object({ type: z.literal('runVerify'), ...verifyEntryRef });
/** Stops a running verify entry. */
export const CancelVerifyMessageSchema = z.object({ type: z.literal('cancelVerify'), ...verifyEntryRef });
/** The person signs a check off ("Mark checked"). */
export const MarkCheckedMessageSchema = z.object({ type: z.literal('markChecked'), ...verifyEntryRef });
/** Opens a diff of the current plan against its previous revision. */
export const CompareRevisionsMessageSchema = z.object({ type: z.literal('compareRevisions') });
export const ResumeMessageSchema = z.object({ type: z.literal('resume'), sessionId: z.string().min(1).max(200) });
/** Runs the host's "Set API Key" command (the key is entered in VS Code, never in the webview). */
export const SetApiKeyMessageSchema = z.object({ type: z.literal('setApiKey') });
/** Retry on a failed request's notice: the host sends the person's last message again. */
export const RetryMessageSchema = z.object({ type: z.literal('retry'), noticeId: z.string().min(1).max(200) });
/** Change provider on a failed request's notice, or the header's provider label: the setup card. */
export const ChangeProviderMessageSchema = z.object({ type: z.literal('changeProvider') });
/** The Restricted Mode banner's button: opens VS Code's Manage Workspace Trust. */
export const TrustWorkspaceMessageSchema = z.object({ type: z.literal('trustWorkspace') });
/** Stop beside "Waiting for the model": the running turn stops, as the view's Stop does. */
export const StopMessageSchema = z.object({ type: z.literal('stop') });

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  ReadyMessageSchema,
  ResyncMessageSchema,
  SubmitMessageSchema,
  SetModeMessageSchema,
  InterviewResponseMessageSchema,
  ApprovalResponseMessageSchema,
  EnterPlanningResponseMessageSchema,
  GrantMoreMessageSchema,
  OpenFileMessageSchema,
  RunVerifyMessageSchema,
  CancelVerifyMessageSchema,
  MarkCheckedMessageSchema,
  CompareRevisionsMessageSchema,
  ResumeMessageSchema,
  SetApiKeyMessageSchema,
  RetryMessageSchema,
  ChangeProviderMessageSchema,
  TrustWorkspaceMessageSchema,
  StopMessageSchema,
  RevertBuildMessageSchema,
  SetupEditMessageSchema,
  SetupTestMessageSchema,
  SetupSaveMessageSchema,
  SetupCloseMessageSchema,
]);

export type InterviewAnswer = z.infer<typeof InterviewAnswerSchema>;
export type InterviewOutcome = z.infer<typeof InterviewOutcomeSchema>;
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;
export type WebviewMessageType = WebviewMessage['type'];
/** The message of one `type`, e.g. `WebviewMessageOf<'submit'>`. */
export type WebviewMessageOf<T extends WebviewMessageType> = Extract<WebviewMessage, { type: T }>;
