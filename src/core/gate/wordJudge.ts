/**
 * One simple command's words, judged (rules §1.1 steps 4–8): prefixes, the program and its
 * grammar, `~` and glob expansion, and every path word resolved on the real file system, with `cd`
 * followed to the directory it reaches. `judge.ts` walks the command's lists and pipelines and asks
 * a `Judge` about each segment; one `Judge` per command shares the path lookups and glob budget.
 */
import { resolve } from 'node:path';
import type { DirEntry } from '../ports';
import { parseArgv, type ArgWord } from './argv';
import { foreignRepository } from './gitRepository';
import { expandGlob } from './glob';
import { grammarOf } from './grammar';
import { checkPrefixes } from './prefixes';
import { programOf } from './programs';
import { isInsideRoots, PathResolver } from './resolve';
import {
  blocked,
  type GateContext,
  type GateWork,
  type ParsedSegment,
  type ParsedWord,
  type Segment,
  type Verdict,
  type Word,
} from './types';

/** A path component of a glob that starts with `.` and a wildcard: dash matches `.` and `..` with it, bash does not. */
const DOT_WILDCARD = /(^|\/)\\?\.[*?[]/;

/** Glob matches allowed across one command before it is refused as too broad. */
export const GLOB_LIMIT = 2000;

const NO_INSERTS: JudgedSegment['inserts'] = Object.freeze([]);

/** Where the shell is: the logical directory `cd` works from and the real one programs see. */
export interface Cwd {
  readonly logical: string;
  readonly physical: string;
}

/** One simple command as judged: its parse, and where a safe mode's option goes in the source. */
interface JudgedSegment {
  readonly parsed: ParsedSegment;
  /** Where the program word ends in the source (a safe mode's option is inserted there). */
  readonly programEnd: number;
  readonly safeMode?: 'sedSandbox';
  /** Options always inserted, each at a source offset (after a subcommand's word). */
  readonly inserts: readonly { readonly at: number; readonly text: string }[];
}

export class Judge {
  readonly work: GateWork = { lookups: 0, cwds: 0, globSteps: 0 };
  readonly resolver: PathResolver;
  private readonly budget = { remaining: GLOB_LIMIT };
  private readonly globFs;

  constructor(
    private readonly ctx: GateContext,
    /** The scanned command text, which word offsets point into. */
    private readonly source: string,
  ) {
    this.resolver = new PathResolver(ctx.fs, this.work);
    // Each directory is listed once per judgement, however many globs look into it.
    const listings = new Map<string, Promise<readonly DirEntry[]>>();
    this.globFs = {
      readDir: (dir: string) => {
        let hit = listings.get(dir);
        if (!hit) {
          hit = ctx.fs.readDir(dir);
          listings.set(dir, hit);
        }
        return hit;
      },
      isDir: (p: string) => this.resolver.isDir(p),
      ...(ctx.fs.exists ? { exists: (p: string) => ctx.fs.exists!(p) } : {}),
    };
  }

  /** Why `p` (seen from `cwd`) leaves the workspace, or its real path. */
  private async inside(p: string, cwd: string): Promise<string | Verdict> {
    const targets = await this.resolver.targets(p, cwd);
    for (const t of targets) {
      if (!isInsideRoots(t, this.ctx.roots)) {
        const through = targets[0] !== resolve(cwd, p) ? ' (through a symlink or ..)' : '';
        return blocked('path', `path '${p}' is outside the workspace${through}`);
      }
    }
    return targets[0] as string;
  }

  /** A path-valued word (its `~` already expanded), resolved and checked; `shown` names it in reasons. */
  private async pathWord(
    value: string,
    cwd: string,
    word?: Word,
    shown = word?.value,
  ): Promise<string | Verdict | null> {
    if (value === '' || value === '-') return null;
    if (value === '/dev/null') return value;
    // bash also expands an unquoted `~` after `=` or `:` in some words (`a=~/x`); dash does not.
    if (word && /[=:]~/.test(word.value.slice(0, word.firstQuoted))) {
      return blocked('path', `path '${word.value}' may expand '~' to a home directory outside the workspace`);
    }
    const r = await this.inside(value, cwd);
    if (typeof r === 'string' || shown === undefined || shown === value) return r;
    return blocked('path', `path '${shown}' is outside the workspace`);
  }

  /**
   * The word after tilde expansion, as both dash and bash perform it, or why it is refused: `~` and
   * `~/…` become the home directory; `~user` and an assignment-like `a=~/x` (which bash expands
   * and dash does not) are refused.
   */
  private tilde(word: Word): { value: string; glob: string | null } | Verdict {
    const v = word.value;
    const assignment = /^[A-Za-z_][A-Za-z0-9_]*=~/.exec(v);
    if (assignment && assignment[0].length - 1 < word.firstQuoted) {
      return blocked('path', `'${v}': bash expands this '~' and dash does not; quote it or write the path out`);
    }
    if (!word.tilde) return { value: v, glob: word.glob };
    // The tilde-prefix runs to the first unquoted '/'; any quoting inside it (`~''`, `~\/x`, `~"u"`)
    // turns the expansion off in both shells.
    const raw = this.source.slice(word.start, word.end);
    const rawSlash = raw.indexOf('/');
    const rawPrefix = rawSlash < 0 ? raw : raw.slice(0, rawSlash);
    if (/['"\\]/.test(rawPrefix)) return { value: v, glob: word.glob };
    const prefixEnd = rawPrefix.length;
    if (prefixEnd > 1) return blocked('path', `path '${v}' names another user's home directory, outside the workspace`);
    const home = this.ctx.home;
    if (home === undefined) return blocked('path', `path '${v}' is outside the workspace (no home directory is known)`);
    const glob = word.glob === null ? null : home.replace(/[^]/gu, '\\$&') + word.glob.slice(1);
    return { value: home + v.slice(1), glob };
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
    const expanded = this.tilde(dir);
    if ('allowed' in expanded) return expanded;
    const target = expanded.value;
    if (target !== dir.value) {
      const r = await this.pathWord(target, cwd.physical, dir);
      if (typeof r !== 'string') return r ?? blocked('cd', `'cd ${dir.value}' needs a directory`);
    }
    const logical = physicalMode ? resolve(cwd.physical, target) : resolve(cwd.logical, target);
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
      const t = this.tilde(word);
      if ('allowed' in t) return t;
      if (t.glob === null) {
        out.push({ value: t.value, word });
        continue;
      }
      if (DOT_WILDCARD.test(t.glob)) {
        return blocked(
          'glob',
          `the glob '${word.value}' may match '.' and '..' in one shell and not in another; name the entries, or use 'ls -A'`,
        );
      }
      const before = this.budget.remaining;
      const r = await expandGlob(t.glob, cwd, this.globFs, this.budget);
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

  /**
   * Steps 4–8 for one simple command run from `cwd`: its parse, with where its program word ends
   * in the source and the safe mode its grammar asks for there (GNU sed's `--sandbox`).
   */
  async segment(segment: Segment, cwd: Cwd): Promise<JudgedSegment | Verdict> {
    const words = segment.words;
    const start = checkPrefixes(words);
    if (typeof start !== 'number') return start;
    const programWord = words[start] as Word;
    // Only a program named by path, a glob or a path word needs the disk: the rest stays synchronous.
    const named = programOf(programWord, this.resolver);
    const program = typeof named === 'object' && 'then' in named ? await named : named;
    if (typeof program !== 'string') return program;
    const grammar = grammarOf(program);
    if (!grammar) throw new Error(`no grammar for allowed program ${program}`);
    const rest = words.slice(start + 1);
    const expanded = rest.some((w) => w.glob !== null || w.tilde || w.value.includes('=~'))
      ? await this.expand(rest, cwd.physical)
      : rest.map((word) => ({ value: word.value, word }));
    if (!Array.isArray(expanded)) return expanded;
    const argv = expanded.map((e) => e.value);
    const parse = parseArgv(program, grammar, argv);
    // Trust (step 6) is judged before the options (step 7).
    if (parse.projectCode === true && !this.ctx.trusted) {
      const label = parse.subcommand ? `${program} ${parse.subcommand}` : program;
      return blocked('trust', `'${label}' runs project code; not allowed in an untrusted workspace`);
    }
    if (!parse.ok) return blocked(parse.rule, parse.reason);
    const parsed: ParsedWord[] = [];
    for (const w of words.slice(0, start)) parsed.push({ value: w.value, kind: 'assignment' });
    parsed.push({ value: program, kind: 'program' });
    let dir = cwd.physical;
    for (let k = 0; k < argv.length; k++) {
      const a = parse.words[k] as ArgWord;
      const { value, word } = expanded[k] as { value: string; word: Word };
      const pending = this.needsDisk(a) ? this.argWord(a, value, word, dir) : null;
      const r = pending === null ? null : await pending;
      if (r !== null && 'allowed' in r) return r;
      const pw = r ?? { value, kind: a.kind, ...(a.option ? { option: a.option } : {}) };
      if ((pw.kind === 'dir' || a.attached?.kind === 'dir') && pw.resolved) {
        if (!(await this.resolver.isDir(pw.resolved))) {
          return blocked('path', `'${value}' is not a directory in the workspace`);
        }
        dir = pw.resolved;
      }
      parsed.push(pw);
    }
    if (program === 'git') {
      const foreign = await foreignRepository(dir, this.ctx.roots, this.resolver);
      if (foreign) return foreign;
    }
    return {
      parsed: {
        program,
        ...(parse.subcommand ? { subcommand: parse.subcommand } : {}),
        words: parsed,
        args: argv,
        cwd: dir,
        joinedBy: segment.joinedBy,
        projectCode: parse.projectCode,
      },
      programEnd: programWord.end,
      ...(parse.safeMode ? { safeMode: parse.safeMode.key } : {}),
      inserts:
        parse.inserts === undefined
          ? NO_INSERTS
          : parse.inserts.map((i) => ({ at: (expanded[i.after] as { word: Word }).word.end, text: i.text })),
    };
  }

  private needsDisk(a: ArgWord): boolean {
    return a.kind === 'path' || a.kind === 'dir' || a.attached?.kind === 'path' || a.attached?.kind === 'dir';
  }

  /** Checks one argument's path parts; returns the parsed word, a refusal, or null for a plain word. */
  private async argWord(a: ArgWord, value: string, word: Word, cwd: string): Promise<ParsedWord | Verdict | null> {
    const option = a.option ? { option: a.option } : {};
    if (a.kind === 'path' || a.kind === 'dir') {
      const r = await this.pathWord(value, cwd, word);
      if (r !== null && typeof r !== 'string') return r;
      return { value, kind: a.kind, ...(r ? { resolved: r } : {}), ...option };
    }
    if (a.attached && (a.attached.kind === 'path' || a.attached.kind === 'dir')) {
      const text = a.attached.text;
      // A `~` inside an option's word (`--file=~/x`) is not expanded by either shell.
      const r = await this.pathWord(text, cwd, word, text);
      if (r !== null && typeof r !== 'string') return r;
      return { value, kind: 'option', ...(r ? { resolved: r } : {}), ...option };
    }
    return null;
  }
}
