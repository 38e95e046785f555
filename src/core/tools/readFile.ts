/** `read_file`: numbered lines of a text file, one page at a time. */
import { isAbsolute, resolve } from 'node:path';
import * as z from 'zod';
import { displayPath, resolveWorkspacePath } from '../paths';
import type { FileStat, WorkspaceReader } from '../ports';
import { utf8Length } from '../spool';
import { failure, looksBinary, resultOf } from './result';
import type { ToolDefinition } from './types';
import { placeOf, stringArg } from './describe';

/** Files larger than this are refused: page through them with code_search or exec_command instead. */
export const READ_FILE_MAX_BYTES = 20 * 1024 * 1024;
/** Room kept in a page for the header and the paging note. */
const PAGE_OVERHEAD_BYTES = 200;

const schema = z.object({
  path: z.string(),
  start_line: z.number().int().min(1).optional().describe('1-based, inclusive'),
  end_line: z.number().int().min(1).optional().describe('1-based, inclusive'),
});

export type ReadFileArgs = z.infer<typeof schema>;

export const readFileTool: ToolDefinition<ReadFileArgs> = {
  name: 'read_file',
  description: 'Read a text file as numbered lines. Long files come a page at a time.',
  kind: 'read',
  schema,
  describe(args) {
    const path = placeOf(stringArg(args, 'path'));
    const start = args['start_line'];
    const end = args['end_line'];
    const lines =
      typeof start === 'number'
        ? typeof end === 'number'
          ? `, lines ${start}–${end}`
          : `, from line ${start}`
        : typeof end === 'number'
          ? `, lines 1–${end}`
          : '';
    return { title: `Read ${path}${lines}`, subject: path };
  },
  async run(args, ctx) {
    const early = statAlongside(ctx.reader, args.path);
    const resolved = await resolveWorkspacePath(ctx.reader, args.path);
    if ('error' in resolved) return failure(`read_file refused: ${resolved.error}`);
    const shown = displayPath(ctx.reader.roots, resolved.abs);
    const stat = resolved.missing
      ? undefined
      : early !== undefined && early.abs === resolved.abs
        ? await early.stat()
        : await ctx.reader.stat(resolved.real);
    if (!stat) return failure(`read_file: ${shown} does not exist`, { lowSignal: true });
    if (stat.type === 'dir') return failure(`read_file: ${shown} is a folder; use list_files to see what it holds`);
    if (stat.type !== 'file') return failure(`read_file: ${shown} is not a regular file`);
    if (stat.size > READ_FILE_MAX_BYTES) {
      return failure(
        `read_file refused: ${shown} is ${stat.size} bytes, over the ${READ_FILE_MAX_BYTES}-byte limit; ` +
          `find the part you need with code_search, or show a slice with exec_command "sed -n 'A,Bp' ${shown}"`,
      );
    }
    if (args.end_line !== undefined && args.start_line !== undefined && args.end_line < args.start_line) {
      return failure(`read_file: end_line ${args.end_line} is before start_line ${args.start_line}`);
    }
    // While building, the text the person sees (an open document, saved or not) is what is read.
    const data = (await ctx.build?.readCurrent(resolved.real))?.data ?? (await ctx.reader.readFile(resolved.real));
    ctx.build?.ledger.noteRead(shown, data);
    if (looksBinary(data)) {
      return failure(
        `read_file refused: ${shown} is a binary file (${data.length} bytes), not text; ` +
          `exec_command "file ${shown}" tells what kind of file it is`,
      );
    }
    const lines = splitLines(new TextDecoder('utf-8').decode(data));
    const total = lines.length;
    if (total === 0) return resultOf(ctx, `${shown} is empty (0 lines)`, { lowSignal: true });
    const start = args.start_line ?? 1;
    if (start > total) {
      return failure(`read_file: start_line ${start} is past the end; ${shown} has ${total} lines`);
    }
    const last = Math.min(args.end_line ?? total, total);

    // Fill one page: whole lines until the next would not fit. The first line always goes in;
    // if it alone is too long, the result is spooled with a head and tail like any other.
    const budget = Math.max(1, ctx.previewLimitBytes - PAGE_OVERHEAD_BYTES);
    const body: string[] = [];
    let used = 0;
    let end = start - 1;
    for (let n = start; n <= last; n++) {
      const entry = `${n}\t${lines[n - 1]!}`;
      const size = utf8Length(entry) + 1;
      if (body.length > 0 && used + size > budget) break;
      body.push(entry);
      used += size;
      end = n;
    }
    const header = `${shown} lines ${start}-${end} of ${total}`;
    let note = '';
    if (end < last) {
      note = `\n[lines ${end + 1}-${last} not shown: read_file path="${shown}" start_line=${end + 1}${args.end_line !== undefined ? ` end_line=${last}` : ''} continues]`;
    }
    return resultOf(ctx, `${header}\n${body.join('\n')}${note}`);
  },
};

/**
 * Starts the stat of `input` while its real path is being checked, so a read costs one file-system
 * round trip fewer in a row (stat follows symlinks, as the real path does). Its answer, or its
 * error, is only taken once the path has been accepted.
 */
function statAlongside(
  reader: WorkspaceReader,
  input: string,
): { abs: string; stat: () => Promise<FileStat | undefined> } | undefined {
  const primary = reader.roots[0];
  if (primary === undefined || input.trim() === '') return undefined;
  const abs = isAbsolute(input) ? resolve(input) : resolve(primary, input);
  const settled = Promise.resolve()
    .then(() => reader.stat(abs))
    .then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  return {
    abs,
    stat: async () => {
      const r = await settled;
      if (!r.ok) throw r.error;
      return r.value;
    },
  };
}

/** Lines without their terminators; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
