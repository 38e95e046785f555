/** An AgentToolContext over a temporary workspace with real adapters, and scripted people. */
import type { WorkspaceWriter } from '../../src/core/ports';
import type {
  Approver,
  InterviewOutcome,
  InterviewQuestion,
  Interviewer,
  LimitKind,
  PlanApprovalRequest,
  PlanApprovalResponse,
} from '../../src/core/lifecycle/ports';
import type { AgentToolContext } from '../../src/core/tools/session/context';
import { createInterviewState } from '../../src/core/tools/session/context';
import { createTrackerHandle } from '../../src/core/tools/session/trackerHandle';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { contextFor } from '../tools/helpers';
import type { TempWorkspace } from '../support/tempWorkspace';

export function agentContextFor(ws: TempWorkspace, overrides: Partial<AgentToolContext> = {}): AgentToolContext {
  return {
    ...contextFor(ws),
    writer: new NodeWorkspaceWriter(),
    interactive: true,
    tracker: createTrackerHandle(),
    interviewState: createInterviewState(),
    ...overrides,
  };
}

/** Answers each ask with the next scripted outcome and records the questions it was shown. */
export class ScriptedInterviewer implements Interviewer {
  readonly asked: (readonly InterviewQuestion[])[] = [];
  constructor(private readonly outcomes: InterviewOutcome[]) {}
  async ask(questions: readonly InterviewQuestion[]): Promise<InterviewOutcome> {
    this.asked.push(questions);
    const next = this.outcomes.shift();
    if (!next) throw new Error('ScriptedInterviewer: asked more often than scripted');
    return next;
  }
}

/** Approves or denies commands as told, recording every command and reason it was shown. */
export class ScriptedApprover implements Approver {
  readonly commands: { command: string; reason: string }[] = [];
  constructor(private readonly answer: boolean) {}
  async approveCommand(command: string, reason: string): Promise<boolean> {
    this.commands.push({ command, reason });
    return this.answer;
  }
  approvePlan(_request: PlanApprovalRequest): Promise<PlanApprovalResponse> {
    throw new Error('not used by these tests');
  }
  grantMore(_kind: LimitKind, _used: number, _max: number): Promise<number> {
    throw new Error('not used by these tests');
  }
}

/** A writer that counts calls and then fails, to prove a tool never reached it. */
export class RefusingWriter implements WorkspaceWriter {
  calls = 0;
  async writeFileAtomic(): Promise<void> {
    this.calls++;
    throw new Error('RefusingWriter: no write was expected');
  }
  async mkdirp(): Promise<void> {
    this.calls++;
    throw new Error('RefusingWriter: no folder was expected');
  }
}
