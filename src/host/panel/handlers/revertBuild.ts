import type { Handler } from './types';

/** The build card's Revert and Revert to step N: the host's Revert Build command (it shows the diff and asks). */
export const revertBuild: Handler<'revertBuild'> = (message, { actions }) =>
  actions.revertBuild(message.sessionId, message.toStep);
