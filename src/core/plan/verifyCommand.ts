/**
 * Whether the words of a `verify:` entry form one focused, non-destructive command (rules §3): a
 * known program (or a script path that stays inside the workspace) with something to run, git
 * only in focused read-only forms, and nothing that deletes, rewrites, chains or runs fetched code.
 * Each refusal names what is wrong with the command as written.
 */
import type { ShellReading, ShellWord } from './shellWords';
import {
  COMMAND_WORDS,
  DESTRUCTIVE,
  ENGLISH_EXAMPLES,
  ENGLISH_WORDS,
  GIT_MUTATING,
  INTERPRETERS,
  RUN_EXAMPLES,
} from './verifyWords';

export { COMMAND_WORDS } from './verifyWords';

const GIT_FOCUSED = new Set(['log', 'show', 'diff', 'blame']);
const GIT_EXAMPLES = 'git log -5 --oneline, git show --stat HEAD, git diff HEAD~1 -- src/a.ts, git blame src/a.ts';

/** Words that only run the next word: `command git …`, `run npm test`. */
export const WRAPPER_WORDS: ReadonlySet<string> = new Set(['command', 'run', 'execute', 'invoke', 'use']);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S+$/;
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const PATH_PART = /^[A-Za-z0-9._-]+$/;
const SCRIPT = /\.(?:sh|bash|cmd|bat|ps1)$/i;
const FILE_NAME = /^[A-Za-z0-9_.-]*[A-Za-z0-9_-]\.[A-Za-z0-9]{1,12}$/;

export function isAssignment(word: ShellWord): boolean {
  return ASSIGNMENT.test(word.bare);
}

/** What a word at the head of a command is. */
export type Program =
  { kind: 'program'; name: string; path: boolean } | { kind: 'unsafe'; problem: string } | { kind: 'none' };

/** Classifies a command word: a known program, a script or executable path, or neither. */
export function programOf(word: ShellWord): Program {
  const w = word.bare;
  if (w.length === 0) return { kind: 'none' };
  if (URL_SCHEME.test(w)) return { kind: 'unsafe', problem: `\`${w}\` is a web address, not a command` };
  // Prose in brackets or parentheses (`(manual)`, `[see docs/a.md]`) is no command at all.
  if (/^[[({]|[\])}]$/.test(w)) return { kind: 'none' };
  if (/[;&|<>$(){}!*?~\\[\]`]/.test(w)) {
    if (!w.includes('/')) return { kind: 'none' };
    return { kind: 'unsafe', problem: `\`${w}\` is not a program name: it holds shell syntax` };
  }
  if (w.includes('/')) {
    const absolute = w.startsWith('/');
    const rest = absolute ? w.slice(1) : w.replace(/^\.\//, '');
    const parts = rest.split('/');
    if (w.endsWith('/')) return { kind: 'unsafe', problem: `\`${w}\` names a folder, not a program` };
    if (parts.some((p) => p === '..')) {
      return { kind: 'unsafe', problem: `\`${w}\` leaves the workspace (\`..\`): run a program inside it` };
    }
    if (parts.some((p) => p === '')) {
      return { kind: 'unsafe', problem: `\`${w}\` has an empty path part (\`//\`): write the path plainly` };
    }
    if (!parts.every((p) => p !== '.' && PATH_PART.test(p))) return { kind: 'none' };
    const base = parts[parts.length - 1] as string;
    // An absolute path names the program by its base name (`/usr/bin/git` is git).
    return { kind: 'program', name: absolute ? base.toLowerCase() : w, path: true };
  }
  const lower = w.toLowerCase();
  if (COMMAND_WORDS.has(lower) || DESTRUCTIVE.has(lower)) return { kind: 'program', name: lower, path: false };
  if (SCRIPT.test(w) && PATH_PART.test(w)) return { kind: 'program', name: w, path: true };
  return { kind: 'none' };
}

function isFlag(w: string): boolean {
  return w.length > 1 && w.startsWith('-');
}

function isPathLike(w: string): boolean {
  return w.includes('/') || w.includes('\\') || FILE_NAME.test(w) || w === '.';
}

/** The outcome of judging a command: fine, or what is wrong with it. */
export type CommandVerdict = { ok: true } | { ok: false; problem: string };

function fail(problem: string): CommandVerdict {
  return { ok: false, problem };
}

function judgeGit(words: readonly ShellWord[], shown: string): CommandVerdict {
  let i = 1;
  while (words[i]?.bare === '--no-pager') i++;
  const sub = words[i]?.bare;
  if (sub === undefined) return fail(`\`${shown}\` runs git with nothing to show: use ${GIT_EXAMPLES}`);
  if (GIT_MUTATING.has(sub)) {
    return fail(`\`${shown}\` is a mutating git command (git ${sub} changes the repository); a check may only read it`);
  }
  if (!GIT_FOCUSED.has(sub)) {
    return fail(
      `\`${shown}\` is not a focused git check: only git log, show, diff and blame are, e.g. ${GIT_EXAMPLES}`,
    );
  }
  const args = words.slice(i + 1).map((w) => w.bare);
  const unsafe = args.find((a) => /^--(?:check|output|ext-diff|exec)\b|^--format=.*%x/.test(a));
  if (unsafe !== undefined) {
    return fail(
      unsafe.startsWith('--check')
        ? `\`${shown}\` only checks whitespace, which says nothing about the change; show the change instead (git diff HEAD~1 -- src/a.ts)`
        : `\`${shown}\` uses ${unsafe.split('=')[0] as string}, which writes files or runs programs`,
    );
  }
  const narrowed = args.some(
    (a, k) =>
      (a === '--' && args[k + 1] !== undefined) ||
      /^--(?:since|until|author|grep|max-count)=.+/.test(a) ||
      /^-\d+$/.test(a) ||
      (!a.startsWith('-') && a.length > 0),
  );
  if (!narrowed) {
    return fail(
      `\`${shown}\` is not narrowed to a revision, a path or a count, so it proves nothing about this step: e.g. ${GIT_EXAMPLES}`,
    );
  }
  return { ok: true };
}

/**
 * Judges one simple command's words (assignments and wrapper words already skipped). `undefined`
 * when the first word is no command at all (prose).
 */
export function judgeCommandWords(words: readonly ShellWord[]): CommandVerdict | undefined {
  const head = words[0];
  if (head === undefined) return undefined;
  const program = programOf(head);
  if (program.kind === 'none') return undefined;
  const shown = words.map((w) => w.raw).join(' ');
  if (program.kind === 'unsafe') return fail(program.problem);
  const name = program.name;
  const args = words.slice(1).map((w) => w.bare);
  const destructive = DESTRUCTIVE.get(name) ?? (name.startsWith('mkfs') ? 'formats a disk' : undefined);
  if (destructive !== undefined) {
    return fail(
      destructive.startsWith('starts a shell')
        ? `\`${shown}\` ${destructive}`
        : `\`${shown}\` ${destructive}; a check may only look at the workspace, never change or fetch`,
    );
  }
  if (name === 'git') return judgeGit(words, shown);
  if (!program.path && args.length === 0) {
    const example = RUN_EXAMPLES[name] ?? `${name} <what to run>`;
    return fail(`\`${name}\` alone names a tool but not what to run: give it its arguments (e.g. \`${example}\`)`);
  }
  if (!program.path && ENGLISH_WORDS.has(name) && !args.some((a) => isFlag(a) || isPathLike(a))) {
    return fail(
      `\`${shown}\` is not a command: "${name}" is also an English word, so it counts as a command only with a flag or a path after it (e.g. \`${ENGLISH_EXAMPLES[name] ?? `${name} -x path/`}\`)`,
    );
  }
  if (name === 'sed' && args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a))) {
    return fail(`\`${shown}\` edits files in place; a check must leave the workspace as it is`);
  }
  if (name === 'find' && args.some((a) => /^-(?:delete|exec|execdir|ok|okdir|fprint\w*|fls)$/.test(a))) {
    return fail(`\`${shown}\` deletes files or runs other programs; a check must only look`);
  }
  return { ok: true };
}

/** Skips `NAME=val` assignments and wrapper words (`command`, `run`…) at the start. */
export function commandStart(words: readonly ShellWord[], from = 0): number {
  let i = from;
  while (i < words.length && isAssignment(words[i] as ShellWord)) i++;
  while (i < words.length - 1 && WRAPPER_WORDS.has((words[i] as ShellWord).bare.toLowerCase())) {
    if (programOf(words[i + 1] as ShellWord).kind === 'none') break;
    i++;
  }
  return i;
}

/**
 * Judges a whole reading whose first segment starts with a command: one command only (no `;`,
 * `&&`, `||`, `&`), pipes only into commands that are not shells or interpreters, no output
 * written to files, and the first command itself.
 */
export function judgeReading(reading: ShellReading, start: number): CommandVerdict {
  const first = reading.segments[0];
  if (first === undefined) return fail('the check is empty');
  const verdict = judgeCommandWords(first.words.slice(start)) ?? fail('it does not start with a command');
  if (!verdict.ok) return verdict;
  if (!reading.closed) return fail('a quote is left open');
  const shown = (k: number) => (reading.segments[k]?.words ?? []).map((w) => w.raw).join(' ');
  for (let k = 0; k < reading.segments.length; k++) {
    const seg = reading.segments[k] as (typeof reading.segments)[number];
    const next = reading.segments[k + 1];
    if (seg.op === undefined) continue;
    if (seg.op !== '|' && (next === undefined || next.words.length === 0)) {
      return fail(`\`${seg.op}\` after \`${shown(k)}\` is not part of a program name: it ends a shell command`);
    }
    if (next === undefined || next.words.length === 0) continue;
    if (seg.op !== '|') {
      const following = !(next.words[0] as ShellWord).bare.startsWith('-');
      return fail(
        following
          ? `it chains commands (\`${seg.op}\` before \`${shown(k + 1)}\`): write one command per check, as a list [a, b]`
          : `\`${seg.op}\` is not part of a program name: it ends the command \`${shown(k)}\` before \`${shown(k + 1)}\``,
      );
    }
    const reader = next.words[commandStart(next.words)]?.bare ?? '';
    const name = reader.split('/').pop()?.toLowerCase();
    if (name !== undefined && INTERPRETERS.has(name)) {
      return fail(`it pipes into a shell (\`| ${shown(k + 1)}\`), which would run the text as code`);
    }
    // A pipe's reader needs no arguments of its own (`| sort`, `| wc -l`), but may not write or delete.
    const piped = judgeCommandWords(next.words.slice(commandStart(next.words)));
    if (piped !== undefined && !piped.ok && !/English word|alone names/.test(piped.problem)) return piped;
  }
  if (reading.writes.length > 0) {
    return fail(`it writes its output to ${reading.writes.map((w) => `\`${w}\``).join(', ')}; a check must only look`);
  }
  return { ok: true };
}
