import type { Handler } from './types';

/**
 * A gate button. Feedback only travels with "revise"; anything else never carries text to the
 * model. The verify commands the person approved with the plan travel only with an approval.
 */
export const approvalResponse: Handler<'approvalResponse'> = async (message, { actions, log }) => {
  const feedback = message.decision === 'revise' ? message.feedback?.trim() || undefined : undefined;
  // Commands travel only with an approval: approving the plan alone approves none of them.
  const approves = message.decision === 'execute' || message.decision === 'fresh_context';
  const allow =
    approves && message.allowCommands && message.allowCommands.length > 0 ? message.allowCommands : undefined;
  if (!(await actions.answerApproval(message.requestId, message.decision, feedback, allow))) {
    log.warn(`ignored the decision "${message.decision}" for ${message.requestId}: no plan is waiting for approval`);
  }
};
