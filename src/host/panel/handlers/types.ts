/**
 * What the panel's message handlers may do. The composition root implements it with the session
 * controller, the pending-request table and VS Code; tests pass fakes.
 */
import type {
  ApprovalDecision,
  InterviewOutcome,
  Mode,
  SetupDraft,
  WebviewMessage,
  WebviewMessageType,
} from '../../../protocol';

export interface PanelActions {
  /** Posts a full snapshot (answers `resync`). */
  sendSnapshot(): void;
  /** Answers `ready`: a snapshot, unless `heldSeq` (what the page already shows) is the latest. */
  answerReady(heldSeq: number | undefined): void;
  /** Composer text: a new task when no session runs, otherwise input to the session. */
  submit(text: string): Promise<void>;
  setMode(mode: Mode): Promise<void>;
  /** False when no such request is pending (late, duplicate or forged answer). */
  answerInterview(requestId: string, outcome: InterviewOutcome): boolean;
  answerApproval(
    requestId: string,
    decision: ApprovalDecision,
    feedback: string | undefined,
    allowCommands?: readonly string[],
  ): Promise<boolean>;
  answerEnterPlanning(requestId: string, accept: boolean): boolean;
  answerGrantMore(requestId: string, grant: boolean): boolean;
  openFile(path: string, line: number | undefined): Promise<void>;
  runVerify(itemPath: string, entry: string, planFile?: string): Promise<void>;
  cancelVerify(itemPath: string, entry: string, planFile?: string): Promise<void>;
  markChecked(itemPath: string, entry: string, planFile?: string): Promise<void>;
  compareRevisions(): Promise<void>;
  resume(sessionId: string): Promise<void>;
  setApiKey(): Promise<void>;
  /** Sends the person's last message again (Retry on a failed request's notice). */
  retry(noticeId: string): Promise<void>;
  /** Opens where the provider, base URL, model and key are set. */
  changeProvider(): Promise<void>;
  /** Stops the running turn. */
  stop(): void;
  /** Opens VS Code's Manage Workspace Trust. */
  trustWorkspace(): Promise<void>;
  /** Revert Build for a session: the whole build, or back to the checkpoint of step `toStep`. */
  revertBuild(sessionId: string, toStep: string | undefined): Promise<void>;
  /** The setup card: an edit, Test connection, Save, Close. */
  setup(what: 'edit' | 'test' | 'save' | 'close', draft?: SetupDraft): Promise<void>;
}

export interface HandlerContext {
  readonly actions: PanelActions;
  readonly log: { debug(line: string): void; warn(line: string): void };
}

export type Handler<T extends WebviewMessageType> = (
  message: Extract<WebviewMessage, { type: T }>,
  ctx: HandlerContext,
) => void | Promise<void>;

export type HandlerTable = { readonly [T in WebviewMessageType]: Handler<T> };
