import type { Handler } from './types';

export const resume: Handler<'resume'> = (message, { actions }) => actions.resume(message.sessionId);
