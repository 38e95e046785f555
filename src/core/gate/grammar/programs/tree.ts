/**
 * The grammar of tree 2.x. Refused: what follows symlinks while descending (`tree -l`), writes
 * (`tree -o`, `tree -R` writes `00Tree.html` files), or reads directory names from a file
 * (`tree --fromfile`).
 */
import { flags, own, type Table, valued, table, once } from '../kit';
import type { ArgKind, CustomParse, Grammar, Grammars, OptionSpec } from '../types';

/*
 * tree reads its options its own way: an option letter that takes a value takes the NEXT word,
 * even inside a cluster, and the rest of the cluster goes on being options (`tree -Io PAT FILE`
 * is `-I PAT -o FILE`). A long option takes `--opt=value` or `--opt value`. So tree gets a parser
 * of its own; the kinds are the same as everywhere.
 */
const TREE_SHORT = once((): Table =>
  table(flags('-a -d -f -x -q -N -Q -p -u -g -s -h -D -F -v -t -c -U -r -i -A -S -n -C -X -J'), {
    '-L': { value: 'number' },
    '-P': { value: 'pattern' },
    '-I': { value: 'pattern' },
    '-H': { value: 'text' },
    '-T': { value: 'text' },
    '-o': { refuse: 'writes its output to a file' },
    '-R': { refuse: 'writes an 00Tree.html file into every directory' },
    '-l': { follows: 'use tree without -l (it lists symlinks without descending into them)' },
  }),
);

const TREE_LONG = once((): Table =>
  table(
    flags('--gitignore --matchdirs --metafirst --ignore-case --nolinks --inodes --device --dirsfirst --filesfirst'),
    flags('--si --du --prune --fflinks --info --noreport --help --version'),
    valued('path', '--gitfile --hintro --houtro --infofile'),
    valued('text', '--charset --timefmt'),
    {
      '--filelimit': { value: 'number' },
      '--sort': { value: ['name', 'version', 'size', 'mtime', 'ctime', 'none'] },
      '--fromfile': { refuse: 'reads the directories to list from files, which Planwise cannot check' },
      '--output': { refuse: 'writes its output to a file' },
    },
  ),
);

type Fail = Extract<CustomParse, { ok: false }>;

function fail(reason: string, rule = 'option'): Fail {
  return { ok: false, rule, reason };
}

function refusal(spec: OptionSpec, shown: string, where = ''): Fail | null {
  if (spec.follows)
    return fail(`'%s ${shown}'${where} follows symlinks out of the workspace; ${spec.follows}`, 'follow');
  if (spec.refuse) return fail(`'%s ${shown}'${where} ${spec.refuse}`);
  return null;
}

/** The word kind of `value` for option `name`, or the refusal. */
function valueKind(spec: OptionSpec, name: string, value: string): ArgKind['kind'] | Fail {
  const kind = spec.value;
  if (Array.isArray(kind)) {
    return kind.includes(value)
      ? 'text'
      : fail(`'%s ${name}' takes one of ${kind.join(', ')}, not '${value}'`, 'value');
  }
  if (kind === 'number')
    return /^\d+$/.test(value) ? 'number' : fail(`'%s ${name}' takes a number, not '${value}'`, 'value');
  return kind as ArgKind['kind'];
}

const UNKNOWN = 'is not an option Planwise knows to be read-only (unknown options are refused)';

function treeLong(w: string, next: string | undefined, kinds: ArgKind[]): number | Fail {
  const eq = w.indexOf('=');
  const name = eq < 0 ? w : w.slice(0, eq);
  const spec = own(TREE_LONG(), name);
  if (!spec) return fail(`'%s ${name}' ${UNKNOWN}`);
  const bad = refusal(spec, w);
  if (bad) return bad;
  kinds.push({ kind: 'option', option: name });
  if (spec.value === undefined) return eq < 0 ? 0 : fail(`'%s ${name}' takes no value`);
  const value = eq < 0 ? next : w.slice(eq + 1);
  if (value === undefined) return fail(`'%s ${name}' needs a value`);
  const kind = valueKind(spec, name, value);
  if (typeof kind !== 'string') return kind;
  if (eq >= 0) {
    // A kind travels with its own word only; an attached file would go unchecked.
    return kind === 'path' ? fail(`'%s ${name}=…': give the file as its own word ('${name} FILE')`) : 0;
  }
  kinds.push({ kind, option: name });
  return 1;
}

function treeCluster(args: readonly string[], k: number, kinds: ArgKind[]): number | Fail {
  const w = args[k] as string;
  kinds.push({ kind: 'option', option: w.slice(0, 2) });
  let used = 0;
  for (let j = 1; j < w.length; j++) {
    const name = `-${w[j] as string}`;
    const where = w.length > 2 ? ` (in '${w}')` : '';
    const spec = own(TREE_SHORT(), name);
    if (!spec) return fail(`'%s ${name}'${where} ${UNKNOWN}`);
    const bad = refusal(spec, name, where);
    if (bad) return bad;
    if (spec.value === undefined) continue;
    const value = args[k + 1 + used];
    if (value === undefined) return fail(`'%s ${name}' needs a value`);
    const kind = valueKind(spec, name, value);
    if (typeof kind !== 'string') return kind;
    kinds.push({ kind, option: name });
    used++;
  }
  return used;
}

function treeWords(args: readonly string[]): CustomParse {
  const kinds: ArgKind[] = [];
  let options = true;
  for (let k = 0; k < args.length; k++) {
    const w = args[k] as string;
    if (options && w === '--') {
      kinds.push({ kind: 'option', option: '--' });
      options = false;
      continue;
    }
    if (options && w.length > 1 && w.startsWith('-')) {
      const used = w.startsWith('--') ? treeLong(w, args[k + 1], kinds) : treeCluster(args, k, kinds);
      if (typeof used !== 'number') return used;
      k += used;
      continue;
    }
    kinds.push({ kind: 'path' });
  }
  return { ok: true, kinds };
}

const tree = (): Grammar => ({ name: 'tree', options: {}, custom: treeWords });

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { tree };
