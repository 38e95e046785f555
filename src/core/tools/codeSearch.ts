/** `code_search`: regex search over the workspace through the Searcher port, grouped by file. */
import { join } from 'node:path';
import * as z from 'zod';
import { displayPath, resolveWorkspacePath } from '../paths';
import type { SearchResult } from '../ports';
import { cutLine, failure, resultOf } from './result';
import type { ToolDefinition } from './types';
import { clipText, code, placeOf, stringArg } from './describe';

export const CODE_SEARCH_MAX_MATCHES = 300;
export const CODE_SEARCH_MAX_LINE_CHARS = 500;
export const CODE_SEARCH_MAX_CONTEXT = 5;

const schema = z.object({
  pattern: z.string().min(1).describe('regular expression (ripgrep syntax)'),
  path: z.string().optional().describe("folder or file to search; default '.'"),
  glob: z.string().optional().describe("file filter, e.g. '*.ts' or 'src/**/*.py'"),
  context: z.number().int().min(0).max(CODE_SEARCH_MAX_CONTEXT).optional().describe('lines around each match'),
  ignore_case: z.boolean().optional(),
});

export type CodeSearchArgs = z.infer<typeof schema>;

export const codeSearchTool: ToolDefinition<CodeSearchArgs> = {
  name: 'code_search',
  description: 'Search file contents with a regex; results grouped by file.',
  kind: 'search',
  schema,
  describe(args) {
    const pattern = stringArg(args, 'pattern') ?? '';
    const glob = stringArg(args, 'glob');
    const where = `${placeOf(stringArg(args, 'path'))}${glob ? ` (${clipText(glob, 60)})` : ''}`;
    return { title: `Searched ${where} for ${code(pattern)}`, subject: code(pattern) };
  },
  async run(args, ctx) {
    const resolved = await resolveWorkspacePath(ctx.reader, args.path ?? '.');
    if ('error' in resolved) return failure(`code_search refused: ${resolved.error}`);
    const stat = await ctx.reader.stat(resolved.real);
    const where = displayPath(ctx.reader.roots, resolved.abs);
    if (!stat) return failure(`code_search: ${where} does not exist`, { lowSignal: true });
    // Paths come back relative to the searched folder; shown relative to the workspace.
    const shownPath = (rel: string) =>
      stat.type === 'dir' ? displayPath(ctx.reader.roots, join(resolved.abs, rel)) : where;

    let result: SearchResult;
    try {
      result = await ctx.searcher.search({
        root: resolved.real,
        pattern: args.pattern,
        contextLines: Math.min(args.context ?? 0, CODE_SEARCH_MAX_CONTEXT),
        maxMatches: CODE_SEARCH_MAX_MATCHES,
        ...(args.glob ? { glob: args.glob } : {}),
        ...(args.ignore_case ? { caseInsensitive: true } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    } catch (err) {
      if (ctx.signal?.aborted) return failure('code_search was cancelled');
      return failure(`code_search failed: ${(err as Error).message}`);
    }

    const engine =
      result.engine === 'ripgrep'
        ? 'ripgrep'
        : 'JavaScript fallback (ripgrep `rg` is not installed; .gitignore and skip rules still apply)';
    const scope = `/${args.pattern}/ in ${where}${args.glob ? ` (glob ${args.glob})` : ''}`;
    if (result.matchCount === 0) {
      return resultOf(ctx, `No matches for ${scope}. [engine: ${engine}]`, { lowSignal: true });
    }
    const out: string[] = [
      `${result.matchCount}${result.truncated ? '+' : ''} matches in ${result.files.length} files for ${scope} [engine: ${engine}]`,
    ];
    for (const file of result.files) {
      out.push('', shownPath(file.path));
      let previous: number | undefined;
      for (const line of file.lines) {
        if (previous !== undefined && line.line > previous + 1) out.push('--');
        out.push(`${line.line}${line.match ? ':' : '-'}${cutLine(line.text, CODE_SEARCH_MAX_LINE_CHARS)}`);
        previous = line.line;
      }
    }
    if (result.truncated) {
      out.push(
        '',
        `[stopped at ${CODE_SEARCH_MAX_MATCHES} matches; more exist: narrow the pattern, path or glob to see the rest]`,
      );
    }
    return resultOf(ctx, out.join('\n'));
  },
};
