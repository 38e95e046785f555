/**
 * The code-search fallback used only when no `rg` exists: a depth-first walk through the
 * WorkspaceReader in ripgrep's `--sort path` order, honouring the same skip rules (heavy folders,
 * `.gitignore`), skipping binary files and symlinks, matching lines with a JavaScript RegExp.
 */
import { basename, join, relative, sep } from 'node:path';
import type { SearchFileResult, SearchLine, SearchRequest, SearchResult, Searcher, WorkspaceReader } from '../ports';
import { compileGlob, type GlobMatcher } from './glob';
import { IgnoreRules, rootOf } from './ignoreRules';
import { compareNames } from './pathOrder';

/** Files larger than this are not searched by the fallback. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

export class JsSearcher implements Searcher {
  constructor(private readonly reader: WorkspaceReader) {}

  async search(request: SearchRequest): Promise<SearchResult> {
    const regex = compilePattern(request.pattern, request.caseInsensitive ?? false);
    const state = new SearchState(request, regex);
    const stat = await this.reader.stat(request.root);
    if (!stat) throw new Error(`${request.root} does not exist`);
    if (stat.type === 'file') {
      await this.searchFile(request.root, basename(request.root), state);
    } else {
      const glob = request.glob ? compileGlob(request.glob) : undefined;
      const rules = new IgnoreRules(this.reader, rootOf(this.reader.roots, request.root) ?? request.root);
      await this.walk(request.root, request.root, rules, glob, state);
    }
    return { files: state.files, matchCount: state.matchCount, truncated: state.truncated, engine: 'javascript' };
  }

  private async walk(
    dir: string,
    root: string,
    rules: IgnoreRules,
    glob: GlobMatcher | undefined,
    state: SearchState,
  ): Promise<void> {
    const entries = (await this.reader.readDir(dir).catch(() => [])).sort((a, b) => compareNames(a.name, b.name));
    for (const entry of entries) {
      if (state.done) return;
      throwIfAborted(state.request.signal);
      const abs = join(dir, entry.name);
      if (entry.type === 'dir') {
        if (!(await rules.check(abs, true))) await this.walk(abs, root, rules, glob, state);
      } else if (entry.type === 'file') {
        const rel = relative(root, abs).split(sep).join('/');
        if (glob && !glob(rel)) continue;
        if (await rules.check(abs, false)) continue;
        await this.searchFile(abs, rel, state);
      }
    }
  }

  private async searchFile(abs: string, rel: string, state: SearchState): Promise<void> {
    const stat = await this.reader.stat(abs);
    if (!stat || stat.size > MAX_FILE_BYTES) return;
    let data: Uint8Array;
    try {
      data = await this.reader.readFile(abs);
    } catch {
      return; // unreadable files are skipped, as ripgrep does
    }
    if (data.includes(0)) return; // binary
    state.searchText(rel, new TextDecoder('utf-8').decode(data));
  }
}

class SearchState {
  readonly files: SearchFileResult[] = [];
  matchCount = 0;
  truncated = false;
  done = false;

  constructor(
    readonly request: SearchRequest,
    private readonly regex: RegExp,
  ) {}

  searchText(path: string, text: string): void {
    const lines = text.split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    const context = Math.max(0, this.request.contextLines);
    const out: SearchLine[] = [];
    let emittedUpTo = -1; // index of the last line already emitted
    let afterUntil = -1; // trailing context runs through this index
    for (let i = 0; i < lines.length; i++) {
      const text = stripCr(lines[i]!);
      if (this.regex.test(text)) {
        if (this.matchCount >= this.request.maxMatches) {
          this.truncated = true;
          this.done = true;
          break;
        }
        this.matchCount++;
        for (let j = Math.max(emittedUpTo + 1, i - context); j < i; j++) {
          out.push({ line: j + 1, text: stripCr(lines[j]!), match: false });
        }
        out.push({ line: i + 1, text, match: true });
        emittedUpTo = i;
        afterUntil = i + context;
      } else if (i <= afterUntil) {
        out.push({ line: i + 1, text, match: false });
        emittedUpTo = i;
      }
    }
    if (out.length > 0) this.files.push({ path, lines: out });
  }
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** A JavaScript RegExp for a ripgrep-style pattern; a leading `(?i)` becomes the `i` flag. */
export function compilePattern(pattern: string, caseInsensitive: boolean): RegExp {
  let source = pattern;
  let flags = caseInsensitive ? 'i' : '';
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    flags = 'i';
  }
  try {
    return new RegExp(source, flags);
  } catch (err) {
    throw new Error(`invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`);
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('search cancelled');
}
