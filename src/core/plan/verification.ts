/**
 * Concrete verification (rules §3), judged once per `verify:` entry. An entry passes when it is one
 * focused, non-destructive command (`verifyCommand.ts`): at its start (after `NAME=val`
 * assignments or a wrapper word like `run`), inside a backtick span, or after a cue word (`then
 * use cargo test -p x to confirm …`). Otherwise it passes as an observable manual check: a checking
 * verb with an outcome a person can see (`confirm the panel shows the plan`, `verify startup time
 * improves`) or with measurements (`run at least 10 cold and warm launches before and after`).
 * Deferrals (`verify later`, `skip tests if unavailable`) never pass. A refusal says what is wrong
 * with the entry as written.
 */
import type { VerifyEntry } from './types';
import { readShell, type ShellWord } from './shellWords';
import { commandStart, judgeCommandWords, judgeReading, programOf, WRAPPER_WORDS } from './verifyCommand';

export { COMMAND_WORDS } from './verifyCommand';

/** Words after which a command may follow: `run npm test`, `confirm via cargo test`, `review plus cargo fmt --check`. */
const CUE_WORDS = new Set([
  'run',
  'runs',
  'running',
  'rerun',
  'execute',
  'executing',
  'invoke',
  'invoking',
  'use',
  'using',
  'with',
  'by',
  'via',
  'through',
  'then',
  'plus',
  'after',
]);

/** How far before a command a cue word may stand (`run the full cargo test`). */
const CUE_REACH = 3;

/** Words that end a command written inside prose (`use cargo test -p x to confirm …`). */
const PROSE_AFTER_COMMAND = new Set(['to', 'and', 'then', 'plus', 'so', 'which', 'while', 'until', 'for']);

const CHECK_VERBS = [
  'confirm',
  'compare',
  'inspect',
  'launch',
  'measure',
  'observe',
  'open',
  'review',
  'check',
  'run',
  'test',
  'validate',
  'verify',
  'benchmark',
  'profile',
  'record',
  'instrument',
];

/** Words that state an outcome a person can see: one is enough. */
const OUTCOMES = new Set([
  'improves',
  'improved',
  'show',
  'shows',
  'shown',
  'return',
  'returns',
  'returned',
  'report',
  'reports',
  'reported',
  'print',
  'prints',
  'printed',
  'render',
  'renders',
  'rendered',
  'emit',
  'emits',
  'emitted',
  'persist',
  'persists',
  'persisted',
  'remain',
  'remains',
  'stay',
  'stays',
  'fail',
  'fails',
  'failed',
  'match',
  'matches',
  'matched',
  'visible',
  'appear',
  'appears',
  'display',
  'displays',
  'displayed',
  'contain',
  'contains',
  'include',
  'includes',
  'list',
  'lists',
  'equal',
  'equals',
  'exit',
  'exits',
  'succeed',
  'succeeds',
  'reject',
  'rejects',
  'rejected',
  'completes',
  'finishes',
  'starts',
  'survives',
  'updates',
  'preserves',
  'holds',
  'waits',
  'never',
  'deferred',
  'expected',
  'observable',
  'available',
]);

/** Things a person can measure or read; two of them (one may be a number) make a check observable. */
const MEASURES = new Set([
  'output',
  'outputs',
  'log',
  'logs',
  'debug',
  'timing',
  'time',
  'times',
  'duration',
  'durations',
  'latency',
  'metric',
  'metrics',
  'result',
  'results',
  'baseline',
  'startup',
  'speed',
  'cold',
  'warm',
  'launch',
  'launches',
  'read',
  'reads',
  'phase',
  'phases',
  'prompt',
  'improvement',
  // comparisons: evidence, but a second piece must say of what (`fewer reads`)
  'faster',
  'fewer',
  'unchanged',
]);
const TEMPORAL = new Set(['before', 'after']);

/** Prose that puts the check off instead of stating it (`skip tests if unavailable`, `verify later`). */
const DEFERRAL =
  /^\s*(?:skip|skipped|skipping)\b|\blater\b|\bfor now\b|\bpostpone|\beventually\b|\bif time permits\b|\bwhen possible\b|\b(?:if|when) unavailable\b|^(?:none|n\/a|na|-)$/i;

/** What was judged of one `verify:` entry: its parse, or what is wrong with it. */
export type VerifyJudgement = { ok: true; entry: VerifyEntry } | { ok: false; problem: string };

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9_/.-]+/)
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((w) => w.length > 0);
}

function isCheckVerb(word: string): boolean {
  return CHECK_VERBS.some(
    (v) =>
      word === v ||
      word === `${v}s` ||
      word === `${v}ed` ||
      word === `${v}d` ||
      word === `${v}ing` ||
      word === `${v}es`,
  );
}

/** Why prose is not an observable check, or undefined when it is one. */
function observableProblem(text: string): string | undefined {
  const ws = words(text);
  if (/\b(?:tests?|checks|test suite)\b.*\b(?:pass|passes|passing|green)\b/i.test(text)) return undefined;
  if (!ws.some(isCheckVerb)) return 'neither a command nor a check a person can carry out';
  if (ws.some((w) => OUTCOMES.has(w))) return undefined;
  const measures = ws.filter((w) => MEASURES.has(w)).length;
  const numbers = ws.filter((w) => /\d/.test(w)).length;
  const temporal = ws.filter((w) => TEMPORAL.has(w)).length;
  if (measures + numbers + temporal >= 2 && measures + numbers >= 1 && (measures >= 1 || temporal >= 1))
    return undefined;
  return 'a check with no observable outcome: say what a person will see (shows, returns, startup time improves, a count or a timing)';
}

/** Quotes the entry for a problem text, shortened. */
function quoted(text: string): string {
  return `"${text.length > 80 ? `${text.slice(0, 77)}...` : text}"`;
}

/** A whole entry wrapped in one pair of quotes (`"npm test"`) is that command. */
function unwrapQuotes(text: string): string {
  const m = /^(["'])(.*)\1$/s.exec(text);
  return m && !(m[2] as string).includes(m[1] as string) ? (m[2] as string).trim() : text;
}

/** The command written inside prose from word `from`: up to a comma or a prose word after it. */
function commandInProse(all: readonly ShellWord[], from: number): string {
  const out: string[] = [];
  for (let i = from; i < all.length; i++) {
    const w = all[i] as ShellWord;
    if (i > from && !w.quoted && PROSE_AFTER_COMMAND.has(w.bare.toLowerCase())) break;
    const last = !w.quoted && /[,.]$/.test(w.raw) && i > from;
    out.push(last ? w.raw.slice(0, -1) : w.raw);
    if (last || (!w.quoted && w.raw.endsWith(','))) break;
  }
  return out.join(' ').replace(/[,.]$/, '');
}

/**
 * The one judgement of a `verify:` entry (rules §3), done by the validator and read by every runner
 * through `parseVerifyEntry`: a **command** (as written, quotes kept) or a **check** (an observable
 * check a person signs off), or what is wrong with it.
 */
export function judgeVerifyEntry(item: string): VerifyJudgement {
  const text = item.trim();
  if (text.length === 0) return { ok: false, problem: 'the check is empty' };
  const commandEntry = (command: string): VerifyJudgement => ({ ok: true, entry: { kind: 'command', text, command } });
  const bare = unwrapQuotes(text);

  // 1. An entry that starts with a command is that command, judged whole (chains, pipes, writes).
  if (!bare.startsWith('`')) {
    const reading = readShell(bare);
    const first = reading.segments[0]?.words ?? [];
    const start = commandStart(first);
    const verdict = start < first.length ? judgeCommandWords(first.slice(start)) : undefined;
    if (verdict !== undefined) {
      const whole = judgeReading(reading, start);
      // A leading wrapper word (`run npm test.`) is prose: the command is what follows it.
      const wrapped = start > 0 && !first.slice(0, start).some((w) => w.bare.includes('='));
      if (whole.ok) return commandEntry(wrapped ? commandInProse(first, start) : bare);
      // A command word that is really English ("make sense") may still open a manual check.
      if (!/English word|alone names/.test(whole.problem) || observableProblem(text) !== undefined) {
        return { ok: false, problem: whole.problem };
      }
    }
  }

  // 2. A backtick span holding a command: "`npm test` passes" runs `npm test`, never the prose.
  for (const m of text.matchAll(/`([^`]+)`/g)) {
    const span = (m[1] as string).trim();
    const reading = readShell(span);
    const first = reading.segments[0]?.words ?? [];
    const start = commandStart(first);
    if (start >= first.length || judgeCommandWords(first.slice(start)) === undefined) continue;
    const whole = judgeReading(reading, start);
    if (!whole.ok) return { ok: false, problem: whole.problem };
    return commandEntry(span);
  }

  // 3. A command after a cue word, or after a chain operator in prose.
  const prose = readShell(text);
  const all = prose.segments.flatMap((s) => s.words);
  let mentioned: string | undefined;
  for (let i = 0; i < all.length; i++) {
    const w = all[i] as ShellWord;
    const program = programOf(w);
    if (program.kind === 'none' || w.bare.startsWith('-')) continue;
    const cued = all
      .slice(Math.max(0, i - CUE_REACH), i)
      .some(
        (p) => CUE_WORDS.has(p.bare.toLowerCase().replace(/[^a-z]/g, '')) || WRAPPER_WORDS.has(p.bare.toLowerCase()),
      );
    const afterOperator = prose.segments.some((s, k) => k > 0 && s.words[0] === w);
    if (!cued && !afterOperator) {
      if (program.kind === 'program' && !program.path && i > 0) mentioned ??= w.bare;
      continue;
    }
    if (afterOperator && program.kind === 'program') {
      return {
        ok: false,
        problem: `it chains commands (\`${w.bare}\` follows \`;\`, \`&&\` or \`|\`): write one command per check`,
      };
    }
    const command = commandInProse(all, i);
    const reading = readShell(command);
    const verdict = judgeReading(reading, commandStart(reading.segments[0]?.words ?? []));
    if (verdict.ok) return commandEntry(command);
    if (!/English word|alone names/.test(verdict.problem)) return { ok: false, problem: verdict.problem };
  }

  // 4. Deferrals, then observable manual checks.
  if (DEFERRAL.test(text)) {
    return {
      ok: false,
      problem: `${quoted(text)} puts the check off instead of stating it; name the command or check to run now`,
    };
  }
  const problem = observableProblem(text);
  if (problem === undefined) return { ok: true, entry: { kind: 'check', text } };
  const cue = all.findIndex((w) => CUE_WORDS.has(w.bare.toLowerCase()));
  if (
    cue !== -1 &&
    cue + 1 < all.length &&
    programOf(all[cue + 1] as ShellWord).kind === 'none' &&
    /^run/i.test(all[cue]?.bare ?? '')
  ) {
    return {
      ok: false,
      problem: `${quoted(text)}: \`${all[cue + 1]?.bare}\` after "${all[cue]?.bare}" is not a command`,
    };
  }
  if (mentioned !== undefined) {
    return {
      ok: false,
      problem: `${quoted(text)} only mentions \`${mentioned}\`: write the command itself (\`${mentioned} …\` with its arguments) or "run ${mentioned} …"`,
    };
  }
  return { ok: false, problem: `${quoted(text)} is ${problem}` };
}

/**
 * The one parse of a `verify:` entry (rules §3), read by every runner: a command or a check.
 * Undefined when the entry is neither (the validator's "not concrete").
 */
export function parseVerifyEntry(item: string): VerifyEntry | undefined {
  const j = judgeVerifyEntry(item);
  return j.ok ? j.entry : undefined;
}

/** Rules §3 "concrete verification" for one check item. */
export function isConcreteCheck(item: string): boolean {
  return judgeVerifyEntry(item).ok;
}

/** The entry's parse, or a check when it is not concrete (a tracker item the agent added by hand). */
export function verifyEntryOf(item: string): VerifyEntry {
  return parseVerifyEntry(item) ?? { kind: 'check', text: item.trim() };
}
