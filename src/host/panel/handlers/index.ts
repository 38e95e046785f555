import { approvalResponse } from './approvalResponse';
import { compareRevisions } from './compareRevisions';
import { enterPlanningResponse } from './enterPlanningResponse';
import { grantMore } from './grantMore';
import { interviewResponse } from './interviewResponse';
import { openFile } from './openFile';
import { ready } from './ready';
import { resume } from './resume';
import { resync } from './resync';
import { cancelVerify } from './cancelVerify';
import { markChecked } from './markChecked';
import { runVerify } from './runVerify';
import { setApiKey } from './setApiKey';
import { retry } from './retry';
import { changeProvider } from './changeProvider';
import { trustWorkspace } from './trustWorkspace';
import { stop } from './stop';
import { revertBuild } from './revertBuild';
import { setupClose } from './setupClose';
import { setupEdit } from './setupEdit';
import { setupSave } from './setupSave';
import { setupTest } from './setupTest';
import { setMode } from './setMode';
import { submit } from './submit';
import type { HandlerTable } from './types';

export type { Handler, HandlerContext, HandlerTable, PanelActions } from './types';

/** One handler per webview message type; the type system makes a missing one an error. */
export const HANDLERS: HandlerTable = {
  ready,
  resync,
  submit,
  setMode,
  interviewResponse,
  approvalResponse,
  enterPlanningResponse,
  grantMore,
  openFile,
  runVerify,
  cancelVerify,
  markChecked,
  compareRevisions,
  resume,
  setApiKey,
  retry,
  changeProvider,
  trustWorkspace,
  stop,
  revertBuild,
  setupEdit,
  setupTest,
  setupSave,
  setupClose,
};
