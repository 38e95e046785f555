import type { Handler } from './types';

/** A gate button. Feedback only travels with "revise"; anything else never carries text to the model. */
export const approvalResponse: Handler<'approvalResponse'> = async (message, { actions, log }) => {
  const feedback = message.decision === 'revise' ? message.feedback?.trim() || undefined : undefined;
  if (!(await actions.answerApproval(message.requestId, message.decision, feedback))) {
    log.warn(`ignored the decision "${message.decision}" for ${message.requestId}: no plan is waiting for approval`);
  }
};
