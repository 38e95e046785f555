import type { Handler } from './types';

export const openFile: Handler<'openFile'> = (message, { actions }) => actions.openFile(message.path, message.line);
