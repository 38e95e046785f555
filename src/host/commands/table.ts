/** The commands that need the host (engine, panel, plans), by key. */
import type { CommandKey } from '../ids';
import { comparePlanRevisions, openCurrentPlan, runAllVerify, runVerify } from './planFile';
import {
  answerQuestions,
  approveFreshContext,
  approvePlan,
  cancelPlan,
  grantMore,
  startPlanning,
  stayInPlanning,
  stop,
} from './planning';
import { resumeSession } from './resume';
import type { HostServices } from './services';

/** Commands handled before the host loads (they need neither engine nor panel). */
export const EAGER_COMMANDS = ['setApiKey', 'clearApiKey', 'selectModel', 'showLog'] as const;
export type EagerCommandKey = (typeof EAGER_COMMANDS)[number];
export type HostCommandKey = Exclude<CommandKey, EagerCommandKey>;

type Runner = (s: HostServices, ...args: unknown[]) => unknown;

export const HOST_COMMANDS: Record<HostCommandKey, Runner> = {
  startPlanning: (s, task) => startPlanning(s, task),
  approvePlan: (s) => approvePlan(s),
  approveFreshContext: (s) => approveFreshContext(s),
  stayInPlanning: (s, feedback) => stayInPlanning(s, feedback),
  cancelPlan: (s) => cancelPlan(s),
  openCurrentPlan: (s, file) => openCurrentPlan(s, file),
  comparePlanRevisions: (s, file) => comparePlanRevisions(s, file),
  runAllVerify: (s, file) => runAllVerify(s, file),
  resumeSession: (s, id) => resumeSession(s, id),
  stop: (s) => stop(s),
  answerQuestions: (s) => answerQuestions(s),
  grantMore: (s) => grantMore(s),
  runVerify: (s, file, step, command) => runVerify(s, file, step, command),
};

export async function runHostCommand(s: HostServices, key: HostCommandKey, args: readonly unknown[]): Promise<unknown> {
  return HOST_COMMANDS[key](s, ...args);
}
