import type { Handler } from './types';

export const interviewResponse: Handler<'interviewResponse'> = (message, { actions, log }) => {
  if (!actions.answerInterview(message.requestId, message.outcome)) {
    log.warn(`ignored an answer to questions ${message.requestId}: they are no longer waiting for one`);
  }
};
