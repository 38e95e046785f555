/** `read_spool`: pages through a result that was too large to show whole. */
import * as z from 'zod';
import { failure, resultOf } from './result';
import type { ToolDefinition } from './types';

/** Room kept in a page for the header and footer lines. */
const PAGE_OVERHEAD_BYTES = 160;

const schema = z.object({
  id: z.string().min(1),
  offset: z.number().int().min(0).optional().describe('byte offset; default 0'),
});

export type ReadSpoolArgs = z.infer<typeof schema>;

export const readSpoolTool: ToolDefinition<ReadSpoolArgs> = {
  name: 'read_spool',
  description: 'Read a page of a spooled (cut) tool result.',
  kind: 'read',
  schema,
  describe() {
    return { title: 'Read more of an earlier result', subject: 'an earlier result' };
  },
  async run(args, ctx) {
    const total = ctx.spool.sizeOf(args.id);
    if (total === undefined) {
      return failure(
        `read_spool: no spooled result has id '${args.id}' (it may have been dropped to save memory); run the original tool call again`,
        { lowSignal: true },
      );
    }
    const offset = args.offset ?? 0;
    if (offset >= total && total > 0) {
      return failure(`read_spool: offset ${offset} is past the end; ${args.id} has ${total} bytes`);
    }
    const page = ctx.spool.read(args.id, offset, Math.max(1, ctx.previewLimitBytes - PAGE_OVERHEAD_BYTES))!;
    const header = `[${page.id}: bytes ${page.start}-${page.end} of ${page.totalBytes}]`;
    const footer =
      page.end < page.totalBytes ? `[more: read_spool id=${page.id} offset=${page.end}]` : `[end of ${page.id}]`;
    const body = page.text.endsWith('\n') || page.text === '' ? page.text : `${page.text}\n`;
    return resultOf(ctx, `${header}\n${body}${footer}`);
  },
};
