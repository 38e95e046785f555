/**
 * Builds a real session for tests: real files in a temporary workspace, the real OpenAI SDK over
 * loopback to the scripted server, real ripgrep and processes, and scripted people (interviewer,
 * approver) that record what they were asked.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ThreadEvent } from '../../src/core/events/types';
import type {
  Approver,
  InterviewOutcome,
  InterviewQuestion,
  Interviewer,
  PlanApprovalRequest,
  PlanApprovalResponse,
  ScopeChoice,
  ScopeRequest,
} from '../../src/core/lifecycle/ports';
import type { WorkspaceReader } from '../../src/core/ports';
import type { McpClientPort } from '../../src/core/mcp/ports';
import type { Session, SessionConfig } from '../../src/core/session/api';
import { createSession, resumeSession } from '../../src/core/session/session';
import { systemClock } from '../../src/node/clock';
import { FileArchiveStore } from '../../src/node/fileArchiveStore';
import { FileCheckpointStore } from '../../src/node/fileCheckpointStore';
import { NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { OpenAIModelClient } from '../../src/node/openaiModelClient';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { ScriptedServer, type Script } from './scriptedServer';
import { makeTempWorkspace, type TempWorkspace } from './tempWorkspace';

export interface ScriptedPeople {
  interviews: (readonly InterviewQuestion[])[];
  approvals: PlanApprovalRequest[];
  grants: { kind: string; used: number; max: number }[];
  commands: string[];
  planningProposals: string[];
  checks: { step: string; check: string }[];
  scopeRequests: ScopeRequest[];
}

export interface HarnessOptions {
  files?: Record<string, string>;
  config?: Partial<SessionConfig>;
  interview?: (q: readonly InterviewQuestion[]) => InterviewOutcome;
  approve?: (r: PlanApprovalRequest, n: number) => PlanApprovalResponse | Promise<PlanApprovalResponse>;
  grant?: (kind: string, used: number, max: number) => number;
  approveCommand?: (command: string) => boolean;
  /** The answer to "Enter planning workflow?"; absent: the approver cannot ask it. */
  enterPlanning?: boolean;
  /** The person's answer to "does this check hold?" (the interactive CLI); absent: never asked. */
  signOffCheck?: (step: string, check: string) => boolean;
  archiveDir?: string;
  workspace?: TempWorkspace;
  /** Transport retries of the model client (default 0; waits are skipped). */
  maxRetries?: number;
  /** The session's checkpoint storage folder (default: none, so no checkpoints). */
  checkpointsDir?: string;
  /** The answer to each scope request (default: none, so the approver cannot ask). */
  approveScope?: (request: ScopeRequest) => ScopeChoice;
  /** The session's MCP client (default: none). */
  mcp?: (ws: TempWorkspace) => McpClientPort;
  /** The tools' reader (default: the workspace's Node reader) and what the gate judges on, as a host composes them. */
  readers?: (ws: TempWorkspace) => { reader: WorkspaceReader; gateFs?: WorkspaceReader };
}

export interface Harness {
  session: Session;
  server: ScriptedServer;
  ws: TempWorkspace;
  events: ThreadEvent[];
  people: ScriptedPeople;
  archiveDir: string;
  eventsOf<T extends ThreadEvent['type']>(type: T): Extract<ThreadEvent, { type: T }>[];
  resume(id: string, opts?: Partial<HarnessOptions>): Promise<Session | undefined>;
  close(): Promise<void>;
}

export async function startHarness(script: Script, opts: HarnessOptions = {}): Promise<Harness> {
  const server = await ScriptedServer.start(script);
  const ws = opts.workspace ?? makeTempWorkspace(opts.files ?? { 'README.md': '# demo\n' });
  const archiveDir = opts.archiveDir ?? mkdtempSync(join(tmpdir(), 'planwise-archive-'));
  const people: ScriptedPeople = {
    interviews: [],
    approvals: [],
    grants: [],
    commands: [],
    planningProposals: [],
    checks: [],
    scopeRequests: [],
  };
  const events: ThreadEvent[] = [];

  const build = (o: HarnessOptions) => {
    const interviewer: Interviewer = {
      ask: async (questions) => {
        people.interviews.push(questions);
        return o.interview ? o.interview(questions) : { kind: 'cancelled' };
      },
    };
    const approver: Approver = {
      approvePlan: async (request) => {
        people.approvals.push(request);
        return o.approve ? o.approve(request, people.approvals.length) : { decision: 'cancel' };
      },
      grantMore: async (kind, used, max) => {
        people.grants.push({ kind, used, max });
        return o.grant ? o.grant(kind, used, max) : 0;
      },
      approveCommand: async (command) => {
        people.commands.push(command);
        return o.approveCommand ? o.approveCommand(command) : false;
      },
      ...(o.enterPlanning !== undefined
        ? {
            enterPlanning: async (reason: string | undefined) => {
              people.planningProposals.push(reason ?? '');
              return o.enterPlanning!;
            },
          }
        : {}),
      ...(o.approveScope !== undefined
        ? {
            approveScope: async (request: ScopeRequest) => {
              people.scopeRequests.push(request);
              return o.approveScope!(request);
            },
          }
        : {}),
      ...(o.signOffCheck !== undefined
        ? {
            signOffCheck: async (step: string, check: string) => {
              people.checks.push({ step, check });
              return o.signOffCheck!(step, check);
            },
          }
        : {}),
    };
    const readers = o.readers?.(ws) ?? { reader: ws.reader };
    const deps = {
      ...readers,
      writer: new NodeWorkspaceWriter(),
      searcher: createSearcher(readers.reader),
      runner: new NodeCommandRunner(),
      model: new OpenAIModelClient({
        baseURL: server.baseURL,
        maxRetries: o.maxRetries ?? 0,
        sleep: async () => undefined,
      }),
      clock: systemClock,
      interviewer,
      approver,
      archive: new FileArchiveStore(archiveDir),
      ...(o.checkpointsDir !== undefined
        ? { checkpoints: (id: string) => new FileCheckpointStore(o.checkpointsDir!, id) }
        : {}),
      ...(o.mcp ? { mcp: o.mcp(ws) } : {}),
    };
    const config: SessionConfig = { planningModel: 'scripted-model', trusted: true, ...o.config };
    return { deps, config };
  };

  const { deps, config } = build(opts);
  const session = createSession(deps, config);
  session.bus.on((e) => events.push(e));
  return {
    session,
    server,
    ws,
    events,
    people,
    archiveDir,
    eventsOf: (type) => events.filter((e) => e.type === type) as never,
    resume: async (id, more = {}) => {
      const b = build({ ...opts, ...more });
      const s = await resumeSession(b.deps, b.config, id);
      s?.bus.on((e) => events.push(e));
      return s;
    },
    close: async () => {
      await server.close();
      if (!opts.workspace) ws.cleanup();
    },
  };
}

/** A valid plan, as a model would write it. */
export function samplePlan(
  title = 'Add a greeting helper',
  file = 'src/greet.ts',
  verify = 'node -e "process.exit(0)"',
): string {
  return `# ${title}

## Summary

Add \`greet(name)\` to ${file} so callers get a consistent greeting.

## Implementation Steps

1. Add the greet function -> files: [${file}] -> verify: [${verify}]

## Test Cases and Validation

- tests: \`${verify}\`

## Assumptions and Defaults

- the greeting text is English only
`;
}

export function planResponse(plan: string, intro = 'Here is the plan.'): string {
  return `${intro}\n<proposed_plan>\n${plan}\n</proposed_plan>\n`;
}
