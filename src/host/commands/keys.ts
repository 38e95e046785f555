import type { CommandKey } from '../ids';

/** Commands handled before the host loads (they need neither engine nor panel). */
export const EAGER_COMMANDS = ['setApiKey', 'clearApiKey', 'selectModel', 'showLog'] as const;
export type EagerCommandKey = (typeof EAGER_COMMANDS)[number];
/** Commands that load the host first; `commands/table.ts` has one handler for each. */
export type HostCommandKey = Exclude<CommandKey, EagerCommandKey>;

/**
 * Commands only the host's own UI can call: the plan lenses (drawn by the host) and the review
 * comment threads (made by its comment controller). They are hidden from the palette (`when:
 * false`), have no keybinding and sit in no menu a window shows before the host loads, so they are
 * registered with the host rather than at activation (`test/host/contributions.test.ts` holds the
 * manifest to that).
 */
export const HOST_UI_COMMANDS = [
  'runVerify',
  'cancelVerify',
  'markChecked',
  'reviewAddComment',
  'reviewRequestChanges',
  'reviewResolve',
  'reviewReopen',
] as const satisfies readonly HostCommandKey[];
