/**
 * The engine's doors to the world. `src/core` never touches the file system, processes,
 * the network or VS Code directly: every host (VS Code, CLI, tests) implements these small
 * ports and hands them to the engine by constructor injection.
 *
 * All paths crossing a port are absolute, in the host's native form.
 */

export type EntryType = 'file' | 'dir' | 'symlink' | 'other';

export interface DirEntry {
  readonly name: string;
  readonly type: EntryType;
}

export interface FileStat {
  readonly type: EntryType;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Read access to the workspace. */
export interface WorkspaceReader {
  /** Absolute workspace roots, already resolved (no symlinks). The first is the primary root. */
  readonly roots: readonly string[];
  /** The real path (symlinks followed). Rejects with an error whose `code` is 'ENOENT' when missing. */
  realpath(path: string): Promise<string>;
  /** Stat without following a final symlink is not needed: this follows symlinks. Undefined when missing. */
  stat(path: string): Promise<FileStat | undefined>;
  readFile(path: string): Promise<Uint8Array>;
  readDir(path: string): Promise<DirEntry[]>;
  /**
   * Whether a directory entry exists at `path`, a final symlink not followed (`lstat`, as a shell
   * tests a glob's literal last component). Optional: without it, the gate lists the folder.
   */
  exists?(path: string): Promise<boolean>;
}

/** Write access. Every write is atomic: a temporary file beside the target, then a rename. */
export interface WorkspaceWriter {
  writeFileAtomic(path: string, data: string | Uint8Array): Promise<void>;
  mkdirp(path: string): Promise<void>;
}

export interface RunOptions {
  readonly cwd: string;
  /**
   * Laid over the runner's environment: `undefined` removes a variable, and a name ending in `*`
   * with `undefined` removes every variable with that prefix (`GIT_*`) before the others apply.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  /** Bytes kept of each of stdout and stderr; the rest is dropped and `truncated` set. */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  /**
   * A read-only inspection command (the planning agent's): run it as a captured process, never in
   * a terminal the person watches. Verify and build commands leave it unset.
   */
  readonly captured?: boolean;
}

export interface RunResult {
  /** Null when the process was killed (timeout, abort) before it exited. */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly truncated: boolean;
  readonly durationMs: number;
}

/**
 * Runs one shell command line that the caller has already checked. The runner never decides
 * policy: the gate does, before this is called. No stdin is given.
 */
export interface CommandRunner {
  run(command: string, options: RunOptions): Promise<RunResult>;
  /** Safe modes of this machine's programs the gate may switch on (GNU sed's `--sandbox`). */
  readonly safeModes?: { readonly sedSandbox?: boolean };
}

export interface SearchRequest {
  readonly root: string;
  readonly pattern: string;
  readonly glob?: string;
  readonly contextLines: number;
  readonly maxMatches: number;
  readonly caseInsensitive?: boolean;
  readonly signal?: AbortSignal;
}

export interface SearchLine {
  readonly line: number;
  readonly text: string;
  readonly match: boolean;
}

export interface SearchFileResult {
  /** Path relative to the search root, with forward slashes. */
  readonly path: string;
  readonly lines: SearchLine[];
}

export interface SearchResult {
  readonly files: SearchFileResult[];
  readonly matchCount: number;
  readonly truncated: boolean;
  /** Which engine answered: ripgrep, or the JavaScript fallback when no `rg` exists. */
  readonly engine: 'ripgrep' | 'javascript';
}

/** Code search. The Node host uses `rg --json`; the fallback is a JavaScript walk. */
export interface Searcher {
  search(request: SearchRequest): Promise<SearchResult>;
}

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Opaque key/value persistence for the session archive (append-only JSON lines). */
export interface ArchiveStore {
  append(sessionId: string, line: string): Promise<void>;
  read(sessionId: string): Promise<string[] | undefined>;
  list(): Promise<string[]>;
}
