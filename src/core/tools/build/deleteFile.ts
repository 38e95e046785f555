/**
 * `delete_file`: removes one file inside the workspace. While building it passes the same guard
 * as every write (the scope decision first; a file changed since the agent read it is refused),
 * and the ledger records its content first, so Revert Build restores it.
 */
import * as z from 'zod';
import { displayPath, resolveWorkspacePath } from '../../paths';
import { failure, resultOf } from '../result';
import type { ToolDefinition } from '../types';
import { agentContextOf } from '../session/context';
import type { BufferWriter } from '../../build/ports';
import { placeOf, stringArg } from '../describe';

const schema = z.object({ path: z.string() });

export type DeleteFileArgs = z.infer<typeof schema>;

export const deleteFileTool: ToolDefinition<DeleteFileArgs> = {
  name: 'delete_file',
  description: 'Delete one file (not a folder) in the workspace.',
  kind: 'write',
  schema,
  describe(args) {
    const path = placeOf(stringArg(args, 'path'));
    return { title: `Deleted ${path}`, subject: path };
  },
  async run(args, toolCtx) {
    const ctx = agentContextOf(toolCtx, 'delete_file', ['writer']);
    const writer: BufferWriter = ctx.writer!;
    if (!writer.remove) return failure('delete_file is not available here: this host cannot delete files');
    const resolved = await resolveWorkspacePath(ctx.reader, args.path);
    if ('error' in resolved) return failure(`delete_file refused: ${resolved.error}`);
    const shown = displayPath(ctx.reader.roots, resolved.abs);
    const stat = resolved.missing ? undefined : await ctx.reader.stat(resolved.real);
    if (!stat) return failure(`delete_file: ${shown} does not exist`, { lowSignal: true });
    if (stat.type === 'dir') return failure(`delete_file: ${shown} is a folder; only files are deleted`);
    if (stat.type !== 'file') return failure(`delete_file: ${shown} is not a regular file`);
    const guard = ctx.build;
    const admitted = await guard?.admit('delete_file', shown, 'delete', ctx.signal);
    if (admitted) return admitted;
    const before = (await guard?.readCurrent(resolved.real))?.data ?? (await ctx.reader.readFile(resolved.real));
    const stale = guard?.stale('delete_file', shown, before);
    if (stale) return stale;
    await guard?.ledger.beforeWrite(shown, before);
    await writer.remove(resolved.real);
    await guard?.ledger.afterWrite(shown, before, undefined);
    return resultOf(ctx, `deleted ${shown} (${before.length} bytes)`);
  },
};
