import type { Handler } from './types';

export const grantMore: Handler<'grantMore'> = (message, { actions, log }) => {
  if (!actions.answerGrantMore(message.requestId, message.grant)) {
    log.warn(`ignored an answer to ${message.requestId}: no budget prompt is waiting`);
  }
};
