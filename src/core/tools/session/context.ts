/**
 * What the agent-facing tools (interview, tracker, start_planning and the build agent's writes and
 * commands) need beyond the read tools' `ToolContext`. The session builds one per turn; the tools
 * receive it typed as `ToolContext` and recover it with `agentContextOf`, which names any member
 * the host forgot.
 */
import type { WorkspaceWriter } from '../../ports';
import type { Approver, InterviewOutcome, InterviewQuestion, Interviewer } from '../../lifecycle/ports';
import type { Tracker } from '../../plan/tracker';
import type { TrackerAction } from '../../plan/trackerActions';
import type { ReviewVerdict } from '../../plan/review';
import type { ToolContext } from '../types';

/** The session's live tracker. `apply` validates, persists through the plan store and emits `tracker.updated`. */
export interface TrackerHandle {
  get(): Tracker | undefined;
  apply(action: TrackerAction): Promise<{ ok: true; tracker: Tracker } | { ok: false; error: string }>;
}

/** The review of the plan being revised: the planner answers the person's comment threads here. */
export interface ReviewHandle {
  reply(
    id: string,
    reply: { readonly body: string; readonly verdict: ReviewVerdict; readonly reason?: string },
  ): Promise<{ ok: true; label: string } | { ok: false; error: string }>;
}

/** Per-session interview state, shared by every turn so a denial stays permanent. */
export interface InterviewState {
  /** Set once questions were denied (headless or non-interactive); later calls return at once. */
  denied: boolean;
  /** Why they were denied, as the host or the tool put it. */
  deniedReason?: string;
}

/** One finished interview, for the session to record in the thread. */
export interface InterviewRecord {
  readonly questions: readonly InterviewQuestion[];
  readonly outcome: InterviewOutcome;
}

export type StartPlanningOutcome = 'accepted' | 'declined' | 'pending';

export interface AgentToolContext extends ToolContext {
  /** Build writes. The VS Code host makes them undoable WorkspaceEdits. */
  readonly writer?: WorkspaceWriter;
  readonly interviewer?: Interviewer;
  readonly approver?: Approver;
  /** False in headless runs: questions are then denied for the whole session. */
  readonly interactive: boolean;
  readonly tracker: TrackerHandle;
  /** The user's `run_command` allow-list: exact commands, or prefixes ending in ` *` or `*`. */
  readonly buildAllowList?: readonly string[];
  /** Commands the person approved with the plan, by their text, for this build (rules §9). */
  readonly approvedCommands?: ReadonlySet<string>;
  /** Told of an allow-list entry the person added with "Always allow" while the session runs. */
  readonly rememberCommand?: (entry: string) => void;
  /** Asks the person whether to re-enter planning; the host decides. */
  readonly onStartPlanning?: (reason: string) => Promise<StartPlanningOutcome>;
  /** Required by `request_user_input`; the same object for the whole session. */
  readonly interviewState?: InterviewState;
  /** Called after every interview that reached the person (answered or cancelled) or was denied. */
  readonly onInterview?: (record: InterviewRecord) => void;
  /** The plan's review threads (`reply_to_review_comment`); absent before a plan exists. */
  readonly review?: ReviewHandle;
  /** `run_command` timeout; default `RUN_COMMAND_DEFAULT_TIMEOUT_MS`. */
  readonly commandTimeoutMs?: number;
}

export function createInterviewState(): InterviewState {
  return { denied: false };
}

/** Members a tool may require, and how a missing one is described. */
const NEEDS = {
  writer: 'a workspace writer, so it cannot change files here',
  interviewer: 'an interviewer, so it cannot ask the person questions here',
  approver: 'an approver, so it cannot ask the person to approve anything here',
  tracker: 'a task tracker for this session',
  onStartPlanning: 'a way to ask the person about re-entering planning',
  interviewState: 'the session interview state, so a denial could not be remembered',
  interactive: 'the interactive flag (whether a person can answer)',
  review: 'plan review, so there are no comment threads to answer here',
} as const;

export type AgentNeed = keyof typeof NEEDS;

/**
 * The agent context behind a `ToolContext`, after checking that every member `tool` needs is
 * there. A missing member throws an error naming the tool and the member (a host wiring bug).
 */
export function agentContextOf(ctx: ToolContext, tool: string, needs: readonly AgentNeed[]): AgentToolContext {
  const agent = ctx as Partial<AgentToolContext> & ToolContext;
  for (const need of needs) {
    const present = need === 'interactive' ? typeof agent.interactive === 'boolean' : agent[need] !== undefined;
    if (!present) {
      throw new Error(
        `${tool} is not available here: the host gave it no ${NEEDS[need]} (tool context lacks "${need}")`,
      );
    }
  }
  return agent as AgentToolContext;
}
