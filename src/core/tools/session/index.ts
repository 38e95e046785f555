/** The session tools: questions, the task checklist, review replies, and the build agent's proposal to re-plan. */
import type { ToolDefinition } from '../types';
import { replyToReviewCommentTool } from './replyToReviewComment';
import { requestUserInputTool } from './requestUserInput';
import { startPlanningTool } from './startPlanning';
import { taskTrackerTool } from './taskTracker';

export { replyToReviewCommentTool, requestUserInputTool, startPlanningTool, taskTrackerTool };

/** Offered while planning, besides the read-only tools (the planner answers review threads too). */
export const planningSessionTools: readonly ToolDefinition[] = [
  requestUserInputTool,
  taskTrackerTool,
  replyToReviewCommentTool,
];
