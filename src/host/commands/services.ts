/** What the lazily loaded commands work with; built once by the composition root. */
import type { ArchiveStore, CheckpointStore } from '../../core/api/ports';
import type { PlanWorkspace } from '../../core/api/plans';
import type { Advice } from '../errors';
import type { HostLog } from '../log';
import type { NativePrompts } from '../prompts/native';
import type { PendingRequests } from '../prompts/pending';
import type { SessionController } from '../session/controller';
import type { PlanFiles } from '../session/planFiles';
import type { TrustState } from '../trust';
import type { VerifyService } from '../verify/verifyService';
import type { ReviewComments } from '../review/reviewComments';
import type { SetupService } from '../setup/setupService';
import type { VirtualDocuments } from '../virtualDocuments';

export interface HostServices {
  readonly controller: SessionController;
  readonly pending: PendingRequests;
  readonly native: NativePrompts;
  readonly planFiles: PlanFiles;
  /** The workspace's plans (the engine's one owner): a change there reaches every surface. */
  plans(): PlanWorkspace;
  readonly verify: VerifyService;
  /** Review threads on plan files (the comment widget's commands). */
  readonly review: ReviewComments;
  readonly archive: ArchiveStore | undefined;
  /** Read-only documents Planwise shows (a revert's diff), never unsaved buffers. */
  readonly readOnlyDocs: VirtualDocuments;
  /** A session's build checkpoints, in the extension's storage. */
  checkpoints(sessionId: string): CheckpointStore;
  readonly trust: TrustState;
  readonly setup: SetupService;
  readonly log: HostLog;
  showAdvice(advice: Advice): void;
  focusPanel(): Promise<void>;
  /** Manage Workspace Trust (the Restricted Mode banner's button). */
  trustWorkspace(): Promise<void>;
  /** Where the provider, base URL, model and key are chosen (the panel's setup card). */
  changeProvider(): Promise<void>;
  /** The plan the person means: the session's, else the plan in the active editor, else the newest. */
  currentPlan(): Promise<string | undefined>;
}
