import type { Handler } from './types';

/** Test connection: one cheap request to the draft's endpoint, and what happened. */
export const setupTest: Handler<'setupTest'> = (message, { actions }) => actions.setup('test', message.draft);
