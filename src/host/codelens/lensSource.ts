/**
 * What the plan-file lenses read, from the host's parts: workspace trust, the workspace's one
 * parse of a plan text, the plan as the workspace holds it (read now when it has not been yet),
 * and whether the session's gate is open on that plan.
 */
import type { PlanWorkspace } from '../../core/api/plans';
import type { Session } from '../../core/api/sessions';
import type { TrustState } from '../trust';
import type { LensSource } from './provider';

export interface HostLensSourceDeps {
  readonly trust: Pick<TrustState, 'trusted'>;
  readonly plans: () => Pick<PlanWorkspace, 'parse' | 'peek' | 'plan'>;
  readonly session: () => Pick<Session, 'state' | 'planFile'> | undefined;
  /** False when no folder is open. */
  readonly isPlanFile: (file: string) => boolean;
}

export function hostLensSource({ trust, plans, session, isPlanFile }: HostLensSourceDeps): LensSource {
  return {
    get trusted() {
      return trust.trusted;
    },
    parse: (markdown) => plans().parse(markdown),
    planOf: async (file) =>
      plans().peek(file) ??
      (await plans()
        .plan(file)
        .catch(() => undefined)),
    gateOpenFor: (file) => {
      const current = session();
      return current?.state === 'awaiting_approval' && current.planFile === file;
    },
    isPlanFile,
  };
}
