/**
 * Which build-agent commands run without asking. A command runs at once when the read-only gate
 * (rules §1.1) allows it, or when it is one simple command (no chaining, pipes, redirection,
 * substitution, expansion or globs) matching an entry of the user's allow-list. Everything else is
 * put to the person. An untrusted workspace, or a command with characters that could hide what it
 * does in the approval prompt, is refused outright.
 */
import { judgeCommand, type GateContext, type Judgement } from '../../gate';

export interface BuildPolicyContext extends GateContext {
  /** Exact commands, or prefixes ending in ` *` (whole words follow) or `*` (the last word continues). */
  readonly allowList?: readonly string[];
}

export type BuildDecision =
  /** `runnable`: the gate's form of a read-only command (safe modes on); absent for allow-list matches. */
  | { readonly run: true; readonly why: string; readonly runnable?: string }
  | { readonly ask: true; readonly reason: string }
  | { readonly run: false; readonly reason: string };

type Split = { readonly words: string[] } | { readonly problem: string };

/**
 * Words of a command that is one simple command, after quote removal, or why it is not one.
 * Only plain words, quotes and backslash escapes pass; any character the shell would treat as an
 * operator or expand (outside single quotes) makes it "not simple".
 */
export function splitSimpleCommand(command: string): Split {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  const n = command.length;
  let i = 0;
  while (i < n) {
    const c = command[i] as string;
    if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return { problem: 'it has an unbalanced quote' };
      const inner = command.slice(i + 1, end);
      if (/[\r\n]/.test(inner)) return { problem: 'it spans several lines' };
      word += inner;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      i++;
      for (;;) {
        if (i >= n) return { problem: 'it has an unbalanced quote' };
        const d = command[i] as string;
        if (d === '"') break;
        if (d === '$' || d === '`') return { problem: `it expands '${d}' inside double quotes` };
        if (d === '\n' || d === '\r') return { problem: 'it spans several lines' };
        if (d === '\\' && i + 1 < n && '$`"\\'.includes(command[i + 1] as string)) {
          word += command[i + 1];
          i += 2;
          continue;
        }
        word += d;
        i++;
      }
      i++;
      continue;
    }
    if (c === '\\') {
      const e = command[i + 1];
      if (e === undefined) return { problem: 'it ends with a backslash' };
      if (e === '\n' || e === '\r') return { problem: 'it spans several lines' };
      word += e;
      i += 2;
      continue;
    }
    const problem = operatorProblem(c);
    if (problem) return { problem };
    word += c;
    i++;
  }
  if (inWord) words.push(word);
  if (words.length === 0) return { problem: 'it is empty' };
  return { words };
}

function operatorProblem(c: string): string | undefined {
  if (c === '\n' || c === '\r') return 'it spans several lines';
  if (c === ';' || c === '&' || c === '|') return `it chains or backgrounds commands with '${c}'`;
  if (c === '<' || c === '>') return `it redirects input or output with '${c}'`;
  if (c === '(' || c === ')') return `it opens a subshell with '${c}'`;
  if (c === '$' || c === '`') return `it uses '${c}' (expansion or command substitution)`;
  if ('*?[]{}'.includes(c)) return `it has an unquoted '${c}', which the shell expands`;
  return undefined;
}

interface Pattern {
  readonly entry: string;
  readonly words: readonly string[];
  /** exact: all words; words: these words then anything; partial: the last word may continue. */
  readonly mode: 'exact' | 'words' | 'partial';
}

function parseEntry(raw: string): Pattern | { readonly entry: string; readonly problem: string } {
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
export function matchAllowList(command: string, entries: readonly string[]): AllowMatch {
  const patterns = entries
    .filter((e) => e.trim() !== '')
    .map(parseEntry)
    .filter((p): p is Pattern => !('problem' in p));
  if (patterns.length === 0) return undefined;
  const split = splitSimpleCommand(command.trim());
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
  if (gate.allowed && judgement.parsed) return { run: true, why: gate.reason, runnable: judgement.parsed.runnable };
  const allow = matchAllowList(command, ctx.allowList ?? []);
  if (allow && 'entry' in allow) return { run: true, why: `allowed: matches your allow-list entry '${allow.entry}'` };
  const notReadOnly = `not read-only (${gate.reason.replace(/^blocked: /, '')})`;
  const listNote = allow
    ? `it starts like your allow-list entry '${allow.nearMiss}', but ${allow.problem}, so the allow-list does not cover it`
    : (ctx.allowList ?? []).some((e) => e.trim() !== '')
      ? 'it matches no entry of your allow-list'
      : 'no allow-list is set';
  return { ask: true, reason: `${notReadOnly}; ${listNote}` };
}
