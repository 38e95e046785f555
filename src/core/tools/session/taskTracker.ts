/**
 * `task_tracker`: create, update or add checklist items (rules §5). The session's tracker handle
 * validates, persists and announces the change; the result is the compact tree, so the model sees
 * the whole state after every call. A rejected action changes nothing and shows the current tree.
 */
import { renderTrackerTree } from '../../plan/tracker';
import { trackerActionSchema, type TrackerAction } from '../../plan/trackerActions';
import { failure, resultOf } from '../result';
import type { ToolDefinition } from '../types';
import { agentContextOf } from './context';
import { count, stringArg } from '../describe';

export const taskTrackerTool: ToolDefinition<TrackerAction> = {
  name: 'task_tracker',
  description:
    'Keep the task checklist: create items, add items, or update one (mark in_progress when starting, completed when done). Returns the checklist.',
  kind: 'tracker',
  schema: trackerActionSchema,
  describe(args) {
    const action = stringArg(args, 'action');
    const items = Array.isArray(args['items']) ? args['items'].length : undefined;
    const at = args['index_path'] ?? args['index'];
    const step = at === 0 || at === '0' ? 'the whole list' : at !== undefined ? `step ${String(at)}` : 'a step';
    const status = stringArg(args, 'status')?.replace('_', ' ');
    if (action === 'create')
      return {
        title: `Wrote the task list${items !== undefined ? ` (${count(items, 'item')})` : ''}`,
        subject: 'the task list',
      };
    if (action === 'add') {
      const parent = args['parent_index_path'];
      return {
        title: `Added a task${parent !== undefined ? ` under step ${String(parent)}` : ''}`,
        subject: 'the task list',
      };
    }
    return { title: `Marked ${step} ${status ?? 'updated'}`, subject: step };
  },
  async run(args, toolCtx) {
    const ctx = agentContextOf(toolCtx, 'task_tracker', ['tracker']);
    const result = await ctx.tracker.apply(args);
    if (!result.ok) {
      const current = ctx.tracker.get();
      const shown = current
        ? `\nThe checklist is unchanged:\n${renderTrackerTree(current)}`
        : '\nThere is no checklist yet: use action "create" with items.';
      return failure(`task_tracker: ${result.error}${shown}`);
    }
    return resultOf(ctx, renderTrackerTree(result.tracker));
  },
};
