/** The session tools: questions, the task checklist, and the build agent's proposal to re-plan. */
import type { ToolDefinition } from '../types';
import { requestUserInputTool } from './requestUserInput';
import { startPlanningTool } from './startPlanning';
import { taskTrackerTool } from './taskTracker';

export { requestUserInputTool, startPlanningTool, taskTrackerTool };

/** Offered while planning, besides the read-only tools. */
export const planningSessionTools: readonly ToolDefinition[] = [requestUserInputTool, taskTrackerTool];
