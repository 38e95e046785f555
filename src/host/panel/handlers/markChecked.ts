import type { Handler } from './types';

export const markChecked: Handler<'markChecked'> = (message, { actions }) =>
  actions.markChecked(message.itemPath, message.entry, message.planFile);
