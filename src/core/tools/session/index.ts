/** The session tools: questions, the task checklist, and the build agent's proposal to re-plan. */
import type { ToolDefinition } from '../types';
import { requestUserInputTool } from './requestUserInput';
import { startPlanningTool } from './startPlanning';
import { taskTrackerTool } from './taskTracker';

export { requestUserInputTool, startPlanningTool, taskTrackerTool };
export { QUESTIONS_UNAVAILABLE, toInterviewQuestions } from './requestUserInput';
export { createTrackerHandle, type TrackerHandleOptions } from './trackerHandle';
export {
  agentContextOf,
  createInterviewState,
  type AgentNeed,
  type AgentToolContext,
  type InterviewRecord,
  type InterviewState,
  type StartPlanningOutcome,
  type TrackerHandle,
} from './context';

/** Offered while planning, besides the read-only tools. */
export const planningSessionTools: readonly ToolDefinition[] = [requestUserInputTool, taskTrackerTool];
