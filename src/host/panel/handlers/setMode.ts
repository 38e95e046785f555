import type { Handler } from './types';

export const setMode: Handler<'setMode'> = (message, { actions }) => actions.setMode(message.mode);
