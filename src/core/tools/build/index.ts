/** The build agent's own tools: file edits and writes through the writer port, and approved commands. */
import type { ToolDefinition } from '../types';
import { taskTrackerTool } from '../session/taskTracker';
import { startPlanningTool } from '../session/startPlanning';
import { deleteFileTool } from './deleteFile';
import { editFileTool } from './editFile';
import { runCommandTool } from './runCommand';
import { writeFileTool } from './writeFile';

export { deleteFileTool, editFileTool, runCommandTool, writeFileTool };

/** Offered while building, besides the read-only tools. */
export const buildAgentTools: readonly ToolDefinition[] = [
  editFileTool,
  writeFileTool,
  deleteFileTool,
  runCommandTool,
  taskTrackerTool,
  startPlanningTool,
];
