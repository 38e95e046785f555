/** `list_files`: a breadth-first listing that skips heavy and gitignored entries, capped. */
import { sep } from 'node:path';
import * as z from 'zod';
import { displayPath, resolveWorkspacePath } from '../paths';
import { failure, resultOf } from './result';
import { IgnoreRules, rootOf } from './ignoreRules';
import type { DirEntry } from '../ports';
import type { ToolDefinition } from './types';
import { placeOf, stringArg } from './describe';

export const LIST_FILES_MAX_ENTRIES = 200;
/** After the cap, at most this many more entries are counted to say how many were left out. */
const COUNT_BUDGET = 20000;
/** Folders read ahead of the one being listed (Node's thread pool has four threads). */
const READ_AHEAD = 4;

const schema = z.object({
  path: z.string().optional().describe("default '.'"),
  depth: z.number().int().min(1).optional().describe('levels to descend; 1 = direct children only'),
});

export type ListFilesArgs = z.infer<typeof schema>;

export interface ListFilesOptions {
  readonly maxEntries?: number;
}

export function createListFilesTool(options: ListFilesOptions = {}): ToolDefinition<ListFilesArgs> {
  const maxEntries = options.maxEntries ?? LIST_FILES_MAX_ENTRIES;
  return {
    name: 'list_files',
    description: 'List a folder breadth-first (dependency/build folders and .gitignore entries skipped).',
    kind: 'list',
    schema,
    describe(args) {
      const place = placeOf(stringArg(args, 'path'));
      return { title: `Listed ${place}`, subject: place };
    },
    async run(args, ctx) {
      const input = args.path ?? '.';
      const resolved = await resolveWorkspacePath(ctx.reader, input);
      if ('error' in resolved) return failure(`list_files refused: ${resolved.error}`);
      const top = displayPath(ctx.reader.roots, resolved.abs);
      const stat = await ctx.reader.stat(resolved.real);
      if (!stat) return failure(`list_files: ${top} does not exist`, { lowSignal: true });
      if (stat.type !== 'dir') return failure(`list_files: ${top} is a file, not a folder; use read_file to read it`);

      const maxDepth = args.depth ?? Number.POSITIVE_INFINITY;
      const rules = new IgnoreRules(ctx.reader, rootOf(ctx.reader.roots, resolved.real) ?? resolved.real);
      const queue: { real: string; shown: string; level: number }[] = [{ real: resolved.real, shown: top, level: 1 }];
      const lines: string[] = [];
      let leftOut = 0;
      let hidden = 0;
      let unreadable = 0;
      let counted = 0;
      let symlinks = false;
      // The next folders of the queue are read while this one is listed: the order of the listing
      // is the queue's, whichever read finishes first.
      const reads = new Map<number, Promise<DirEntry[]>>();
      const readAhead = (from: number) => {
        for (let k = from; k < Math.min(queue.length, from + READ_AHEAD); k++) {
          if (reads.has(k)) continue;
          const read = ctx.reader.readDir(queue[k]!.real);
          read.catch(() => undefined); // awaited (and its error seen) when its folder's turn comes
          reads.set(k, read);
        }
      };
      for (let q = 0; q < queue.length; q++) {
        if (ctx.signal?.aborted) return failure('list_files was cancelled');
        const { real, shown, level } = queue[q]!;
        const full = lines.length >= maxEntries;
        if (full && counted >= COUNT_BUDGET) break;
        let entries;
        try {
          const read = reads.get(q) ?? ctx.reader.readDir(real);
          reads.delete(q);
          readAhead(q + 1);
          entries = await read;
        } catch {
          unreadable++;
          continue;
        }
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const exclusionOf = await rules.forFolder(real, {
          hasGitignore: entries.some((e) => e.name === '.gitignore'),
        });
        // `real` is a real path and an entry name holds no separator: joined without normalising.
        const prefix = real.endsWith(sep) ? real : real + sep;
        for (const entry of entries) {
          const childReal = prefix + entry.name;
          const childShown = shown === '.' ? entry.name : `${shown}/${entry.name}`;
          const isDir = entry.type === 'dir';
          const exclusion = exclusionOf(childReal, entry.name, isDir);
          if (exclusion === 'gitignore') {
            hidden++;
            continue;
          }
          const opens = isDir && exclusion === undefined && level < maxDepth;
          if (lines.length >= maxEntries) {
            leftOut++;
            counted++;
            if (opens && counted < COUNT_BUDGET) queue.push({ real: childReal, shown: childShown, level: level + 1 });
            continue;
          }
          if (exclusion === 'heavy') lines.push(`${childShown}/ (skipped: dependency/build folder)`);
          else if (isDir) lines.push(`${childShown}/`);
          else if (entry.type === 'symlink') {
            symlinks = true;
            lines.push(`${childShown}@`);
          } else lines.push(childShown);
          if (opens) queue.push({ real: childReal, shown: childShown, level: level + 1 });
        }
      }

      const notes: string[] = [];
      if (leftOut > 0) {
        const more = counted >= COUNT_BUDGET ? `more than ${leftOut}` : String(leftOut);
        notes.push(
          `[${lines.length} entries shown, ${more} left out (limit ${maxEntries}): list a subfolder or pass a smaller depth]`,
        );
      }
      if (hidden > 0) notes.push(`[${hidden} entries hidden by .gitignore]`);
      if (unreadable > 0) notes.push(`[${unreadable} folders could not be read]`);
      if (symlinks) notes.push('[@ marks a symlink; it is not followed]');
      if (lines.length === 0) {
        const why = hidden > 0 ? `has nothing to show (${hidden} entries hidden by .gitignore)` : 'is an empty folder';
        return resultOf(ctx, `${top} ${why}`, { lowSignal: true });
      }
      return resultOf(ctx, [...lines, ...notes].join('\n'));
    },
  };
}

export const listFilesTool = createListFilesTool();
