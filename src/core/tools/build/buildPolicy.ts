/**
 * The one policy of every command the build side runs (rules §9): the build agent's
 * `run_command`, the verify gate, the CodeLens and panel Run buttons, Run All Verify and the CLI
 * all ask `decideBuildCommand`. A command runs at once when the read-only gate (rules §1.1) admits
 * it (in the gate's runnable form), or when it is one simple command (no chaining, pipes,
 * redirection, substitution, expansion or globs, read by the gate's own scanner) matching an entry
 * of the person's allow-list, or when the person approved its very text with the plan for this
 * build. Everything else is put to the person (`commandPermit.ts`). An untrusted workspace, or a
 * command with characters that could hide what it does in the approval prompt, is refused outright.
 */
import { judgeCommand, type GateContext, type Judgement } from '../../gate';
import { scanCommand, type ScanResult } from '../../gate/scan';

export interface BuildPolicyContext extends GateContext {
  /** Exact commands, or prefixes ending in ` *` (whole words follow) or `*` (the last word continues). */
  readonly allowList?: readonly string[];
  /** Commands the person approved with the plan, by their exact text, for this build only. */
  readonly approved?: ReadonlySet<string>;
}

/** Why a command runs without asking: the gate admitted it, the allow-list holds it, or the person approved it with the plan. */
export type RunsBecause = 'read_only' | 'allow_list' | 'approved';

export type BuildDecision =
  /** `runnable`: the gate's form of a read-only command (safe modes on); absent otherwise. */
  | { readonly run: true; readonly why: string; readonly via: RunsBecause; readonly runnable?: string }
  | { readonly ask: true; readonly reason: string }
  | { readonly run: false; readonly reason: string };

type Split = { readonly words: string[] } | { readonly problem: string };

/** Redirections the gate removes as harmless (`2>&1`, `>/dev/null` …), and nothing else. */
const HARMLESS_TAIL = /^(?:\s+(?:[12]?>&[12]|&>\s?\/dev\/null|[12]?>\s?\/dev\/null))*\s*$/;

/**
 * The words of a command that is one simple command, as the read-only gate's own scanner reads
 * them (POSIX quoting, `src/core/gate/scan.ts`), or why it is not one: a chain, a pipe, a
 * redirection, a substitution or expansion, a glob or a `~`, or text over several lines. The
 * gate's harmless redirections (`2>&1`, `>/dev/null`) are not words.
 */
export function splitSimpleCommand(command: string, scan?: ScanResult): Split {
  const text = command.trim();
  if (text === '') return { problem: 'it is empty' };
  if (/[\r\n]/.test(text)) return { problem: 'it spans several lines' };
  // The gate's scan of the command as given, when there is one: its offsets are into `command`.
  const source = scan ? command : text;
  const scanned = scan ?? scanCommand(text);
  if (!scanned.ok) return { problem: scanned.verdict.reason.replace(/^blocked: /, '') };
  const [first, ...rest] = scanned.segments;
  if (!first || first.words.length === 0) return { problem: 'it is empty' };
  const next = rest[0];
  if (next) {
    return next.joinedBy === '|'
      ? { problem: "it pipes into another command with '|'" }
      : { problem: `it chains commands with '${next.joinedBy ?? ';'}'` };
  }
  for (const w of first.words) {
    if (w.glob !== null) return { problem: `it has an unquoted glob in '${w.value}', which the shell expands` };
    if (w.tilde) return { problem: `it starts '${w.value}' with '~', which the shell expands` };
  }
  // After the last word only the gate's harmless redirections may follow: a stray operator or a
  // comment makes the text more than the one command the person would be allowing.
  const tail = source.slice((first.words[first.words.length - 1] as { end: number }).end);
  if (!HARMLESS_TAIL.test(tail)) return { problem: `it goes on after the command with '${tail.trim()}'` };
  return { words: first.words.map((w) => w.value) };
}

interface Pattern {
  readonly entry: string;
  readonly words: readonly string[];
  /** exact: all words; words: these words then anything; partial: the last word may continue. */
  readonly mode: 'exact' | 'words' | 'partial';
}

type Entry = Pattern | { readonly entry: string; readonly problem: string };

/** Entries as read, by their text: the same allow-list is read at every decision. */
const entries = new Map<string, Entry>();

function parseEntry(raw: string): Entry {
  const known = entries.get(raw);
  if (known) return known;
  const parsed = readEntry(raw);
  if (entries.size >= 512) entries.clear();
  entries.set(raw, parsed);
  return parsed;
}

function readEntry(raw: string): Entry {
  const entry = raw.trim();
  let body = entry;
  let mode: Pattern['mode'] = 'exact';
  if (/\s\*$/.test(entry)) {
    body = entry.slice(0, -1).trimEnd();
    mode = 'words';
  } else if (entry.endsWith('*')) {
    body = entry.slice(0, -1);
    mode = 'partial';
  }
  const split = splitSimpleCommand(body);
  if ('problem' in split) {
    return {
      entry,
      problem:
        body.trim() === ''
          ? 'it would allow every command; start it with a program name, e.g. "npm test *"'
          : `only one simple command can be allow-listed, but ${split.problem}`,
    };
  }
  return { entry, words: split.words, mode };
}

function matches(pattern: Pattern, words: readonly string[]): boolean {
  const p = pattern.words;
  if (pattern.mode === 'exact') return words.length === p.length && p.every((w, i) => words[i] === w);
  if (words.length < p.length) return false;
  const whole = pattern.mode === 'words' ? p.length : p.length - 1;
  for (let i = 0; i < whole; i++) if (words[i] !== p[i]) return false;
  return pattern.mode === 'words' || (words[whole] as string).startsWith(p[whole] as string);
}

/** Allow-list entries that can never match, each with why (for a settings warning). */
export function allowListProblems(entries: readonly string[]): { entry: string; problem: string }[] {
  return entries
    .filter((e) => e.trim() !== '')
    .map(parseEntry)
    .filter((p): p is { entry: string; problem: string } => 'problem' in p);
}

type AllowMatch = { readonly entry: string } | { readonly nearMiss: string; readonly problem: string } | undefined;

/** The allow-list entry the command matches, or the entry it only starts like (and why that is not enough). */
export function matchAllowList(command: string, list: readonly string[], scan?: ScanResult): AllowMatch {
  const patterns = list
    .filter((e) => e.trim() !== '')
    .map(parseEntry)
    .filter((p): p is Pattern => !('problem' in p));
  if (patterns.length === 0) return undefined;
  const split = splitSimpleCommand(command, scan);
  if ('words' in split) {
    const hit = patterns.find((p) => matches(p, split.words));
    return hit ? { entry: hit.entry } : undefined;
  }
  const text = command.trim();
  const near = patterns.find((p) => {
    const prefix = p.entry.replace(/\s*\*$/, '');
    if (!text.startsWith(prefix)) return false;
    const next = text[prefix.length];
    return p.mode === 'partial' || next === undefined || /[\s;&|<>()`$]/.test(next);
  });
  return near ? { nearMiss: near.entry, problem: split.problem } : undefined;
}

/**
 * Control characters (other than tab and newline), and invisible or direction-changing
 * characters, can make a command look different from what runs: such a command is never shown
 * for approval.
 */
export function hiddenCharacter(command: string): string | undefined {
  for (const ch of command) {
    const code = ch.codePointAt(0) as number;
    const control = (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
    const invisible =
      (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2060 && code <= 0x2069) ||
      code === 0x061c ||
      code === 0xfeff;
    if (control || invisible) return `the character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return undefined;
}

/**
 * Decides a build-agent command. `shell` is the gate's judgement of this very command when the
 * dispatcher already made it; the build policy and `run_command` then read the same judgement.
 */
export async function decideBuildCommand(
  command: string,
  ctx: BuildPolicyContext,
  shell?: Judgement,
): Promise<BuildDecision> {
  if (!ctx.trusted) {
    return {
      run: false,
      reason:
        'blocked: run_command is off because this workspace is not trusted; the person must trust the workspace first',
    };
  }
  if (command.trim() === '') return { run: false, reason: 'blocked: the command is empty' };
  const hidden = hiddenCharacter(command);
  if (hidden) {
    return {
      run: false,
      reason: `blocked: the command contains ${hidden}, which could hide what it does from the person approving it; send plain text`,
    };
  }
  const judgement = shell?.command === command ? shell : await judgeCommand(command, ctx);
  const gate = judgement.verdict;
  if (gate.allowed && judgement.parsed) {
    return { run: true, why: gate.reason, via: 'read_only', runnable: judgement.parsed.runnable };
  }
  const allow = matchAllowList(
    command,
    ctx.allowList ?? [],
    judgement.command === command ? judgement.scan : undefined,
  );
  if (allow && 'entry' in allow) {
    return { run: true, why: `allowed: matches your allow-list entry '${allow.entry}'`, via: 'allow_list' };
  }
  if (ctx.approved?.has(command.trim())) {
    return { run: true, why: 'allowed: you approved this command with the plan, for this build', via: 'approved' };
  }
  const notReadOnly = `not read-only (${gate.reason.replace(/^blocked: /, '')})`;
  const listNote = allow
    ? `it starts like your allow-list entry '${allow.nearMiss}', but ${allow.problem}, so the allow-list does not cover it`
    : (ctx.allowList ?? []).some((e) => e.trim() !== '')
      ? 'it matches no entry of your allow-list'
      : 'no allow-list is set';
  return { ask: true, reason: `${notReadOnly}; ${listNote}` };
}
