import type { Handler } from './types';

export const enterPlanningResponse: Handler<'enterPlanningResponse'> = (message, { actions, log }) => {
  if (!actions.answerEnterPlanning(message.requestId, message.accept)) {
    log.warn(`ignored an answer to ${message.requestId}: the planning proposal is no longer waiting`);
  }
};
