/**
 * The VS Code host's one PlanWorkspace: built on first use (it loads the engine), rebuilt when the
 * folders or the plans setting change. Every session, lens, verify action and review thread of
 * the window reads plans through it, and its changes go to the surfaces that project them.
 */
import type { WorkspaceReader, WorkspaceWriter } from '../../core/api/ports';
import { PlanWorkspace, type PlanChange, type ReviewEventBody } from '../../core/api/plans';
import type { Verifier } from '../../core/api/build';

export interface HostPlansDeps {
  /** The workspace ports now, with the key that changes when the folders do. */
  readonly parts: () => { readonly key: string; readonly reader: WorkspaceReader; readonly writer: WorkspaceWriter };
  readonly root: () => string;
  readonly plansDir: () => string;
  readonly verifier: () => Verifier;
  readonly log: (line: string) => void;
  /** A plan changed (the lenses and review threads follow). */
  readonly onChange: (change: PlanChange) => void;
  /** A plan's review threads changed. */
  readonly onReview: (event: ReviewEventBody) => void;
}

export class HostPlans {
  private current: { key: string; plans: PlanWorkspace; subscriptions: { dispose(): void }[] } | undefined;

  constructor(private readonly deps: HostPlansDeps) {}

  /** The workspace's plans, built now when they do not exist yet (or the folders changed). */
  get(): PlanWorkspace {
    const parts = this.deps.parts();
    const key = `${parts.key}\0${this.deps.plansDir()}`;
    if (this.current?.key === key) return this.current.plans;
    this.dispose();
    const plans = new PlanWorkspace({
      reader: parts.reader,
      writer: parts.writer,
      root: this.deps.root(),
      plansDir: this.deps.plansDir(),
      now: Date.now,
      verifier: this.deps.verifier(),
      log: this.deps.log,
    });
    this.current = {
      key,
      plans,
      subscriptions: [plans.onDidChange((c) => this.deps.onChange(c)), plans.onReview((e) => this.deps.onReview(e))],
    };
    return plans;
  }

  /**
   * A plan file (or its tracker file) changed on disk, perhaps by another tool: the plans re-read
   * it when they exist (true), and announce it if it changed; an idle window builds nothing for it.
   */
  changedOnDisk(file: string): boolean {
    const plans = this.current?.plans;
    if (!plans) return false;
    void plans.refresh(file.endsWith('.tasks.md') ? `${file.slice(0, -'.tasks.md'.length)}.md` : file);
    return true;
  }

  dispose(): void {
    for (const s of this.current?.subscriptions ?? []) s.dispose();
    this.current?.plans.dispose();
    this.current = undefined;
  }
}
