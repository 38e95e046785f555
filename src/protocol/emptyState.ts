/**
 * The state of a panel with no session, in a module of its own: the host needs it when it is
 * composed, before any message is checked, and importing it must not build the schemas.
 */
import type { ViewState } from './viewState';

/** The state of a panel with no session yet. */
export function emptyViewState(): ViewState {
  return {
    lifecycle: { state: 'idle', mode: 'plan', busy: false },
    flags: { hasApiKey: false, trusted: true },
    transcript: [],
    tracker: null,
    budget: null,
    gate: null,
    interview: null,
    enterPlanning: null,
    grantMore: null,
    handoff: null,
    notices: [],
  };
}
