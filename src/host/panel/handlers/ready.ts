import type { Handler } from './types';

/** The webview (re)loaded: it gets the whole state, however many times it asks. */
export const ready: Handler<'ready'> = (_message, { actions }) => actions.sendSnapshot();
