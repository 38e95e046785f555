/**
 * The read-only gate for shell commands (rules §1.1): one function, `judgeCommand`, used by
 * `check-command`, the planning shell tool and the build agent's policy, so all three give the same
 * answer by construction. It scans the command once, follows the working directory along the
 * chain (one directory per segment), expands globs, reads every program's arguments against its
 * grammar and resolves every path word on the real file system. Its cost is linear in the command:
 * each distinct path is looked up once and glob expansion shares one bounded budget.
 */
import * as path from 'node:path';
import { parseArgv, type ArgWord } from './argv';
import { expandGlob } from './glob';
import { grammarOf } from './grammar';
import { checkPrefixes } from './prefixes';
import { programOf } from './programs';
import { isInsideRoots, PathResolver } from './resolve';
import { scanCommand } from './scan';
import { shapeOf } from './shape';
import {
  allowed,
  blocked,
  type GateContext,
  type GateWork,
  type Judgement,
  type ParsedSegment,
  type ParsedWord,
  type Segment,
  type Verdict,
  type Word,
} from './types';

/** Glob matches allowed across one command before it is refused as too broad. */
export const GLOB_LIMIT = 2000;

/** Where the shell is: the logical directory `cd` works from and the real one programs see. */
interface Cwd {
  readonly logical: string;
  readonly physical: string;
}

class Judge {
  readonly work: GateWork = { lookups: 0, cwds: 0, globSteps: 0 };
  readonly resolver: PathResolver;
  private readonly budget = { remaining: GLOB_LIMIT };
  /** Where the last judged segment's program word ends in the source, and its safe mode. */
  lastProgramEnd = 0;
  lastSafeMode: 'sedSandbox' | undefined;
  private readonly globFs;

  constructor(private readonly ctx: GateContext) {
    this.resolver = new PathResolver(ctx.fs, this.work);
    this.globFs = {
      readDir: (dir: string) => ctx.fs.readDir(dir),
      isDir: (p: string) => this.resolver.isDir(p),
    };
  }

  /** Why `p` (seen from `cwd`) leaves the workspace, or its real path. */
  private async inside(p: string, cwd: string): Promise<string | Verdict> {
    const targets = await this.resolver.targets(p, cwd);
    for (const t of targets) {
      if (!isInsideRoots(t, this.ctx.roots)) {
        const through = targets[0] !== path.resolve(cwd, p) ? ' (through a symlink or ..)' : '';
        return blocked('path', `path '${p}' is outside the workspace${through}`);
      }
    }
    return targets[0] as string;
  }

  /** A path-valued word: `~` expanded when the shell would, then resolved and checked. */
  private async pathWord(value: string, tilde: boolean, cwd: string, word?: Word): Promise<string | Verdict | null> {
    if (value === '' || value === '-') return null;
    if (value === '/dev/null') return value;
    // bash also expands an unquoted `~` after `=` or `:` in any word (`--file=~/x`, `a=b:~/x`).
    if (word && /[=:]~/.test(word.value.slice(0, word.firstQuoted))) {
      return blocked('path', `path '${word.value}' may expand '~' to a home directory outside the workspace`);
    }
    let p = value;
    if (tilde && p.startsWith('~')) {
      const slash = p.indexOf('/');
      const user = slash < 0 ? p.slice(1) : p.slice(1, slash);
      if (user !== '' || this.ctx.home === undefined) {
        return blocked('path', `path '${value}' is outside the workspace (a home directory)`);
      }
      p = path.join(this.ctx.home, slash < 0 ? '' : p.slice(slash));
    }
    const r = await this.inside(p, cwd);
    return typeof r === 'string' || p === value
      ? r
      : blocked('path', `path '${value}' is outside the workspace (a home directory)`);
  }

  /** `cd [-L|-P] DIR`: an existing directory inside the workspace. Returns where the shell goes. */
  async cd(args: readonly Word[], cwd: Cwd): Promise<Cwd | Verdict> {
    let k = 0;
    let physicalMode = false;
    while (args[k]?.value === '-L' || args[k]?.value === '-P') physicalMode = args[k++]?.value === '-P';
    if (args[k]?.value === '--') k++;
    const dir = args[k];
    if (dir === undefined) {
      return blocked('cd', "'cd' without a directory goes to the home directory, outside the workspace");
    }
    if (k + 1 < args.length) return blocked('cd', "'cd' takes exactly one directory");
    if (dir.value === '-' || dir.value.startsWith('-')) {
      return blocked('cd', `'cd ${dir.value}' is not allowed; name the directory`);
    }
    if (dir.glob !== null) return blocked('cd', `'cd ${dir.value}': name the directory without a glob`);
    let target = dir.value;
    if (dir.tilde && target.startsWith('~')) {
      const r = await this.pathWord(target, true, cwd.physical);
      if (typeof r !== 'string') return r ?? blocked('cd', `'cd ${dir.value}' needs a directory`);
      target = r;
    }
    const logical = physicalMode ? path.resolve(cwd.physical, target) : path.resolve(cwd.logical, target);
    const real = physicalMode ? await this.inside(target, cwd.physical) : await this.resolver.realpathOf(logical);
    if (real === null || (typeof real === 'string' && !(await this.resolver.isDir(real)))) {
      return blocked('cd', `'cd ${dir.value}': no such directory in the workspace`);
    }
    if (typeof real !== 'string') return real;
    if (!isInsideRoots(real, this.ctx.roots) || !isInsideRoots(logical, this.ctx.roots)) {
      return blocked('path', `'cd ${dir.value}' leaves the workspace`);
    }
    this.work.cwds++;
    return { logical: physicalMode ? real : logical, physical: real };
  }

  /** Expands the segment's argument globs into the words the program receives. */
  private async expand(args: readonly Word[], cwd: string): Promise<{ value: string; word: Word }[] | Verdict> {
    const out: { value: string; word: Word }[] = [];
    for (const word of args) {
      if (word.glob === null) {
        out.push({ value: word.value, word });
        continue;
      }
      const before = this.budget.remaining;
      const r = await expandGlob(word.glob, cwd, this.globFs, this.budget);
      this.work.globSteps += before - Math.max(0, this.budget.remaining);
      if (r.kind === 'too-many') {
        return blocked(
          'glob',
          `the glob '${word.value}' matches more than ${r.limit} entries; narrow it or use 'rg --files -g PATTERN'`,
        );
      }
      if (r.kind === 'literal') {
        out.push({ value: r.word, word });
        continue;
      }
      for (const m of r.words) {
        if (m.startsWith('-')) {
          return blocked('glob', `the glob '${word.value}' matches '${m}', which the program would read as an option`);
        }
        out.push({ value: m, word: { ...word, tilde: false, glob: null } });
      }
    }
    return out;
  }

  /** Steps 4–8 for one simple command run from `cwd`. */
  async segment(segment: Segment, cwd: Cwd): Promise<ParsedSegment | Verdict> {
    const words = segment.words;
    const start = checkPrefixes(words);
    if (typeof start !== 'number') return start;
    const programWord = words[start] as Word;
    this.lastProgramEnd = programWord.end;
    const program = await programOf(programWord, this.resolver);
    if (typeof program !== 'string') return program;
    const grammar = grammarOf(program);
    if (!grammar) throw new Error(`no grammar for allowed program ${program}`);
    const expanded = await this.expand(words.slice(start + 1), cwd.physical);
    if (!Array.isArray(expanded)) return expanded;
    const argv = expanded.map((e) => e.value);
    const parse = parseArgv(program, grammar, argv);
    // Trust (step 6) is judged before the options (step 7).
    if (parse.projectCode === true && !this.ctx.trusted) {
      const label = parse.subcommand ? `${program} ${parse.subcommand}` : program;
      return blocked('trust', `'${label}' runs project code; not allowed in an untrusted workspace`);
    }
    if (!parse.ok) return blocked(parse.rule, parse.reason);
    this.lastSafeMode = parse.safeMode?.key;
    const parsed: ParsedWord[] = [];
    for (const w of words.slice(0, start)) parsed.push({ value: w.value, kind: 'assignment' });
    parsed.push({ value: program, kind: 'program' });
    let dir = cwd.physical;
    for (let k = 0; k < argv.length; k++) {
      const a = parse.words[k] as ArgWord;
      const { value, word } = expanded[k] as { value: string; word: Word };
      const r = await this.argWord(a, value, word, dir);
      if (r !== null && 'allowed' in r) return r;
      const pw = r ?? { value, kind: a.kind, ...(a.option ? { option: a.option } : {}) };
      if (pw.kind === 'dir' && pw.resolved) {
        if (!(await this.resolver.isDir(pw.resolved))) {
          return blocked('path', `'${value}' is not a directory in the workspace`);
        }
        dir = pw.resolved;
      }
      parsed.push(pw);
    }
    return {
      program,
      ...(parse.subcommand ? { subcommand: parse.subcommand } : {}),
      words: parsed,
      args: argv,
      cwd: dir,
      joinedBy: segment.joinedBy,
      projectCode: parse.projectCode,
    };
  }

  /** Checks one argument's path parts; returns the parsed word, a refusal, or null for a plain word. */
  private async argWord(a: ArgWord, value: string, word: Word, cwd: string): Promise<ParsedWord | Verdict | null> {
    const option = a.option ? { option: a.option } : {};
    if (a.kind === 'path' || a.kind === 'dir') {
      const r = await this.pathWord(value, word.tilde, cwd, word);
      if (r !== null && typeof r !== 'string') return r;
      return { value, kind: a.kind, ...(r ? { resolved: r } : {}), ...option };
    }
    if (a.attached && (a.attached.kind === 'path' || a.attached.kind === 'dir')) {
      const text = a.attached.text;
      // Tilde expansion after `=` or an option letter happens only when the `~` itself is unquoted.
      const tilde = value.length - text.length < word.firstQuoted && word.glob === null;
      const r = await this.pathWord(text, tilde, cwd, word);
      if (r !== null && typeof r !== 'string') return r;
      return { value, kind: 'option', ...(r ? { resolved: r } : {}), ...option };
    }
    return null;
  }
}

/** Splits the segments into and-or lists (separated by `;` and newlines) with their pipelines. */
function andOrLists(segments: readonly Segment[]): Segment[][] {
  const lists: Segment[][] = [];
  for (const s of segments) {
    if (s.joinedBy === null || s.joinedBy === ';') lists.push([s]);
    else (lists[lists.length - 1] as Segment[]).push(s);
  }
  return lists;
}

/** Inserts each safe-mode option right after its program word. */
function withSafeModes(source: string, inserts: readonly { at: number; text: string }[]): string {
  let out = source;
  for (const ins of [...inserts].sort((a, b) => b.at - a.at))
    out = `${out.slice(0, ins.at)} ${ins.text}${out.slice(ins.at)}`;
  return out;
}

/**
 * Judges one shell command line (rules §1.1, steps 1–9, in order; the first failure is reported)
 * and returns its parse for every consumer.
 */
export async function judgeCommand(command: string, ctx: GateContext): Promise<Judgement> {
  const judge = new Judge(ctx);
  const scanned = scanCommand(command);
  if (!scanned.ok) return { command, verdict: scanned.verdict, work: judge.work };
  const shape = shapeOf(scanned.segments);
  const done = (verdict: Verdict): Judgement => ({ command, verdict, shape, work: judge.work });
  const source = command.charCodeAt(0) === 0xfeff ? command.slice(1) : command;
  const root = ctx.roots[0];
  if (root === undefined) return done(blocked('path', 'no workspace folder is open'));
  let cwd: Cwd = { logical: root, physical: root };
  const parsed: ParsedSegment[] = [];
  const inserts: { at: number; text: string }[] = [];
  const safeInsert = { sedSandbox: '--sandbox' } as const;
  const lists = andOrLists(scanned.segments);
  for (let li = 0; li < lists.length; li++) {
    const list = lists[li] as Segment[];
    let certain = true; // every segment so far in this list was a `cd`, which cannot fail
    let movedUncertainly = false;
    const hasOr = list.some((s) => s.joinedBy === '||');
    for (let si = 0; si < list.length; si++) {
      const seg = list[si] as Segment;
      const piped = seg.joinedBy === '|' || (list[si + 1] as Segment | undefined)?.joinedBy === '|';
      if (seg.words[0]?.value === 'cd' && seg.words[0].firstQuoted > 0) {
        if (piped)
          return done(blocked('cd', "'cd' inside a pipeline changes no directory; run it before the pipeline"));
        if (hasOr)
          return done(blocked('cd', "'cd' in a list with '||' leaves the working directory unknown; use '&&'"));
        const to = await judge.cd(seg.words.slice(1), cwd);
        if ('allowed' in to) return done(to);
        if (!certain) movedUncertainly = true;
        cwd = to;
        parsed.push({
          program: 'cd',
          words: [
            { value: 'cd', kind: 'program' },
            ...seg.words.slice(1).map((w) => ({ value: w.value, kind: 'dir' as const, resolved: to.physical })),
          ],
          args: seg.words.slice(1).map((w) => w.value),
          cwd: to.physical,
          joinedBy: seg.joinedBy,
          projectCode: false,
        });
        continue;
      }
      certain = false;
      judge.work.cwds++;
      const r = await judge.segment(seg, cwd);
      if ('allowed' in r) return done(r);
      parsed.push(r);
      const mode = judge.lastSafeMode;
      if (mode && ctx.safeModes?.[mode]) inserts.push({ at: judge.lastProgramEnd, text: safeInsert[mode] });
    }
    if (movedUncertainly && li + 1 < lists.length) {
      return done(
        blocked(
          'cd',
          "a 'cd' after another command may not run, so the commands after ';' would run in an unknown directory; put 'cd' first or join with '&&'",
        ),
      );
    }
  }
  const projectCode = parsed
    .filter((p) => p.projectCode)
    .map((p) => `'${p.subcommand ? `${p.program} ${p.subcommand}` : p.program}'`);
  const verdict =
    projectCode.length > 0
      ? allowed(`${[...new Set(projectCode)].join(', ')} runs project code (trusted workspace)`)
      : allowed('read-only command');
  return {
    command,
    verdict,
    shape,
    parsed: { source, runnable: withSafeModes(source, inserts), segments: parsed },
    work: judge.work,
  };
}
