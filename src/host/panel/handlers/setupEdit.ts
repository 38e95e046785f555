import type { Handler } from './types';

/** An edit in the setup card: the host checks the URL and refreshes the model list. */
export const setupEdit: Handler<'setupEdit'> = (message, { actions }) => actions.setup('edit', message.draft);
