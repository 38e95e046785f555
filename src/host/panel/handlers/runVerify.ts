import type { Handler } from './types';

export const runVerify: Handler<'runVerify'> = (message, { actions }) =>
  actions.runVerify(message.itemPath, message.entry, message.planFile);
