/**
 * Concrete verification (rules §3). A check passes when it is a command (a known command word or
 * a script path, optionally after `NAME=val` assignments), names a command after a cue word
 * (`run npm test`), holds a command in a backtick span, or is an observable check: at least two
 * words, a checking verb and an observable outcome (`confirm the panel shows the plan`).
 */
import type { VerifyEntry } from './types';

/** Programs a verification command may start with. */
export const COMMAND_WORDS: ReadonlySet<string> = new Set([
  'npm',
  'pnpm',
  'yarn',
  'npx',
  'node',
  'tsc',
  'tsx',
  'mocha',
  'jest',
  'vitest',
  'playwright',
  'cypress',
  'eslint',
  'prettier',
  'deno',
  'bun',
  'cargo',
  'rustc',
  'go',
  'gofmt',
  'make',
  'cmake',
  'ctest',
  'just',
  'bazel',
  'gradle',
  'gradlew',
  'mvn',
  'dotnet',
  'pytest',
  'python',
  'python3',
  'pip',
  'uv',
  'poetry',
  'tox',
  'nox',
  'ruff',
  'mypy',
  'black',
  'flake8',
  'ruby',
  'rspec',
  'bundle',
  'rake',
  'php',
  'phpunit',
  'composer',
  'swift',
  'xcodebuild',
  'zig',
  'mix',
  'rg',
  'grep',
  'git',
  'diff',
  'jq',
  'curl',
  'docker',
  'kubectl',
  'terraform',
  'shellcheck',
  'bash',
  'sh',
  'ast-grep',
  'sg',
  'planwise',
  'vsce',
]);

/** Words after which a command may follow: `run npm test`, `confirm via cargo test`. */
const CUE_WORDS = new Set([
  'run',
  'runs',
  'running',
  'rerun',
  'use',
  'using',
  'with',
  'via',
  'then',
  'execute',
  'executing',
]);

const CHECK_VERBS = [
  'confirm',
  'compare',
  'inspect',
  'launch',
  'measure',
  'observe',
  'open',
  'run',
  'test',
  'validate',
  'verify',
];

const OBSERVABLE_WORDS = new Set([
  'return',
  'returns',
  'returned',
  'show',
  'shows',
  'shown',
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
  'print',
  'prints',
  'equal',
  'equals',
  'exit',
  'exits',
  'succeed',
  'succeeds',
  'reject',
  'rejects',
  'rejected',
  'unchanged',
]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;
const SCRIPT_PATH = /^(?:\.{1,2}\/\S+|[\w.-]+(?:\/[\w.-]+)+\.(?:sh|bash|py|js|mjs|cjs|ts|rb|pl|ps1))$/;

function isCommandWord(token: string | undefined): boolean {
  if (token === undefined) return false;
  const t = token.replace(/^[`'"(]+|[`'",;:)]+$/g, '');
  if (SCRIPT_PATH.test(t)) return true;
  return COMMAND_WORDS.has(t.toLowerCase());
}

/** True when the text starts with a command, after optional `NAME=val` assignments. */
export function startsWithCommand(text: string): boolean {
  const tokens = text.trim().split(/\s+/);
  let i = 0;
  while (i < tokens.length && ASSIGNMENT.test(tokens[i] as string)) i++;
  return isCommandWord(tokens[i]);
}

function hasCommandAfterCue(tokens: readonly string[]): boolean {
  for (let i = 0; i < tokens.length - 1; i++) {
    const word = (tokens[i] as string).toLowerCase().replace(/[^a-z]/g, '');
    if (CUE_WORDS.has(word) && startsWithCommand(tokens.slice(i + 1).join(' '))) return true;
  }
  return false;
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

function isObservableCheck(text: string): boolean {
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9_-]+/)
    .filter((w) => w.length > 0);
  if (words.length < 2) return false;
  if (!words.some(isCheckVerb)) return false;
  return words.some((w) => OBSERVABLE_WORDS.has(w)) || /\btests?\s+pass(?:es|ing)?\b/i.test(text);
}

/** Rules §3 "concrete verification" for one check item. */
export function isConcreteCheck(item: string): boolean {
  return parseVerifyEntry(item) !== undefined;
}

/** A whole entry wrapped in one pair of quotes (`"npm test"`) is that command; anything else stays as written. */
function unwrapQuotes(text: string): string {
  const m = /^(["'])(.*)\1$/s.exec(text);
  return m && !(m[2] as string).includes(m[1] as string) ? (m[2] as string).trim() : text;
}

/**
 * The one parse of a `verify:` entry (rules §3), done once by the validator and read by every
 * runner: a **command** (a bare command, else the command inside backticks, else the command after
 * a cue word) or a **check** (an observable check that no command proves, signed off by a person).
 * Commands are kept exactly as written: quotes inside them are never stripped. Undefined when the
 * entry is neither (the validator's "not concrete").
 */
export function parseVerifyEntry(item: string): VerifyEntry | undefined {
  const text = item.trim();
  if (text.length === 0) return undefined;
  const command = (c: string): VerifyEntry => ({ kind: 'command', text, command: c });
  // An entry that starts with a command is that command, as written (backticks inside included).
  const bare = unwrapQuotes(text);
  if (!/^`/.test(bare) && startsWithCommand(bare)) return command(bare);
  // Otherwise a backtick span holding a command: "`npm test` passes" runs `npm test`, never the prose.
  for (const m of text.matchAll(/`([^`]+)`/g)) {
    const span = (m[1] as string).trim();
    if (startsWithCommand(span)) return command(span);
  }
  const cued = commandAfterCue(text);
  if (cued !== undefined) return command(cued);
  return isObservableCheck(text) ? { kind: 'check', text } : undefined;
}

/** The entry's parse, or a check when it is not concrete (a tracker item the agent added by hand). */
export function verifyEntryOf(item: string): VerifyEntry {
  return parseVerifyEntry(item) ?? { kind: 'check', text: item.trim() };
}

function commandAfterCue(text: string): string | undefined {
  const tokens = text.split(/\s+/);
  if (!hasCommandAfterCue(tokens)) return undefined;
  for (let i = 0; i < tokens.length - 1; i++) {
    const word = (tokens[i] as string).toLowerCase().replace(/[^a-z]/g, '');
    const rest = tokens.slice(i + 1).join(' ');
    // Prose ends with a full stop that is not part of the command ("run npm test.").
    if (CUE_WORDS.has(word) && startsWithCommand(rest)) return rest.replace(/(?<=\w)\.$/, '');
  }
  return undefined;
}
