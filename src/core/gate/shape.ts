/**
 * The shape of a scanned command as the runloop's guards read it: which programs run, in which
 * directory (relative to where the command starts, following `cd`), with which words. It comes
 * from the gate's one scan, so the guards never tokenise a command themselves.
 */
import { posix } from 'node:path';
import { assignmentName } from './prefixes';
import { scanCommand } from './scan';
import type { ParsedSegment, ParsedWord, Segment } from './types';

export interface ShapeSegment {
  /** Base name of the program (`/usr/bin/find` → `find`). */
  readonly program: string;
  readonly args: readonly string[];
  /** Directory the segment runs in, relative to the command's directory ('.' = unchanged). */
  readonly cwd: string;
  /** True for a segment that reads a previous segment's output (`… | head`). */
  readonly piped: boolean;
  /** When the gate parsed the segment: its subcommand and its arguments with their kinds. */
  readonly subcommand?: string;
  readonly words?: readonly ParsedWord[];
}

const WRAPPERS = new Set(['command', 'env', 'time', 'nice', 'nohup']);

function joinDir(base: string, dir: string): string {
  return posix.normalize(dir.startsWith('/') ? dir : posix.join(base, dir));
}

export function shapeOf(segments: readonly Segment[]): ShapeSegment[] {
  const out: ShapeSegment[] = [];
  let cwd = '.';
  for (const seg of segments) {
    const words = seg.words;
    let k = 0;
    while (k < words.length && (assignmentName(words[k]!) !== null || WRAPPERS.has(words[k]!.value))) k++;
    const first = words[k];
    if (first === undefined) continue;
    const program = posix.basename(first.value);
    const args = words.slice(k + 1).map((w) => w.value);
    const piped = seg.joinedBy === '|';
    if (program === 'cd' && !piped) cwd = joinDir(cwd, args[0] ?? '.');
    else out.push({ program, args, cwd, piped });
  }
  return out;
}

/**
 * The shape of a command by the gate's own scanner, for callers that have only the text (the
 * dispatcher hands the guards `Judgement.shape` instead). Empty when the command cannot be scanned.
 */
export function shapeOfCommand(command: string): ShapeSegment[] {
  const scanned = scanCommand(command);
  return scanned.ok ? shapeOf(scanned.segments) : [];
}

/**
 * `dir` relative to `root` ('.' for the root itself), both absolute and normalised. The root and
 * the folders under it, nearly every segment's directory, are sliced: `posix.relative` is compiled
 * on its first call, a share of a one-shot `planwise check-command` that never reads the shape.
 */
export function relativeDir(root: string, dir: string): string {
  if (dir === root) return '.';
  const prefix = root.endsWith('/') ? root : `${root}/`;
  if (dir.startsWith(prefix) && dir.length > prefix.length && !dir.endsWith('/')) return dir.slice(prefix.length);
  return posix.relative(root, dir) || '.';
}

/**
 * The shape of a parsed (allowed) command: the same segments, with each program's subcommand and
 * the kinds its grammar gave every argument, so the guards never read options themselves.
 */
export function shapeOfParsed(segments: readonly ParsedSegment[], root: string): ShapeSegment[] {
  const out: ShapeSegment[] = [];
  for (const seg of segments) {
    if (seg.program === 'cd') continue;
    out.push({
      program: seg.program,
      args: seg.args,
      cwd: relativeDir(root, seg.cwd),
      piped: seg.joinedBy === '|',
      ...(seg.subcommand ? { subcommand: seg.subcommand } : {}),
      words: seg.words.filter((w) => w.kind !== 'assignment' && w.kind !== 'program'),
    });
  }
  return out;
}
