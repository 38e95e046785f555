import type { Handler } from './types';

export const cancelVerify: Handler<'cancelVerify'> = (message, { actions }) =>
  actions.cancelVerify(message.itemPath, message.entry, message.planFile);
