/**
 * The values of Planwise's context keys (`planwise.state` and friends), computed from what the
 * host knows. Menus, keybindings and the end-to-end tests read them.
 */
import type { LifecycleState } from '../core/api/sessions';

export type PanelStateKey = 'idle' | 'planning' | 'awaitingApproval' | 'executing';

export interface ContextKeyValues {
  readonly state: PanelStateKey;
  readonly hasPlan: boolean;
  readonly busy: boolean;
  readonly pendingQuestion: boolean;
  readonly pendingGrant: boolean;
}

export interface ContextInputs {
  readonly lifecycle: LifecycleState | undefined;
  readonly hasPlan: boolean;
  readonly busy: boolean;
  /** An approval request is waiting (the gate is open even if the state event has not arrived yet). */
  readonly gateOpen: boolean;
  readonly pendingQuestion: boolean;
  readonly pendingGrant: boolean;
}

export function stateKeyOf(lifecycle: LifecycleState | undefined, gateOpen: boolean): PanelStateKey {
  if (gateOpen) return 'awaitingApproval';
  switch (lifecycle) {
    case 'planning':
    case 'revising':
      return 'planning';
    case 'awaiting_approval':
      return 'awaitingApproval';
    case 'executing':
      return 'executing';
    default:
      return 'idle';
  }
}

export function contextKeyValues(i: ContextInputs): ContextKeyValues {
  return {
    state: stateKeyOf(i.lifecycle, i.gateOpen),
    hasPlan: i.hasPlan,
    busy: i.busy,
    pendingQuestion: i.pendingQuestion,
    pendingGrant: i.pendingGrant,
  };
}
