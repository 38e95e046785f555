/** Shared shapes of the read-only gate (rules §1). */

export interface GateContext {
  /** Absolute workspace roots; the first is the working directory commands run in. */
  readonly roots: readonly string[];
  /** Whether the person trusts this workspace to run its own code (tests, build scripts). */
  readonly trusted: boolean;
  /** The home directory `~` stands for; when absent, every `~` path counts as outside the workspace. */
  readonly home?: string;
}

export interface Verdict {
  readonly allowed: boolean;
  /** One short sentence naming the rule, shown to the model and to the person. */
  readonly reason: string;
  /** A short stable id of the rule that decided, e.g. `raw.substitution`, `redirect`, `program`. */
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
}

/** A simple command between two of `&&`, `||`, `;`, `|` and newline. */
export interface Segment {
  readonly words: readonly Word[];
  /** The operator before it (a newline counts as `;`); null for the first segment. */
  readonly joinedBy: '&&' | '||' | ';' | '|' | null;
}
