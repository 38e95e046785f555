import type { Handler } from './types';

/** Stop beside "Waiting for the model": the running turn stops. */
export const stop: Handler<'stop'> = (_message, { actions }) => actions.stop();
