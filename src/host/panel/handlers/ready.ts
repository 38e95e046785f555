import type { Handler } from './types';

/**
 * The webview (re)loaded: it gets the whole state, however many times it asks, unless the state
 * its page carried (`seq`) is still the latest.
 */
export const ready: Handler<'ready'> = (message, { actions }) => actions.answerReady(message.seq);
