/**
 * `write_file`: creates a file, or replaces all of an existing one, inside the workspace. Missing
 * parent folders are created. A symlink inside the workspace is written through to its target
 * (the link stays), and only when that target is inside the workspace too. While building, the
 * guard decides the scope first; an existing file the person changed since the agent read it is
 * refused, and an existing text file changes by one range edit (its changed span), never by a whole
 * document replaced.
 */
import { dirname } from 'node:path';
import * as z from 'zod';
import type { WorkspaceReader } from '../../ports';
import { displayPath, resolveWorkspacePath } from '../../paths';
import { utf8Length } from '../../spool';
import { failure, resultOf } from '../result';
import type { ToolDefinition } from '../types';
import { agentContextOf } from '../session/context';
import { STALE_MESSAGE } from '../../build/guard';
import type { BufferWriter } from '../../build/ports';
import { isStaleTextError, minimalEdit } from '../../build/textEdits';
import { placeOf, stringArg } from '../describe';
import { fileChange } from '../../build/fileChange';

const encoder = new TextEncoder();

function utf8Text(data: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    return undefined;
  }
}

const schema = z.object({
  path: z.string(),
  content: z.string(),
});

export type WriteFileArgs = z.infer<typeof schema>;

export const writeFileTool: ToolDefinition<WriteFileArgs> = {
  name: 'write_file',
  description:
    'Create a file or replace its whole content; parent folders are created. Use edit_file for small changes.',
  kind: 'write',
  schema,
  describe(args) {
    const path = placeOf(stringArg(args, 'path'));
    return { title: `Wrote ${path}`, subject: path };
  },
  async run(args, toolCtx) {
    const ctx = agentContextOf(toolCtx, 'write_file', ['writer']);
    if (/[\\/]$/.test(args.path)) {
      return failure(`write_file: '${args.path}' ends with a slash, so it names a folder; give a file path`);
    }
    const resolved = await resolveWorkspacePath(ctx.reader, args.path);
    if ('error' in resolved) return failure(`write_file refused: ${resolved.error}`);
    const shown = displayPath(ctx.reader.roots, resolved.abs);
    const stat = resolved.missing ? undefined : await ctx.reader.stat(resolved.real);
    if (stat?.type === 'dir') return failure(`write_file: ${shown} is a folder; give a file path inside it`);
    if (stat && stat.type !== 'file') return failure(`write_file: ${shown} exists and is not a regular file`);
    if (!stat) {
      const blocker = await fileInTheWay(ctx.reader, dirname(resolved.real));
      if (blocker) {
        const where = displayPath(ctx.reader.roots, blocker);
        return failure(`write_file: ${where} is a file, so it cannot hold ${shown}; choose another path`);
      }
    }
    const guard = ctx.build;
    const admitted = await guard?.admit('write_file', shown, stat ? 'write' : 'create', ctx.signal);
    if (admitted) return admitted;
    const writer: BufferWriter = ctx.writer!;
    const before = stat
      ? guard
        ? (await guard.readCurrent(resolved.real))?.data
        : await ctx.reader.readFile(resolved.real)
      : undefined;
    if (before) {
      const stale = guard?.stale('write_file', shown, before);
      if (stale) return stale;
    }
    await guard?.ledger.beforeWrite(shown, before);
    let leftUnsaved = false;
    const base = before ? utf8Text(before) : undefined;
    const edit = base !== undefined ? minimalEdit(base, args.content) : undefined;
    try {
      if (base !== undefined && writer.editText) {
        if (edit) leftUnsaved = (await writer.editText(resolved.real, base, [edit])).leftUnsaved;
      } else {
        await writer.mkdirp(dirname(resolved.real));
        await writer.writeFileAtomic(resolved.real, args.content);
      }
    } catch (err) {
      if (isStaleTextError(err)) return failure(`write_file: ${shown}: ${STALE_MESSAGE} (read_file), then write again`);
      throw err;
    }
    await guard?.ledger.afterWrite(shown, before, encoder.encode(args.content));
    const size = `${lines(args.content)} lines, ${utf8Length(args.content)} bytes`;
    const unsaved = leftUnsaved
      ? `; ${shown} had unsaved changes of the person's, so it was left unsaved (the person saves it)`
      : '';
    return resultOf(
      ctx,
      (stat ? `replaced ${shown} (${size}; it was ${stat.size} bytes)` : `created ${shown} (${size})`) + unsaved,
      // A file that was not text before has no lines to count.
      !stat
        ? { change: fileChange(shown, 'created', undefined, args.content) }
        : base !== undefined
          ? {
              change: fileChange(shown, 'replaced', base, args.content, leftUnsaved),
            }
          : {},
    );
  },
};

/** The nearest existing ancestor of `dir` when it is not a folder (so no folder can be made there). */
async function fileInTheWay(reader: WorkspaceReader, dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    const stat = await reader.stat(current);
    if (stat) return stat.type === 'dir' ? undefined : current;
    if (dirname(current) === current) return undefined;
  }
}

function lines(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}
