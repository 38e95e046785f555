/**
 * Code search through ripgrep: `rg --json`, parsed event by event, stopped (the process killed)
 * as soon as one match more than the cap arrives. `createSearcher` picks ripgrep when an `rg`
 * binary exists and the JavaScript fallback otherwise.
 *
 * The order is always ripgrep's `--sort path` order, so the model sees the same result for the
 * same tree. `--sort path` makes ripgrep search with one thread, so a search first runs in
 * parallel, unsorted, and its files are sorted here; only a search that finds more matches than
 * the cap (where which matches come first decides what is shown) is run again with `--sort path`,
 * which stops at the cap.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import {
  comparePaths,
  HEAVY_DIRS,
  IgnoreRules,
  rootOf,
  JsSearcher,
  type SearchFileResult,
  type SearchRequest,
  type SearchResult,
  type Searcher,
  type WorkspaceReader,
} from '../core/api/ports';

type Env = Readonly<Record<string, string | undefined>>;

/** The first executable `rg` on `env.PATH`, or undefined. */
export function findRipgrep(env: Env = process.env): string | undefined {
  const path = env.PATH ?? env.Path ?? '';
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd', 'rg'] : ['rg'];
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** A regular file this process may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ripgrep when available, else the JavaScript fallback. `rgPath`: a binary the host supplies;
 * `null` forces the fallback; undefined looks `rg` up on `env.PATH`.
 */
export function createSearcher(reader: WorkspaceReader, rgPath?: string | null, env: Env = process.env): Searcher {
  const found = rgPath === null ? undefined : rgPath !== undefined ? rgPath : findRipgrep(env);
  return found !== undefined && isExecutableFile(found) ? new RipgrepSearcher(found, reader) : new JsSearcher(reader);
}

interface RgText {
  text?: string;
  bytes?: string;
}

interface RgEvent {
  type: string;
  data?: { path?: RgText; lines?: RgText; line_number?: number | null };
}

export class RipgrepSearcher implements Searcher {
  /**
   * ripgrep is told not to read ignore files above the folder it searches (a `.gitignore` with `*`
   * in a parent of the workspace would otherwise hide everything), and its `--glob` overrides
   * `.gitignore`. With a `reader`, the results are therefore checked against the workspace's own
   * rules (root down to each file) whenever a subfolder is searched or a glob is given.
   */
  constructor(
    readonly rgPath: string,
    private readonly reader?: WorkspaceReader,
  ) {}

  async search(request: SearchRequest): Promise<SearchResult> {
    const isFile = statSync(request.root, { throwIfNoEntry: false })?.isFile() ?? false;
    const parallel = await this.run(request, isFile, false);
    const result = parallel.truncated ? await this.run(request, isFile, true) : sortByPath(parallel);
    const root = this.reader ? rootOf(this.reader.roots, request.root) : undefined;
    if (!this.reader || root === undefined || result.files.length === 0) return result;
    if (root === request.root && !request.glob) return result;
    if (isFile) return result;
    const rules = new IgnoreRules(this.reader, root);
    const files: SearchFileResult[] = [];
    for (const file of result.files) {
      if (!(await rules.check(join(request.root, file.path), false))) files.push(file);
    }
    if (files.length === result.files.length) return result;
    const matchCount = files.reduce((n, f) => n + f.lines.filter((l) => l.match).length, 0);
    return { ...result, files, matchCount };
  }

  /**
   * One ripgrep run (`isFile`: the root is a file). `sorted`: in `--sort path` order (one thread). Unsorted, the files come in the
   * order ripgrep's threads finish them, each file's lines together.
   */
  private run(request: SearchRequest, isFile: boolean, sorted: boolean): Promise<SearchResult> {
    const cwd = isFile ? dirname(request.root) : request.root;
    const target = isFile ? basename(request.root) : '.';
    const args = [
      '--json',
      '--no-config',
      '--hidden',
      '--no-require-git',
      '--no-ignore-dot',
      '--no-ignore-global',
      '--no-ignore-parent',
      ...(sorted ? ['--sort', 'path'] : []),
      request.caseInsensitive ? '--ignore-case' : '--case-sensitive',
      '--context',
      String(Math.max(0, request.contextLines)),
      '--regexp',
      request.pattern,
    ];
    if (request.glob) args.push('--glob', request.glob);
    // After the caller's glob, so these exclusions win.
    for (const dir of HEAVY_DIRS) args.push('--glob', `!${dir}/`);
    args.push('--', target);

    return new Promise<SearchResult>((resolve, reject) => {
      const files: SearchFileResult[] = [];
      let current: SearchFileResult | undefined;
      let matchCount = 0;
      let truncated = false;
      let stopped = false;
      let stderr = '';
      const signal = request.signal;
      if (signal?.aborted) return reject(abortError(signal));

      const child = spawn(this.rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      const stop = () => {
        if (stopped) return;
        stopped = true;
        child.kill('SIGKILL');
      };
      const onAbort = () => {
        stop();
        reject(abortError(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      const flush = () => {
        if (current && current.lines.length > 0) files.push(current);
        current = undefined;
      };
      const onEvent = (event: RgEvent) => {
        const data = event.data;
        if (event.type === 'begin') {
          flush();
          current = { path: cleanPath(textOf(data?.path)), lines: [] };
        } else if (event.type === 'match' || event.type === 'context') {
          const isMatch = event.type === 'match';
          if (isMatch && matchCount >= request.maxMatches) {
            truncated = true;
            stop();
            return;
          }
          if (isMatch) matchCount++;
          current ??= { path: cleanPath(textOf(data?.path)), lines: [] };
          const text = textOf(data?.lines).replace(/\r?\n$/, '');
          current.lines.push({ line: data?.line_number ?? 0, text, match: isMatch });
        } else if (event.type === 'end') {
          flush();
        }
      };

      const decoder = new StringDecoder('utf8');
      let pending = '';
      child.stdout.on('data', (chunk: Buffer) => {
        if (stopped) return;
        pending += decoder.write(chunk);
        let nl: number;
        while (!stopped && (nl = pending.indexOf('\n')) !== -1) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (line.trim() !== '') onEvent(parseEvent(line));
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString('utf8');
      });
      child.on('error', (err) => {
        signal?.removeEventListener('abort', onAbort);
        reject(new Error(`ripgrep could not be started (${this.rgPath}): ${err.message}`));
      });
      child.on('close', (code) => {
        signal?.removeEventListener('abort', onAbort);
        if (signal?.aborted) return;
        flush();
        if (!stopped && code === 2 && matchCount === 0) {
          reject(new Error(`ripgrep failed: ${stderr.trim() || 'exit code 2'}`));
          return;
        }
        resolve({ files, matchCount, truncated, engine: 'ripgrep' });
      });
    });
  }
}

/** The files in `--sort path` order. */
function sortByPath(result: SearchResult): SearchResult {
  if (result.files.length < 2) return result;
  const keyed = result.files.map((file) => ({ file, parts: file.path.split('/') }));
  keyed.sort((a, b) => comparePaths(a.parts, b.parts));
  return { ...result, files: keyed.map((k) => k.file) };
}

function textOf(value: RgText | undefined): string {
  if (value?.text !== undefined) return value.text;
  if (value?.bytes !== undefined) return Buffer.from(value.bytes, 'base64').toString('utf8');
  return '';
}

function parseEvent(line: string): RgEvent {
  try {
    return JSON.parse(line) as RgEvent;
  } catch {
    return { type: 'unparsable' };
  }
}

function cleanPath(path: string): string {
  const forward = process.platform === 'win32' ? path.split('\\').join('/') : path;
  return forward.startsWith('./') ? forward.slice(2) : forward;
}

function abortError(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new Error('search cancelled');
}
