/**
 * The decision at the gate: the person's answer awaited from whichever comes first (the approver's
 * prompt or the session's `decide`), what a decision does before its flow runs, and the message a
 * revision sends the planner.
 */
import type { ApprovalDecision, Approver, PlanApprovalRequest, PlanApprovalResponse } from '../lifecycle/ports';
import { prepareHandoff, type PreparedHandoff } from './buildRun';
import type { SessionCore } from './core';

/** The person's answer at an open gate: the approver's prompt, or a decision made elsewhere first. */
export class PendingApproval {
  private readonly decision = deferred<PlanApprovalResponse>();
  private readonly abort = new AbortController();

  /** Asks the approver and waits for the first answer; the approver's prompt is then withdrawn. */
  async ask(approver: Approver, request: PlanApprovalRequest): Promise<PlanApprovalResponse> {
    approver.approvePlan(request, this.abort.signal).then(
      (r) => this.decision.resolve(r),
      () => undefined, // aborted: the decision came from elsewhere
    );
    const response = await this.decision.promise;
    this.abort.abort();
    return response;
  }

  /** A decision made elsewhere (the panel, a typed intent) answers the gate. */
  decide(response: PlanApprovalResponse): void {
    this.decision.resolve(response);
  }
}

/** What a decision did before its flow: taken (with the handoff a build starts from), or not. */
export type TakenDecision =
  | { readonly kind: 'taken'; readonly prepared?: PreparedHandoff }
  /** The plan or its tracker failed the handoff's check: nothing changed, the session stays at the gate. */
  | { readonly kind: 'not_handed'; readonly message: string }
  /** The lifecycle refused the decision. */
  | { readonly kind: 'refused'; readonly message: string };

/**
 * Takes a decision: a handoff checks the plan and its tracker before anything changes (on failure
 * the session stays at the gate with its thread, and says why), the lifecycle takes the decision,
 * and the commands the person chose on the gate are approved for the build it starts.
 */
export async function takeDecision(
  core: SessionCore,
  r: PlanApprovalResponse,
  by: 'person' | 'setting',
): Promise<TakenDecision> {
  const builds = isBuild(r.decision);
  let prepared: PreparedHandoff | undefined;
  if (builds) {
    const ready = await prepareHandoff(core);
    if (!ready.ok) {
      core.notice(`The plan was not handed to the build agent: ${ready.message}.`, 'error');
      return { kind: 'not_handed', message: ready.message };
    }
    prepared = ready.handoff;
  }
  const ok = core.lifecycle({
    type: 'decision',
    decision: r.decision,
    by,
    ...(r.feedback ? { feedback: r.feedback } : {}),
  });
  if (!ok) return { kind: 'refused', message: `the decision '${r.decision}' was refused` };
  // Approving the plan approves no command; the commands the person chose on the gate, listed
  // there, are approved by their text for the build this decision starts.
  core.commands.approved.clear();
  if (builds) {
    for (const c of r.allowCommands ?? []) if (core.commands.approvable.has(c)) core.commands.approved.add(c);
  }
  return { kind: 'taken', ...(prepared ? { prepared } : {}) };
}

/** The message a revision sends the planner: the plan's review request when it has one, else the feedback. */
export async function revisionRequest(core: SessionCore, feedback: string | undefined): Promise<string> {
  return (await reviewRequest(core, feedback)) ?? (feedback ? `Revise the plan: ${feedback}` : 'Revise the plan.');
}

/**
 * A revision request carries every unresolved review thread of the plan, with the feedback as
 * the general note; undefined when the plan has none (or its review cannot be read, said once).
 */
async function reviewRequest(core: SessionCore, feedback: string | undefined): Promise<string | undefined> {
  const file = core.planFile;
  if (file === undefined) return undefined;
  try {
    const request = await core.review.request(file, feedback);
    return request && request.threads.length > 0 ? request.body : undefined;
  } catch (err) {
    core.notice(`The review comments were not sent: ${err instanceof Error ? err.message : String(err)}`, 'warning');
    return undefined;
  }
}

function isBuild(decision: ApprovalDecision): decision is 'execute' | 'fresh_context' {
  return decision === 'execute' || decision === 'fresh_context';
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
