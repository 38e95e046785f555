/**
 * `start_planning`: the build agent proposes going back to planning. It never switches modes
 * itself: the person (or the host's setting) decides, and the result says what they decided.
 */
import * as z from 'zod';
import { resultOf } from '../result';
import type { ToolDefinition } from '../types';
import { agentContextOf, type StartPlanningOutcome } from './context';

const schema = z.object({
  reason: z.string().trim().min(1).describe('Why the approved plan no longer fits'),
});

export type StartPlanningArgs = z.infer<typeof schema>;

const REPLIES: Readonly<Record<StartPlanningOutcome, string>> = {
  accepted:
    'The person agreed to return to planning. Make no further changes; end this turn with a short summary of what was done and why the plan needs revising.',
  declined: 'The person declined to return to planning. Continue carrying out the approved plan.',
  pending:
    'Your proposal to return to planning awaits the person, who cannot answer now. Make no changes that depend on a revised plan; finish what still fits, then end the turn explaining why the plan needs revising.',
};

export const startPlanningTool: ToolDefinition<StartPlanningArgs> = {
  name: 'start_planning',
  description:
    'Propose returning to planning when the approved plan no longer fits the repository. Only asks the person; modes do not change by themselves.',
  kind: 'other',
  schema,
  describe() {
    return { title: 'Asked to go back to planning', subject: 'planning' };
  },
  async run(args, toolCtx) {
    const ctx = agentContextOf(toolCtx, 'start_planning', ['onStartPlanning']);
    const outcome = await ctx.onStartPlanning!(args.reason);
    return resultOf(ctx, REPLIES[outcome]);
  },
};
