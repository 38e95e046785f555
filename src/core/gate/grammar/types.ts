/**
 * The argv grammar of an allowed program (rules §1.1 step 7), declared as data. The gate reads a
 * command's words against it: an option not declared is refused, an option's value is consumed by
 * its declaration (so it can never be taken for a subcommand), and every word gets a kind. Words of
 * kind `path` or `dir` are then resolved on the real file system and must stay in the workspace.
 */

/**
 * The kind of an option value or positional.
 * - `path`: a file or directory the program reads (checked inside the workspace);
 * - `dir`: a directory the program works from, like `git -C` (checked, and it moves the cwd);
 * - `rev`: a git revision or a path (checked as a path: a revision never leaves the workspace);
 * - `pattern`, `script`, `text`: read as data, never opened;
 * - `number`: digits with an optional sign and unit suffix (`20`, `+5`, `4K`);
 * - an array: one of these exact words.
 */
export type ValueKind = 'path' | 'dir' | 'rev' | 'pattern' | 'script' | 'text' | 'number' | readonly string[];

export interface OptionSpec {
  /** The kind of the option's value; absent for a flag. */
  readonly value?: ValueKind;
  /** The value may only be attached (`--color=auto`, `-I[FMT]`); alone the option is a flag. */
  readonly optionalValue?: boolean;
  /** The program takes the value only as the next word (git's `-C dir`): an attached value is refused. */
  readonly separateValue?: boolean;
  /** The option is known and refused, for this reason (shown after the option). */
  readonly refuse?: string;
  /** The option follows symlinks while traversing: refused, pointing to the non-following form. */
  readonly follows?: string;
  /** The option consumes this many extra words after its value (`jq --arg NAME VALUE`). */
  readonly extraValues?: number;
  /** The option supplies the pattern or script itself, so the first positional is not one. */
  readonly suppliesPattern?: boolean;
  /** The option ends the program's argument parsing: nothing may follow it. */
  readonly terminal?: boolean;
}

/** What the parse of one program's arguments saw, for the positional kinds and extra checks. */
export interface ArgvState {
  /** Canonical names of the options seen (a short option by its `-x` name, a long by `--name`). */
  readonly seen: ReadonlySet<string>;
  /** Values given to each option, in order. */
  readonly values: ReadonlyMap<string, readonly string[]>;
  /** The positionals so far, as the program receives them. */
  readonly positionals: readonly string[];
  /** Whether `--` has been passed. */
  readonly afterDashDash: boolean;
}

export interface Grammar {
  /** The program or subcommand this grammar is for (used in reasons: `git log`). */
  readonly name: string;
  /** Options by name: `-x` for short ones, `--name` for long ones. */
  readonly options: Readonly<Record<string, OptionSpec>>;
  /**
   * Kind of the positional at `index` (0-based), or null when the program takes no more
   * positionals. Defaults to `path` for every positional.
   */
  readonly positional?: (index: number, state: ArgvState) => ValueKind | null;
  /** `-NUM` is a count (`head -20`, `git log -5`, `grep -3`). */
  readonly numericOption?: boolean;
  /** POSIX style: the first positional ends the options (default: GNU style, options anywhere). */
  readonly optionsFirst?: boolean;
  /** Subcommands, each with its own grammar; `options` are then the global options before it. */
  readonly subcommands?: Readonly<Record<string, Grammar>>;
  /** Without a subcommand the program is refused unless a terminal global option (`--version`) was given. */
  readonly subcommandRequired?: boolean;
  /** The words after `--` follow this grammar (a test runner's arguments) instead of the positionals. */
  readonly afterDashDash?: Grammar;
  /**
   * The program hands `--` on to another parser (a test runner's arguments), so the words after it
   * are still read as options of this grammar.
   */
  readonly optionsAfterDashDash?: boolean;
  /** The program runs project code (tests, build scripts): trusted workspaces only. */
  readonly projectCode?: boolean;
  /** A check over the whole parse, for what a table cannot say; returns the refusal, or null. */
  readonly check?: (state: ArgvState) => { readonly rule: string; readonly reason: string } | null;
  /** A grammar that reads its own words (find's expression language, test's operators). */
  readonly custom?: (args: readonly string[]) => CustomParse;
  /**
   * Options always inserted right after this subcommand's word, switching off what the repository
   * could make it run (`git log --no-textconv --no-ext-diff`).
   */
  readonly insert?: string;
  /** Options inserted right after the program word to switch on its safe mode, when the host supports it. */
  readonly safeMode?: { readonly key: 'sedSandbox'; readonly insert: string };
}

/**
 * What a grammar file exports as `grammars`: its programs by name, each with the function that
 * builds its grammar (the gate builds a program's grammar when it first judges that program).
 */
export type Grammars = Readonly<Record<string, () => Grammar>>;

/** The kinds a custom grammar assigned, or why it refuses. */
export type CustomParse =
  | { readonly ok: true; readonly kinds: readonly ArgKind[] }
  | { readonly ok: false; readonly rule: string; readonly reason: string };

export interface ArgKind {
  readonly kind: 'option' | 'path' | 'dir' | 'pattern' | 'script' | 'text' | 'number';
  readonly option?: string;
}
