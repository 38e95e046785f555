/**
 * The shape of a shell command as the guards need it: which programs run, in which directory,
 * on which paths. Parsing only; no policy (the gate decides what may run).
 */
import { posix } from 'node:path';
import { quote } from 'shell-quote';
import { shapeOfCommand, type ShapeSegment } from '../../gate';
import type { GuardCall, OutcomeCategory } from './types';

/** A segment as the gate's scan (and, for an allowed command, its parse) gives it. */
export type CommandSegment = ShapeSegment;

/** The command line of a shell call: `args.command` (string or argv array) or `args.cmd`. */
export function commandOf(args: Record<string, unknown>): string {
  const raw = args['command'] ?? args['cmd'];
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw) && raw.every((t) => typeof t === 'string')) return quote(raw as string[]);
  return '';
}

/** The working directory a call names (`workdir`, `cwd`), or '.'. */
export function workdirOf(args: Record<string, unknown>): string {
  const raw = args['workdir'] ?? args['cwd'];
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : '.';
}

/**
 * Splits a command line into program segments (`cd DIR &&` prefixes move the later segments' cwd)
 * with the gate's scanner: the guards never tokenise a command their own way.
 */
export function segmentsOf(command: string): CommandSegment[] {
  return shapeOfCommand(command);
}

/**
 * A path as a stable key: forward slashes, normalised, relative to `cwd` when relative, relative
 * to `root` when absolute inside it, no trailing slash, '.' for the current directory.
 */
export function normalizePath(path: string, cwd = '.', root?: string): string {
  let p = path.replace(/\\/g, '/').trim();
  if (p === '') p = '.';
  if (p === '~' || p.startsWith('~/')) return posix.normalize(p);
  p = p.startsWith('/') ? posix.normalize(p) : posix.normalize(posix.join(cwd.replace(/\\/g, '/'), p));
  if (root !== undefined) {
    const r = posix.normalize(root.replace(/\\/g, '/')).replace(/\/+$/, '');
    if (r !== '' && (p === r || p.startsWith(`${r}/`))) p = posix.normalize(p.slice(r.length + 1) || '.');
  }
  if (p.length > 1) p = p.replace(/\/+$/, '');
  return p === '' ? '.' : p;
}

/** The first segment of a normalised path: `src/a/b.ts` → `src`, `/etc/x` → `/etc`, `.` → `.`. */
export function firstSegment(path: string): string {
  if (path === '.' || path === '') return '.';
  if (path.startsWith('/')) return `/${path.slice(1).split('/')[0] ?? ''}`;
  return path.split('/')[0] ?? '.';
}

/** Options that take the next token as their value, per program. */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  rg: new Set(
    '-e --regexp -f --file -g --glob --iglob -t --type -T --type-not -m --max-count -A -B -C --context -d --max-depth -M --max-columns -j --threads --type-add -E --encoding --sort --sortr -r --replace --max-filesize --pre --pre-glob --ignore-file'.split(
      ' ',
    ),
  ),
  grep: new Set('-e -f -m -A -B -C -d -D --include --exclude --exclude-dir --label --max-count --context'.split(' ')),
  fd: new Set(
    '-e --extension -t --type -d --max-depth --min-depth --exact-depth -E --exclude -S --size --changed-within --changed-before -o --owner -x --exec -X --exec-batch --base-directory --search-path -j --threads --max-results -c --color --ignore-file --path-separator --batch-size'.split(
      ' ',
    ),
  ),
  ls: new Set('-I --ignore -w --width -T --tabsize --hide --sort --format --time --time-style --block-size'.split(' ')),
  find: new Set(['-D', '-O']),
  sed: new Set(['-e', '-f', '--expression', '--file', '-l']),
  head: new Set(['-n', '-c', '--lines', '--bytes']),
  tail: new Set(['-n', '-c', '--lines', '--bytes']),
  tree: new Set(['-L', '-P', '-I', '-o', '--filelimit']),
};
VALUE_OPTIONS['fdfind'] = VALUE_OPTIONS['fd']!;
VALUE_OPTIONS['egrep'] = VALUE_OPTIONS['grep']!;

/** Programs whose first positional is a pattern/script unless one was given through an option. */
const PATTERN_FIRST: Record<string, readonly string[]> = {
  rg: ['-e', '--regexp', '-f', '--file'],
  grep: ['-e', '-f'],
  egrep: ['-e', '-f'],
  fd: [],
  fdfind: [],
  sed: ['-e', '-f', '--expression', '--file'],
};

export const LISTING_PROGRAMS: ReadonlySet<string> = new Set(['ls', 'find', 'fd', 'fdfind']);

function positionalsOf(program: string, args: readonly string[]): { positionals: string[]; used: Set<string> } {
  const valueOpts = VALUE_OPTIONS[program] ?? new Set<string>();
  const positionals: string[] = [];
  const used = new Set<string>();
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (optionsDone || !a.startsWith('-') || a === '-') {
      positionals.push(a);
      continue;
    }
    if (a === '--') {
      optionsDone = true;
      continue;
    }
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    used.add(name);
    if (!a.includes('=') && valueOpts.has(a)) i++;
  }
  return { positionals, used };
}

/** `find`'s start points: the operands before the expression (first `-x`, `(` or `!`). */
function findRoots(args: readonly string[]): string[] {
  const roots: string[] = [];
  let i = 0;
  while (i < args.length && /^-[HLP]$/.test(args[i]!)) i++;
  while (i < args.length && (args[i] === '-D' || args[i] === '-O')) i += 2;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-') || a === '(' || a === '!' || a === ')') break;
    roots.push(a);
  }
  return roots;
}

/** The path operands of a segment (after any pattern or script), unnormalised. */
/** Options whose value names a search root (fd's). */
const SEARCH_ROOT_OPTIONS = new Set(['--search-path', '--base-directory']);

export function pathOperands(seg: CommandSegment): string[] {
  // A segment the gate parsed carries each argument's kind: its operands are its path words.
  if (seg.words) {
    return seg.words
      .filter((w) => (w.kind === 'path' || w.kind === 'dir') && (!w.option || SEARCH_ROOT_OPTIONS.has(w.option)))
      .map((w) => w.value);
  }
  if (seg.program === 'find') return findRoots(seg.args);
  const { positionals, used } = positionalsOf(seg.program, seg.args);
  if (seg.program === 'fd' || seg.program === 'fdfind') {
    const searchPaths: string[] = [];
    for (let i = 0; i < seg.args.length; i++) {
      const a = seg.args[i]!;
      if ((a === '--search-path' || a === '--base-directory') && seg.args[i + 1] !== undefined) {
        searchPaths.push(seg.args[i + 1]!);
      } else if (a.startsWith('--search-path=') || a.startsWith('--base-directory=')) {
        searchPaths.push(a.slice(a.indexOf('=') + 1));
      }
    }
    return [...searchPaths, ...positionals.slice(1)];
  }
  const patternOpts = PATTERN_FIRST[seg.program];
  if (patternOpts !== undefined && !patternOpts.some((o) => used.has(o))) return positionals.slice(1);
  return positionals;
}

/** Search roots scanned by a listing segment (ls, find, fd), normalised; [] for other programs. */
export function listingRoots(seg: CommandSegment, workdir = '.', root?: string): string[] {
  if (!LISTING_PROGRAMS.has(seg.program) || seg.piped) return [];
  const cwd = posix.join(workdir.replace(/\\/g, '/'), seg.cwd);
  const operands = pathOperands(seg);
  return (operands.length > 0 ? operands : ['.']).map((p) => normalizePath(p, cwd, root));
}

/** The main segment of a command: the first one that is not piped (cd prefixes already folded). */
/**
 * The segments of a shell call: the gate's scan when the dispatcher judged the command, else (a
 * call made outside the dispatcher, e.g. by a test) a scan of the command here.
 */
export function callSegments(call: {
  readonly args: Record<string, unknown>;
  readonly shell?: readonly CommandSegment[];
}): readonly CommandSegment[] {
  return call.shell ?? segmentsOf(commandOf(call.args));
}

export function mainSegment(call: {
  readonly args: Record<string, unknown>;
  readonly shell?: readonly CommandSegment[];
}): CommandSegment | undefined {
  const segs = callSegments(call);
  return segs.find((s) => !s.piped) ?? segs[0];
}

/** The normalised first path a segment operates on (its cwd when it names none). */
export function segmentTarget(seg: CommandSegment, workdir = '.', root?: string): string {
  const cwd = posix.join(workdir.replace(/\\/g, '/'), seg.cwd);
  if (seg.program === 'git') {
    const sub = seg.subcommand ?? positionalsOf('git', seg.args).positionals[0];
    return sub ?? normalizePath('.', cwd, root);
  }
  const first = pathOperands(seg)[0];
  return normalizePath(first ?? '.', cwd, root);
}

const VERIFY_PROGRAMS = new Set([
  'tsc',
  'eslint',
  'jest',
  'vitest',
  'mocha',
  'pytest',
  'tox',
  'mypy',
  'pyright',
  'ruff',
  'rspec',
  'phpunit',
  'ctest',
  'clippy-driver',
]);
const VERIFY_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  cargo: new Set(['test', 'check', 'clippy', 'build', 'nextest']),
  go: new Set(['test', 'vet', 'build']),
  npm: new Set(['test', 't']),
  pnpm: new Set(['test', 't']),
  yarn: new Set(['test']),
  make: new Set(['test', 'check', 'build', 'lint']),
  mvn: new Set(['test', 'verify', 'compile']),
  gradle: new Set(['test', 'build', 'check']),
  dotnet: new Set(['test', 'build']),
};
const VERIFY_SCRIPTS = /^(test|build|lint|check|typecheck|type-check|compile|verify)(:.*)?$/;

function isVerifySegment(seg: CommandSegment): boolean {
  if (VERIFY_PROGRAMS.has(seg.program)) return true;
  const words = seg.args.filter((a) => !a.startsWith('-'));
  const [sub, next] = words;
  if (seg.program === 'npx' || seg.program === 'bunx') {
    return (
      sub !== undefined && isVerifySegment({ ...seg, program: sub, args: seg.args.slice(seg.args.indexOf(sub) + 1) })
    );
  }
  if (seg.program === 'python' || seg.program === 'python3') return sub === 'pytest' || next === 'pytest';
  if (['npm', 'pnpm', 'yarn', 'bun'].includes(seg.program) && sub === 'run' && next !== undefined) {
    return VERIFY_SCRIPTS.test(next);
  }
  if (seg.program === 'yarn' && sub !== undefined && VERIFY_SCRIPTS.test(sub)) return true;
  return sub !== undefined && (VERIFY_SUBCOMMANDS[seg.program]?.has(sub) ?? false);
}

/** True when any top-level segment compiles, tests, builds, lints or type-checks. */
export function isVerificationCommand(command: string): boolean {
  return segmentsOf(command).some((s) => !s.piped && isVerifySegment(s));
}

/** The category of a call when the runloop did not give one. */
export function categoryOf(call: GuardCall): OutcomeCategory {
  if (call.category !== undefined) return call.category;
  switch (call.kind) {
    case 'write':
      return 'mutation';
    case 'interview':
    case 'tracker':
      return 'bookkeeping';
    case 'shell':
      return isVerificationCommand(commandOf(call.args)) ? 'verification' : 'navigation';
    default:
      return 'navigation';
  }
}

/** The path a non-shell tool call targets (`path`, `file`, `dir`, …), or undefined. */
export function toolPathArg(args: Record<string, unknown>): string | undefined {
  for (const key of ['path', 'file_path', 'file', 'dir', 'directory', 'root', 'target', 'cwd']) {
    const v = args[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  const paths = args['paths'];
  if (Array.isArray(paths) && typeof paths[0] === 'string') return paths[0];
  return undefined;
}
