/**
 * `edit_file`: exact search and replace in one text file. The file is changed only when
 * `old_text` was found exactly once, or at least once with `replace_all`; every failure leaves the
 * file untouched and says how to fix the call. While building, the guard decides the scope first,
 * the edit is computed on the text the person sees (an open document, dirty or not), a file that
 * changed since the agent read it is refused, and the change lands as range edits (never a whole
 * document replaced) through a writer that knows editors.
 */
import * as z from 'zod';
import { displayPath, resolveWorkspacePath } from '../../paths';
import { failure, looksBinary, resultOf } from '../result';
import type { ToolDefinition } from '../types';
import { agentContextOf } from '../session/context';
import type { BufferWriter, TextEdit } from '../../build/ports';
import { isStaleTextError } from '../../build/textEdits';
import { STALE_MESSAGE } from '../../build/guard';
import { closestLines, lineOf, occurrences } from './textMatch';
import { placeOf, stringArg } from '../describe';
import { fileChange } from '../../build/fileChange';

/** Larger files are refused: an exact edit of a huge file is better done another way. */
export const EDIT_FILE_MAX_BYTES = 10 * 1024 * 1024;

const schema = z.object({
  path: z.string(),
  old_text: z.string(),
  new_text: z.string(),
  replace_all: z.boolean().optional(),
});

export type EditFileArgs = z.infer<typeof schema>;

export const editFileTool: ToolDefinition<EditFileArgs> = {
  name: 'edit_file',
  description:
    'Replace exact text in a file. old_text must match exactly once (include surrounding lines) unless replace_all is set.',
  kind: 'write',
  schema,
  describe(args) {
    const path = placeOf(stringArg(args, 'path'));
    return { title: `Edited ${path}`, subject: path };
  },
  async run(args, toolCtx) {
    const ctx = agentContextOf(toolCtx, 'edit_file', ['writer']);
    const resolved = await resolveWorkspacePath(ctx.reader, args.path);
    if ('error' in resolved) return failure(`edit_file refused: ${resolved.error}`);
    const shown = displayPath(ctx.reader.roots, resolved.abs);
    const guard = ctx.build;
    if (args.old_text === '') {
      return failure(`edit_file: old_text is empty; to create ${shown} or replace all of it, use write_file`);
    }
    if (args.old_text === args.new_text) {
      return failure('edit_file: old_text and new_text are the same, so there is nothing to change');
    }
    const stat = await ctx.reader.stat(resolved.real);
    if (!stat) return failure(`edit_file: ${shown} does not exist; create it with write_file`, { lowSignal: true });
    if (stat.type === 'dir') return failure(`edit_file: ${shown} is a folder, not a file`);
    if (stat.type !== 'file') return failure(`edit_file: ${shown} is not a regular file`);
    if (stat.size > EDIT_FILE_MAX_BYTES) {
      return failure(`edit_file refused: ${shown} is ${stat.size} bytes, over the ${EDIT_FILE_MAX_BYTES}-byte limit`);
    }
    const admitted = await guard?.admit('edit_file', shown, 'edit', ctx.signal);
    if (admitted) return admitted;
    const current = await guard?.readCurrent(resolved.real);
    const data = current?.data ?? (await ctx.reader.readFile(resolved.real));
    const stale = guard?.stale('edit_file', shown, data);
    if (stale) return stale;
    if (looksBinary(data)) return failure(`edit_file refused: ${shown} is a binary file, not text`);
    let text: string;
    try {
      // The byte order mark, if any, stays in the text so it is written back unchanged.
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
    } catch {
      return failure(`edit_file refused: ${shown} is not valid UTF-8, and rewriting it would corrupt it`);
    }

    let oldText = args.old_text;
    let newText = args.new_text;
    let found = occurrences(text, oldText);
    // A file with CRLF line ends and an old_text written with LF: match with the file's line ends.
    if (found.length === 0 && text.includes('\r\n') && oldText.includes('\n') && !oldText.includes('\r')) {
      oldText = oldText.replace(/\n/g, '\r\n');
      newText = newText.replace(/\r?\n/g, '\r\n');
      found = occurrences(text, oldText);
    }
    if (found.length === 0) {
      return failure(
        `edit_file: old_text was not found in ${shown}; nothing was changed. ${closestLines(text, args.old_text)}`,
      );
    }
    if (found.length > 1 && !args.replace_all) {
      const lines = found.slice(0, 10).map((at) => lineOf(text, at));
      const more = found.length > 10 ? ', …' : '';
      return failure(
        `edit_file: old_text occurs ${found.length} times in ${shown} (at lines ${lines.join(', ')}${more}); nothing was changed. ` +
          'Include more surrounding lines so it matches once, or set replace_all: true to replace every occurrence',
      );
    }

    const parts: string[] = [];
    const edits: TextEdit[] = [];
    let from = 0;
    for (const at of found) {
      parts.push(text.slice(from, at), newText);
      edits.push({ start: at, end: at + oldText.length, text: newText });
      from = at + oldText.length;
    }
    parts.push(text.slice(from));
    const next = parts.join('');
    const writer: BufferWriter = ctx.writer!;
    await guard?.ledger.beforeWrite(shown, data);
    let leftUnsaved = false;
    try {
      if (writer.editText) leftUnsaved = (await writer.editText(resolved.real, text, edits)).leftUnsaved;
      else await writer.writeFileAtomic(resolved.real, next);
    } catch (err) {
      if (isStaleTextError(err)) return failure(`edit_file: ${shown}: ${STALE_MESSAGE} (read_file), then edit again`);
      throw err;
    }
    await guard?.ledger.afterWrite(shown, data, new TextEncoder().encode(next));

    const first = lineOf(text, found[0] as number);
    const delta = lineCount(newText) - lineCount(oldText);
    const change = delta === 0 ? 'same line count' : `${delta > 0 ? '+' : ''}${delta} lines per replacement`;
    const what =
      found.length === 1 ? `1 replacement at line ${first}` : `${found.length} replacements from line ${first}`;
    const unsaved = leftUnsaved
      ? `; ${shown} had unsaved changes of the person's, so it was left unsaved (the person saves it)`
      : '';
    return resultOf(ctx, `edited ${shown}: ${what} (${change})${unsaved}`, {
      change: fileChange(shown, 'edited', text, next, leftUnsaved),
    });
  },
};

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
