/**
 * `reply_to_review_comment`: the planner answers one of the person's review threads on the plan,
 * saying whether the revised plan addressed it or why it declined. The reply is stored in the
 * thread (`<stem>.review.json`) and shown where the person left the comment. An unknown id is a
 * tool error naming the threads there are.
 */
import * as z from 'zod';
import { failure, resultOf } from '../result';
import type { ToolDefinition } from '../types';
import { agentContextOf } from './context';
import { stringArg } from '../describe';

const schema = z
  .object({
    id: z.string().trim().min(1).describe('The thread id from the revision request, e.g. "c2"'),
    reply: z.string().trim().min(1).describe('Your answer to the person, shown in the thread'),
    status: z
      .enum(['addressed', 'declined'])
      .describe('"addressed": the revised plan deals with the comment; "declined": it does not, and reason says why'),
    reason: z.string().optional().describe('Required with "declined": why the plan does not follow the comment'),
  })
  .refine((a) => a.status !== 'declined' || (a.reason ?? '').trim().length > 0, {
    message: 'a declined comment needs a reason',
    path: ['reason'],
  });

export type ReplyToReviewCommentArgs = z.infer<typeof schema>;

export const replyToReviewCommentTool: ToolDefinition<ReplyToReviewCommentArgs> = {
  name: 'reply_to_review_comment',
  description:
    "Answer one of the person's review comments (ids in the revision request): a reply, status addressed or declined with a reason.",
  // Bookkeeping on the plan, like the tracker: the planning policy admits it and it reads nothing.
  kind: 'tracker',
  schema,
  describe(args) {
    const status = stringArg(args, 'status');
    const what = status === 'declined' ? 'declined' : 'answered';
    return { title: `Replied to a review comment (${what})`, subject: 'a review comment' };
  },
  async run(args, toolCtx) {
    const ctx = agentContextOf(toolCtx, 'reply_to_review_comment', ['review']);
    const r = await ctx.review!.reply(args.id, {
      body: args.reply,
      verdict: args.status,
      ...(args.reason !== undefined ? { reason: args.reason } : {}),
    });
    if (!r.ok) return failure(`reply_to_review_comment: ${r.error}`);
    return resultOf(ctx, `Recorded your reply to ${args.id} (${r.label}) as ${args.status}.`);
  },
};
