import type { Handler } from './types';

/** Save: the provider, base URL and model become the settings; the next request uses them. */
export const setupSave: Handler<'setupSave'> = (message, { actions }) => actions.setup('save', message.draft);
