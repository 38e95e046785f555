/**
 * Pathname expansion for the read-only gate: what bash 5.2 with default options (no globstar,
 * dotglob, nullglob, extglob or nocaseglob; globskipdots on) makes of an unquoted glob word under
 * LC_ALL=C, against the real file system through a port, within a budget. Matching works on UTF-8
 * bytes as the C locale does (`?` matches one byte, so not `é`; ranges compare bytes), results sort
 * bytewise. As in bash the pattern is split at its last `/`; a directory part with glob characters
 * is expanded first, less one trailing `/` (so `*` then `//x*` gives `d/x1`); a component without
 * them is joined, not listed. Paths handed to the port are cwd joined with the pattern's own form,
 * never normalised, so `link/..` means what the kernel makes of it.
 */
import type { DirEntry } from '../ports';

export interface GlobFs {
  /** Entries of a directory (not following into them); rejects when it is not a readable directory. */
  readDir(absDir: string): Promise<readonly DirEntry[]>;
  /** Whether an absolute path names an existing directory, following symlinks. */
  isDir(absPath: string): Promise<boolean>;
  /** Whether a directory entry exists at an absolute path (`lstat`); without it, the folder is listed. */
  exists?(absPath: string): Promise<boolean>;
}

export type GlobResult =
  | { readonly kind: 'literal'; readonly word: string }
  | { readonly kind: 'matches'; readonly words: readonly string[] }
  | { readonly kind: 'too-many'; readonly limit: number };

/**
 * Whether the shell would attempt expansion: an unescaped `*` or `?`, or an unescaped `[` with an
 * unescaped `]` after it in the same path component (bash's test; an invalid bracket such as `[]`
 * counts too, and then matches only its literal self, so the words come out the same).
 */
export function hasGlob(pattern: string): boolean {
  return scanGlob(pattern, true);
}

/** With `slashCloses` false this is bash's internal test, for which `/` does not close a `[`. */
function scanGlob(p: string, slashCloses: boolean): boolean {
  let open = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || (c === ']' && open)) return true;
    else if (c === '[' || (c === '/' && slashCloses)) open = c === '[';
  }
  return false;
}
const isPattern = (p: string) => scanGlob(p, false);

/** Quote removal: `\c` becomes `c`. */
const unquote = (s: string): string => s.replace(/\\([\s\S])/g, '$1');

// Made on first need: most commands are ASCII, and `check-command` starts without it.
let encoder: TextEncoder | undefined;
let decoder: TextDecoder | undefined;
/** A string as a byte string: one char (0-255) per UTF-8 byte. */
function toBytes(s: string): string {
  if (/^[^\x80-\uffff]*$/.test(s)) return s;
  let out = '';
  for (const b of (encoder ??= new TextEncoder()).encode(s)) out += String.fromCharCode(b);
  return out;
}
const fromBytes = (s: string): string =>
  (decoder ??= new TextDecoder()).decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));

/** Character classes of the C locale, tested on one byte; built when a pattern first uses one. */
let classes: ReadonlyMap<string, RegExp> | undefined;
const characterClasses = (): ReadonlyMap<string, RegExp> =>
  (classes ??= new Map<string, RegExp>([
    ['alpha', /[A-Za-z]/],
    ['digit', /[0-9]/],
    ['alnum', /[A-Za-z0-9]/],
    ['upper', /[A-Z]/],
    ['lower', /[a-z]/],
    ['space', /[ \t-\r]/],
    ['blank', /[ \t]/],
    ['punct', /[!-/:-@[-`{-~]/],
    ['print', /[ -~]/],
    ['graph', /[!-~]/],
    ['cntrl', /[^ -~\x80-\xff]/],
    ['xdigit', /[0-9A-Fa-f]/],
    ['word', /\w/],
    ['ascii', /[^\x80-\xff]/],
  ]));

/** A collating symbol `[.x.]` from `at` (the `.`): its byte (-1 when invalid) and where it ends. */
function collatingSymbol(p: string, at: number): { value: number; next: number } {
  const end = p.indexOf('.]', at + 1);
  if (end < 0) return { value: -1, next: p.length };
  return { value: end === at + 2 ? p.charCodeAt(at + 1) : -1, next: end + 2 };
}

/**
 * Matches byte `t` against the bracket expression whose body starts at `start` (just after `[`).
 * Returns where the pattern goes on, or -1. An unterminated bracket leaves `[` an ordinary
 * character: the result is then `start` when `t` is `[`. Mirrors bash's quirks: the rest of a
 * matched set is skipped by a looser scan than the one that walks an unmatched set.
 */
function bracket(p: string, start: number, t: string): number {
  const tc = t.charCodeAt(0);
  const unclosed = () => (t === '[' ? start : -1);
  let i = start;
  const negated = p[i] === '!' || p[i] === '^';
  if (negated) i++;
  const matched = (q: number): number => {
    let depth = 1;
    let open = -1;
    let c = p[q];
    while (depth > 0) {
      if (c === undefined) return unclosed();
      const prev = c;
      c = p[q++];
      if (c === '[' && (p[q] === '=' || p[q] === ':' || p[q] === '.')) {
        depth++;
        open = q++;
        c = p[q];
        if (c === undefined) return unclosed();
      } else if (c === ']' && depth > 1 && open >= 0 && prev === p[open]) {
        depth--;
        open = -1;
      } else if (c === ']' && (open < 0 || p[open] !== '.')) depth = 0;
      else if (c === '\\') {
        if (p[q] === undefined) return -1;
        q++;
      }
    }
    return negated ? -1 : q;
  };
  let c = p[i++];
  for (;;) {
    let lo = c === undefined ? -1 : c.charCodeAt(0);
    if (c === '[' && p[i] === '=' && p[i + 2] === '=' && p[i + 3] === ']') {
      if (t === p[i + 1]) return matched(i + 4);
      i += 4;
      c = p[i++];
      if (c === undefined) return unclosed();
      continue;
    }
    if (c === '[' && p[i] === ':') {
      const close = p.indexOf(':]', i + 1);
      let hit = false;
      if (close >= 0) {
        hit =
          characterClasses()
            .get(unquote(p.slice(i + 1, close)))
            ?.test(t) ?? false;
        i = close + 2;
      }
      if (hit) return matched(i);
      c = p[i++];
      if (c === undefined) return unclosed();
      if (c === ']') break;
      continue;
    }
    if (c === '[' && p[i] === '.') {
      const sym = collatingSymbol(p, i);
      lo = sym.value < 0 ? tc + 1 : sym.value;
      i = sym.next;
    }
    if (c === '\\') {
      if (p[i] === undefined) return -1;
      lo = p.charCodeAt(i++);
    }
    if (c === undefined) return unclosed();
    c = p[i++];
    if (c === undefined) return unclosed();
    let hi = lo;
    if (c === '-' && p[i] !== ']') {
      let end = p[i++];
      if (end === '\\') end = p[i++];
      if (end === undefined) return -1;
      hi = end.charCodeAt(0);
      if (end === '[' && p[i] === '.') {
        const sym = collatingSymbol(p, i);
        hi = sym.value < 0 ? tc - 1 : sym.value;
        i = sym.next;
      }
      c = p[i++];
      if (lo > hi) {
        if (c === ']') break;
        continue;
      }
    }
    if (tc >= lo && tc <= hi) return matched(i - 1);
    if (c === ']') break;
  }
  return negated ? i : -1;
}

/** Where the pattern goes on after byte `c` at `pi` (anything but `*`), or -1. */
function step(p: string, pi: number, c: string): number {
  const pc = p[pi];
  if (pc === '?') return pi + 1;
  if (pc === '\\') return p[pi + 1] === c ? pi + 2 : -1;
  if (pc === '[') return bracket(p, pi + 1, c);
  return pc === c ? pi + 1 : -1;
}

/** Whether byte-string name `s` matches component pattern `p` (linear backtracking over `*`). */
function match(p: string, s: string): boolean {
  let [pi, si, starP, starS] = [0, 0, -1, 0];
  for (let next: number; ;) {
    if (p[pi] === '*') [pi, starP, starS] = [pi + 1, pi + 1, si];
    else if (pi < p.length && si < s.length && (next = step(p, pi, s[si] as string)) >= 0) [pi, si] = [next, si + 1];
    else if (pi === p.length && si === s.length) return true;
    else if (starP < 0 || starS >= s.length) return false;
    else [pi, si] = [starP, ++starS];
  }
}

/** `dir` and `name` with one `/` between them (an empty `dir` is the working directory). */
const joinPath = (dir: string, name: string): string =>
  dir === '' ? name : dir.endsWith('/') ? dir + name : `${dir}/${name}`;

const TOO_MANY = Symbol('too-many');
/** Directories one pattern component is matched in at once. */
const LOOK_AHEAD = 8;
const limits = new WeakMap<object, number>();
type Listing = readonly string[] | null;

class Expansion {
  private readonly listings = new Map<string, Promise<Listing>>();
  constructor(
    private readonly cwd: string,
    private readonly fs: GlobFs,
    private readonly budget: { remaining: number },
  ) {}

  private charge(): void {
    if (this.budget.remaining < 1) throw TOO_MANY;
    this.budget.remaining -= 1;
  }

  private abs(bytes: string): string {
    const p = fromBytes(bytes);
    if (p.startsWith('/')) return p;
    if (p === '.') return this.cwd;
    return this.cwd.endsWith('/') ? this.cwd + p : `${this.cwd}/${p}`;
  }

  private list(dir: string): Promise<Listing> {
    const key = this.abs(dir);
    let listing = this.listings.get(key);
    if (!listing) {
      this.charge();
      listing = Promise.resolve(key)
        .then((k) => this.fs.readDir(k))
        .then(
          (entries) => entries.map((e) => toBytes(e.name)),
          () => null,
        );
      this.listings.set(key, listing);
    }
    return listing;
  }

  private isDir(dir: string): Promise<boolean> {
    return Promise.resolve(this.abs(dir))
      .then((p) => this.fs.isDir(p))
      .catch(() => false);
  }

  /** Names in `dir` that `file` (one component) matches, or null when `dir` cannot be used. */
  private async vector(file: string, dir: string, last: boolean): Promise<string[] | null> {
    if (file === '') return (await this.isDir(dir)) ? [''] : null;
    if (!isPattern(file)) {
      const name = unquote(file);
      this.charge();
      // A middle component is only joined: the listing or isDir of the next step needs it to exist.
      if (!last) return [name];
      if (name === '.' || name === '..') return (await this.isDir(dir)) ? [name] : null;
      // As bash does: the last component without glob characters is looked up, not listed (one
      // `lstat` where a folder of thousands would be read); the lookup costs what a listing would.
      if (this.fs.exists) {
        this.charge();
        const at = this.abs(dir === '.' ? name : joinPath(dir, name));
        return (await this.fs.exists(at).catch(() => false)) ? [name] : [];
      }
      const listing = await this.list(dir);
      return listing && (listing.includes(name) ? [name] : []);
    }
    const listing = await this.list(dir);
    if (!listing) return null;
    const dotOk = file[0] === '.' || (file[0] === '\\' && file[1] === '.');
    const out: string[] = [];
    for (const name of listing) {
      if (name === '' || name === '.' || name === '..' || (name[0] === '.' && !dotOk)) continue;
      if (match(file, name)) {
        this.charge();
        out.push(name);
      }
    }
    return out;
  }

  /** Expands byte-string pattern `pat` (escapes as in bash, `\/` already a plain `/`). */
  async expand(pat: string, last: boolean): Promise<string[]> {
    const slash = pat.lastIndexOf('/');
    const dir = pat.slice(0, slash + 1);
    const file = pat.slice(slash + 1);
    const out: string[] = [];
    if (dir !== '' && isPattern(dir)) {
      // The directories are looked into LOOK_AHEAD at a time (the words are sorted at the end, and
      // the budget charges the same units in any order): `pkg*/src/x` lists a hundred folders eight
      // at once instead of one after another, and a glob that runs out of budget reads at most a
      // few folders more than one read in order would.
      const dirs = await this.expand(dir.slice(0, -1), false);
      for (let k = 0; k < dirs.length; k += LOOK_AHEAD) {
        const batch = dirs.slice(k, k + LOOK_AHEAD);
        const vectors = await Promise.all(batch.map((d) => this.vector(file, d === '' ? '.' : d, last)));
        batch.forEach((d, i) => {
          for (const n of vectors[i] ?? []) out.push(joinPath(d, n));
        });
      }
      return out;
    }
    if (file === '') return [dir];
    const d = unquote(dir);
    for (const n of (await this.vector(file, d === '' ? '.' : d, last)) ?? []) out.push(joinPath(d, n));
    return out;
  }
}

/** `\/` is a plain `/` (a quoted slash still separates), and a trailing lone `\` is a literal one. */
const normalise = (pattern: string): string =>
  pattern.replace(/\\([\s\S]|$)/g, (_, c: string) => (c === '/' ? '/' : `\\${c || '\\'}`));

/**
 * Expands `pattern` (a word in glob form: quoted or escaped characters written `\c`) in `cwd` as
 * the shell would. Every directory listed and every candidate produced costs one unit of `budget`;
 * when it runs out the answer is `too-many`, with `limit` the budget this object started with.
 */
export async function expandGlob(
  pattern: string,
  cwd: string,
  fs: GlobFs,
  budget: { remaining: number },
): Promise<GlobResult> {
  if (!limits.has(budget)) limits.set(budget, budget.remaining);
  const literal: GlobResult = { kind: 'literal', word: unquote(pattern) };
  if (!hasGlob(pattern)) return literal;
  let found: string[];
  try {
    found = await new Expansion(cwd, fs, budget).expand(toBytes(normalise(pattern)), true);
  } catch (e) {
    if (e === TOO_MANY) return { kind: 'too-many', limit: limits.get(budget) ?? 0 };
    throw e;
  }
  if (found.length === 0) return literal;
  found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { kind: 'matches', words: found.map(fromBytes) };
}
