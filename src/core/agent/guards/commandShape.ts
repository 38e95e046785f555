/**
 * The shape of a shell command as the guards need it: which programs run, in which directory,
 * on which paths. Parsing only; no policy (the gate decides what may run).
 */
import { posix } from 'node:path';
import { quote } from 'shell-quote';
import { shapeOfCommand, type ShapeSegment } from '../../gate';
import { CHECKING_PROGRAMS, CHECKING_SCRIPTS, CHECKING_SUBCOMMANDS } from '../../plan/verifyWords';
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

export const LISTING_PROGRAMS: ReadonlySet<string> = new Set(['ls', 'find', 'fd', 'fdfind']);

/** Options whose value names a search root (fd's). */
const SEARCH_ROOT_OPTIONS = new Set(['--search-path', '--base-directory']);

/**
 * The path operands of a segment, unnormalised: the words the gate's parse gave the kind `path` or
 * `dir` (an option's value only for a search root). A segment the gate refused has no parse: its
 * words that are not options stand in, as written.
 */
export function pathOperands(seg: CommandSegment): string[] {
  if (seg.words) {
    return seg.words
      .filter((w) => (w.kind === 'path' || w.kind === 'dir') && (!w.option || SEARCH_ROOT_OPTIONS.has(w.option)))
      .map((w) => w.value);
  }
  return seg.args.filter((a) => !a.startsWith('-'));
}

/**
 * Search roots scanned by a listing segment (ls, find, fd), normalised; [] for other programs, and
 * for a segment the gate refused (it has no parse, and it listed nothing).
 */
export function listingRoots(seg: CommandSegment, workdir = '.', root?: string): string[] {
  if (!LISTING_PROGRAMS.has(seg.program) || seg.piped || !seg.words) return [];
  const cwd = posix.join(workdir.replace(/\\/g, '/'), seg.cwd);
  const operands = pathOperands(seg);
  return (operands.length > 0 ? operands : ['.']).map((p) => normalizePath(p, cwd, root));
}

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

/** The main segment of a command: the first one that is not piped (cd prefixes already folded). */
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
  // A program with subcommands (git, npm, cargo) is told apart by its subcommand.
  if (seg.subcommand !== undefined) return seg.subcommand;
  if (seg.program === 'git') return seg.args.find((a) => !a.startsWith('-')) ?? normalizePath('.', cwd, root);
  const first = pathOperands(seg)[0];
  return normalizePath(first ?? '.', cwd, root);
}

function isVerifySegment(seg: CommandSegment): boolean {
  if (CHECKING_PROGRAMS.has(seg.program)) return true;
  const words = seg.args.filter((a) => !a.startsWith('-'));
  const [sub, next] = words;
  if (seg.program === 'npx' || seg.program === 'bunx') {
    return (
      sub !== undefined && isVerifySegment({ ...seg, program: sub, args: seg.args.slice(seg.args.indexOf(sub) + 1) })
    );
  }
  if (seg.program === 'python' || seg.program === 'python3') return sub === 'pytest' || next === 'pytest';
  if (['npm', 'pnpm', 'yarn', 'bun'].includes(seg.program) && sub === 'run' && next !== undefined) {
    return CHECKING_SCRIPTS.test(next);
  }
  if (seg.program === 'yarn' && sub !== undefined && CHECKING_SCRIPTS.test(sub)) return true;
  return sub !== undefined && (CHECKING_SUBCOMMANDS[seg.program]?.has(sub) ?? false);
}

/** True when any top-level segment compiles, tests, builds, lints or type-checks. */
export function isVerificationCommand(segments: readonly CommandSegment[]): boolean {
  return segments.some((s) => !s.piped && isVerifySegment(s));
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
      return isVerificationCommand(callSegments(call)) ? 'verification' : 'navigation';
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
