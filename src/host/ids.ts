/**
 * Every identifier the host shares with `package.json`: command ids, the view, context keys.
 * `test/host/contributions.test.ts` checks that the manifest and this file agree.
 */

export const VIEW_CONTAINER_ID = 'planwise';
export const PANEL_VIEW_ID = 'planwise.panel';

/** Commands a person sees in the palette (category "Planwise"). */
export const COMMANDS = {
  startPlanning: 'planwise.startPlanning',
  approvePlan: 'planwise.approvePlan',
  approveFreshContext: 'planwise.approveFreshContext',
  stayInPlanning: 'planwise.stayInPlanning',
  cancelPlan: 'planwise.cancelPlan',
  openCurrentPlan: 'planwise.openCurrentPlan',
  comparePlanRevisions: 'planwise.comparePlanRevisions',
  runAllVerify: 'planwise.runAllVerify',
  setApiKey: 'planwise.setApiKey',
  clearApiKey: 'planwise.clearApiKey',
  selectModel: 'planwise.selectModel',
  showLog: 'planwise.showLog',
  /** The setup card in the panel: provider, base URL, model, key, Test connection. */
  openSetup: 'planwise.openSetup',
  resumeSession: 'planwise.resumeSession',
  revertBuild: 'planwise.revertBuild',
  stop: 'planwise.stop',
  answerQuestions: 'planwise.answerQuestions',
  grantMore: 'planwise.grantMore',
  /** Runs one verify command (CodeLens, panel); hidden from the palette. */
  runVerify: 'planwise.runVerify',
  /** Stops a running verify command (CodeLens, panel); hidden from the palette. */
  cancelVerify: 'planwise.cancelVerify',
  /** The person signs a verify check off (CodeLens, panel); hidden from the palette. */
  markChecked: 'planwise.markChecked',
  /** Plan review (the comment widget on plan files): a new thread or a reply. */
  reviewAddComment: 'planwise.review.addComment',
  /** Sends every unresolved review thread to the planner (the comment widget). */
  reviewRequestChanges: 'planwise.review.requestChanges',
  reviewResolve: 'planwise.review.resolve',
  reviewReopen: 'planwise.review.reopen',
} as const;

export type CommandKey = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandKey];

/** Context keys for when-clauses; the values are those of `PanelContextKeys`. */
export const CONTEXT_KEYS = {
  state: 'planwise.state',
  hasPlan: 'planwise.hasPlan',
  busy: 'planwise.busy',
  pendingQuestion: 'planwise.pendingQuestion',
  pendingGrant: 'planwise.pendingGrant',
} as const;

/** The focus command VS Code generates for a contributed view. */
export const FOCUS_PANEL_COMMAND = `${PANEL_VIEW_ID}.focus`;
export const OUTPUT_CHANNEL_NAME = 'Planwise';
export const TERMINAL_NAME = 'Planwise';
/** The secret-storage key of the model API key. */
export const API_KEY_SECRET = 'planwise.apiKey';
