import type { CommandKey } from '../ids';

/** Commands handled before the host loads (they need neither engine nor panel). */
export const EAGER_COMMANDS = ['setApiKey', 'clearApiKey', 'selectModel', 'showLog'] as const;
export type EagerCommandKey = (typeof EAGER_COMMANDS)[number];
/** Commands that load the host first; `commands/table.ts` has one handler for each. */
export type HostCommandKey = Exclude<CommandKey, EagerCommandKey>;
