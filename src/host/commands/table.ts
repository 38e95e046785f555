/** The commands that need the host (engine, panel, plans), by key. */
import type { HostCommandKey } from './keys';
import { cancelVerify, comparePlanRevisions, markChecked, openCurrentPlan, runAllVerify, runVerify } from './planFile';
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
import { revertBuild } from './revert';
import type { HostServices } from './services';
import type { CommentReply, CommentThread } from 'vscode';

export type { HostCommandKey } from './keys';

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
  revertBuild: (s, id, step) => revertBuild(s, id, step),
  stop: (s) => stop(s),
  openSetup: (s) => s.changeProvider(),
  answerQuestions: (s) => answerQuestions(s),
  grantMore: (s) => grantMore(s),
  runVerify: (s, file, step, entry) => runVerify(s, file, step, entry),
  cancelVerify: (s, file, step, entry) => cancelVerify(s, file, step, entry),
  markChecked: (s, file, step, entry) => markChecked(s, file, step, entry),
  reviewAddComment: (s, reply) => s.review.addComment(reply as CommentReply),
  reviewRequestChanges: (s, reply) => s.review.requestChanges(reply as CommentReply | undefined),
  reviewResolve: (s, thread) => s.review.setResolved(thread as CommentThread, true),
  reviewReopen: (s, thread) => s.review.setResolved(thread as CommentThread, false),
};

export async function runHostCommand(s: HostServices, key: HostCommandKey, args: readonly unknown[]): Promise<unknown> {
  return HOST_COMMANDS[key](s, ...args);
}
