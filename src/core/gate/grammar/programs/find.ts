/**
 * GNU find's own language: leading options (-H, -P, -O), starting points (paths), then an
 * expression of tests, operators and actions. Only tests and printing actions are known; actions
 * that run commands, delete or write files, and the options that follow symlinks, are refused.
 */
import type { ArgKind, CustomParse, Grammar, Grammars } from '../types';

type Kind = ArgKind['kind'];

/** Primaries and their one argument's kind; `null` for those without an argument. */
const PRIMARIES: Record<string, Kind | null> = {
  '-name': 'pattern',
  '-iname': 'pattern',
  '-path': 'pattern',
  '-ipath': 'pattern',
  '-wholename': 'pattern',
  '-iwholename': 'pattern',
  '-regex': 'pattern',
  '-iregex': 'pattern',
  '-lname': 'pattern',
  '-ilname': 'pattern',
  '-regextype': 'text',
  '-type': 'text',
  '-xtype': 'text',
  '-user': 'text',
  '-group': 'text',
  '-uid': 'number',
  '-gid': 'number',
  '-perm': 'text',
  '-size': 'text',
  '-mtime': 'text',
  '-mmin': 'text',
  '-atime': 'text',
  '-amin': 'text',
  '-ctime': 'text',
  '-cmin': 'text',
  '-used': 'text',
  '-links': 'text',
  '-inum': 'text',
  '-maxdepth': 'number',
  '-mindepth': 'number',
  '-fstype': 'text',
  '-context': 'text',
  '-printf': 'text',
  '-samefile': 'path',
  '-newer': 'path',
  '-anewer': 'path',
  '-cnewer': 'path',
  '-print': null,
  '-print0': null,
  '-ls': null,
  '-prune': null,
  '-quit': null,
  '-true': null,
  '-false': null,
  '-empty': null,
  '-executable': null,
  '-readable': null,
  '-writable': null,
  '-nouser': null,
  '-nogroup': null,
  '-depth': null,
  '-d': null,
  '-mount': null,
  '-xdev': null,
  '-noleaf': null,
  '-ignore_readdir_race': null,
  '-noignore_readdir_race': null,
  '-daystart': null,
  '-warn': null,
  '-nowarn': null,
  '-not': null,
  '-a': null,
  '-and': null,
  '-o': null,
  '-or': null,
  '!': null,
  '(': null,
  ')': null,
  ',': null,
};

const REFUSED: Record<string, string> = {
  '-delete': 'deletes files',
  '-exec': 'runs a command',
  '-execdir': 'runs a command',
  '-ok': 'runs a command',
  '-okdir': 'runs a command',
  '-fls': 'writes a file',
  '-fprint': 'writes a file',
  '-fprint0': 'writes a file',
  '-fprintf': 'writes a file',
  '-files0-from': 'reads its starting points from a file; name them as arguments',
  '-D': 'prints debugging output that is not needed',
};

const NEWER_XY = /^-newer[aBcm][aBcmt]$/;
const FOLLOW = "use 'find' without -L/-follow (it lists symlinks without entering them)";

function parseFind(args: readonly string[]): CustomParse {
  const kinds: ArgKind[] = [];
  const refuse = (rule: string, reason: string): CustomParse => ({ ok: false, rule, reason });
  let k = 0;
  // Leading options.
  for (; k < args.length; k++) {
    const w = args[k] as string;
    if (w === '-L') return refuse('follow', `'find -L' follows symlinks out of the workspace; ${FOLLOW}`);
    if (w === '-H' || w === '-P' || /^-O\d$/.test(w)) kinds.push({ kind: 'option', option: w });
    else if (w === '-D') return refuse('option', `'find -D' ${REFUSED['-D'] as string}`);
    else break;
  }
  // Starting points: until the first word that starts an expression.
  for (; k < args.length; k++) {
    const w = args[k] as string;
    if (w.startsWith('-') || w === '!' || w === '(' || w === ')' || w === ',') break;
    kinds.push({ kind: 'path' });
  }
  for (; k < args.length; k++) {
    const w = args[k] as string;
    if (w === '-follow') return refuse('follow', `'find -follow' follows symlinks out of the workspace; ${FOLLOW}`);
    const refused = Object.hasOwn(REFUSED, w) ? REFUSED[w] : undefined;
    if (refused) return refuse('option', `'find ${w}' ${refused}`);
    let arg: Kind | null | undefined = Object.hasOwn(PRIMARIES, w) ? PRIMARIES[w] : undefined;
    if (arg === undefined && NEWER_XY.test(w)) arg = w.endsWith('t') ? 'text' : 'path';
    if (arg === undefined) {
      return refuse(
        'option',
        `'find ${w}' is not a test or action Planwise knows to be read-only (unknown ones are refused)`,
      );
    }
    kinds.push({ kind: 'option', option: w });
    if (arg !== null) {
      if (k + 1 >= args.length) return refuse('option', `'find ${w}' needs an argument`);
      kinds.push({ kind: arg, option: w });
      k++;
    }
  }
  return { ok: true, kinds };
}

const find = (): Grammar => ({ name: 'find', options: {}, custom: parseFind });

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { find };
