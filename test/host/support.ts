/** Fakes shared by the host tests: a scripted session and a recording engine. */
import { EventBus } from '../../src/core/events/bus';
import type { ThreadEvent, ThreadEventBody, LifecycleState } from '../../src/core/events/types';
import type { ApprovalDecision } from '../../src/core/lifecycle/ports';
import type { Session, SessionStop } from '../../src/core/session/api';
import type { HandEditOutcome } from '../../src/core/session/handEdit';
import { StandingFollower, type SessionStanding } from '../../src/core/session/standing';
import type { EngineAccess } from '../../src/host/session/controller';
import { PlanStore, ReviewBook, Verifier } from '../../src/core/index';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../src/node/fsWorkspace';

/** A review over the real file system at '/', for fakes whose tests never comment. */
function fakeReview(): ReviewBook {
  const reader = new NodeWorkspaceReader(['/']);
  const writer = new NodeWorkspaceWriter();
  const store = new PlanStore(reader, writer, { root: '/', now: () => 0 });
  return new ReviewBook({ reader, writer, store, now: () => 0 });
}

export type Step = (s: FakeSession) => Promise<SessionStop | undefined> | SessionStop | undefined;

/** A session whose runs are scripted by the test; it records what the host asked of it. */
export class FakeSession implements Session {
  readonly bus = new EventBus(() => 1_700_000_000_000);
  state: LifecycleState = 'idle';
  mode: 'plan' | 'build' = 'plan';
  planFile: string | undefined;
  readonly calls: string[] = [];
  readonly verifier = new Verifier({
    cwd: () => '/',
    now: () => 0,
    policy: () => ({ roots: ['/'], trusted: false, fs: new NodeWorkspaceReader(['/']) }),
  });
  readonly review = fakeReview();
  cancelled = 0;
  onStart: Step = () => ({ kind: 'completed', summary: 'done' });
  onSubmit: Step = () => undefined;
  onDecide: (
    s: FakeSession,
    d: ApprovalDecision,
    feedback?: string,
  ) => Promise<SessionStop | undefined> | SessionStop | undefined = () => undefined;
  /** After a resume: by default the run stops at the gate again (as a non-interactive engine would). */
  onReopen: Step = (s) => (s.planFile ? { kind: 'awaiting_approval', planFile: s.planFile } : undefined);

  /** The engine's own fold of the events this fake emits. */
  private readonly follower = new StandingFollower();

  constructor(readonly id = 'sfake') {
    this.bus.on((e) => this.follower.fold(e));
  }

  get standing(): SessionStanding {
    return this.follower.standing;
  }

  emit(...events: ThreadEventBody[]): void {
    for (const e of events) this.bus.emit(e);
  }

  async start(task: string, options?: { mode?: 'plan' | 'build' }): Promise<SessionStop> {
    this.calls.push(`start ${task} ${options?.mode ?? ''}`.trim());
    return (await this.onStart(this)) ?? { kind: 'completed', summary: '' };
  }
  async submit(text: string): Promise<SessionStop | undefined> {
    this.calls.push(`submit ${text}`);
    return this.onSubmit(this);
  }
  async decide(decision: ApprovalDecision, feedback?: string): Promise<SessionStop | undefined> {
    this.calls.push(`decide ${decision}${feedback ? ` ${feedback}` : ''}`);
    return this.onDecide(this, decision, feedback);
  }
  async reopen(): Promise<SessionStop | undefined> {
    this.calls.push('reopen');
    return this.onReopen(this);
  }
  async planEdited(planFile: string): Promise<HandEditOutcome> {
    this.calls.push(`planEdited ${planFile}`);
    return { kind: 'ignored', reason: 'fake' };
  }
  cancel(): void {
    this.cancelled++;
  }
  dispose(): void {
    this.calls.push('dispose');
  }
}

export class FakeEngine implements EngineAccess {
  readonly sessions: FakeSession[] = [];
  archived: ThreadEvent[] = [];
  next: () => FakeSession = () => new FakeSession(`s${this.sessions.length + 1}`);
  async create(): Promise<Session> {
    const s = this.next();
    this.sessions.push(s);
    return s;
  }
  async resume(id: string) {
    const s = new FakeSession(id);
    s.state = 'awaiting_approval';
    s.planFile = '/ws/.vtcode/plans/p.md';
    this.sessions.push(s);
    return { session: s, events: this.archived };
  }
}

export function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
