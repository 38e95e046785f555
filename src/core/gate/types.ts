/** Shared shapes of the read-only gate (rules §1). */
import type { WorkspaceReader } from '../ports';
import type { ShapeSegment } from './shape';
import type { ScanResult } from './scan';

/** What the gate reads of the disk: real paths, existence and directory listings (for globs). */
export type GateFs = Pick<WorkspaceReader, 'realpath' | 'stat' | 'readDir' | 'exists'>;

export interface GateContext {
  /** Absolute workspace roots, real paths; the first is the working directory commands run in. */
  readonly roots: readonly string[];
  /** Whether the person trusts this workspace to run its own code (tests, build scripts). */
  readonly trusted: boolean;
  /** The home directory `~` stands for; when absent, every `~` path counts as outside the workspace. */
  readonly home?: string;
  /** The real file system: every path word is resolved on it, symlinks included. */
  readonly fs: GateFs;
  /** Programs known to have a safe mode the gate switches on (GNU sed's `--sandbox`). */
  readonly safeModes?: { readonly sedSandbox?: boolean };
}

export interface Verdict {
  readonly allowed: boolean;
  /** One short sentence naming the rule, shown to the model and to the person. */
  readonly reason: string;
  /** A short stable id of the rule that decided, e.g. `raw.substitution`, `redirect`, `option`. */
  readonly rule: string;
}

export type ToolKind = 'read' | 'list' | 'search' | 'interview' | 'tracker' | 'shell' | 'write' | 'other';

export function blocked(rule: string, why: string): Verdict {
  return { allowed: false, reason: `blocked: ${why}`, rule };
}

export function allowed(why: string, rule = 'allowed'): Verdict {
  return { allowed: true, reason: `allowed: ${why}`, rule };
}

/** One word of a command after quote removal, with what the shell would still expand in it. */
export interface Word {
  readonly value: string;
  /** The word starts with an unquoted `~` (the shell replaces it with a home directory). */
  readonly tilde: boolean;
  /** Index of the first quoted or escaped character in `value`; `value.length` when none. */
  readonly firstQuoted: number;
  /** The word as a glob pattern (quoted glob characters escaped) when it holds an unquoted `*`, `?` or `[`. */
  readonly glob: string | null;
  /** Offsets of the word in the source command, `[start, end)`. */
  readonly start: number;
  readonly end: number;
}

/** A simple command between two of `&&`, `||`, `;`, `|` and newline, as scanned. */
export interface Segment {
  readonly words: readonly Word[];
  /** The operator before it (a newline counts as `;`); null for the first segment. */
  readonly joinedBy: '&&' | '||' | ';' | '|' | null;
}

/**
 * What a word is to the program that receives it. `path` words were resolved on the real file
 * system and lie inside the workspace; `dir` words also moved the program's working directory.
 */
export type WordKind =
  'assignment' | 'program' | 'subcommand' | 'option' | 'path' | 'dir' | 'pattern' | 'script' | 'number' | 'text';

export interface ParsedWord {
  /** The word as the program receives it (after quote removal and glob expansion). */
  readonly value: string;
  readonly kind: WordKind;
  /** For `path` and `dir` words: the real absolute path it names. */
  readonly resolved?: string;
  /** The option a value belongs to (`--from-file`), when it is one. */
  readonly option?: string;
}

/** One simple command of a judged command line. */
export interface ParsedSegment {
  /** The program's name (`/usr/bin/rg` → `rg`); `cd` for a directory change. */
  readonly program: string;
  /** The subcommand path, e.g. `log` for `git log`, `nextest run` for `cargo nextest run`. */
  readonly subcommand?: string;
  /** Every word after the assignments, the program's first. Globs are expanded. */
  readonly words: readonly ParsedWord[];
  /** The arguments as the program receives them (words after the program word). */
  readonly args: readonly string[];
  /** The working directory the segment runs in (absolute, real). */
  readonly cwd: string;
  readonly joinedBy: Segment['joinedBy'];
  /** Whether it runs the project's own code (tests, build scripts). */
  readonly projectCode: boolean;
}

/** The command the gate judged, parsed once for every consumer (rules §1.1 step 9). */
export interface ParsedCommand {
  /** The command as judged (a leading byte order mark removed). */
  readonly source: string;
  /**
   * The command line that runs: the source with safe modes switched on (`sed --sandbox`,
   * `git log --no-textconv --no-ext-diff`).
   */
  readonly runnable: string;
  /**
   * The environment changes it runs with (rules §1.1 steps 9 and 10): `undefined` removes a
   * variable, a name ending in `*` every variable with that prefix; git's configuration that
   * outranks the repository's is here (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_n`, `GIT_CONFIG_VALUE_n`).
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly segments: readonly ParsedSegment[];
}

/** Work done to judge one command, for the linear-cost property. */
export interface GateWork {
  /** Real-path lookups made on the file system (each distinct path at most once). */
  lookups: number;
  /** Working directories computed (one per segment at most). */
  cwds: number;
  /** Directory listings and candidates produced by glob expansion. */
  globSteps: number;
}

export type { ShapeSegment } from './shape';

export interface Judgement {
  /** The command as it was given to the gate. */
  readonly command: string;
  readonly verdict: Verdict;
  /** The parse, when the command got as far as being parsed (always when it is allowed). */
  readonly parsed?: ParsedCommand;
  /** The command's shape for the guards, whenever it could be scanned (allowed or not). */
  readonly shape?: readonly ShapeSegment[];
  /** The gate's one scan of the command, for a refused command (the build's allow-list reads its words). */
  readonly scan?: ScanResult;
  readonly work: GateWork;
}
