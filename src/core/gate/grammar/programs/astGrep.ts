/**
 * ast-grep (0.2x–0.4x). `run` is also what a command without a subcommand does (`ast-grep -p X
 * src`), which a table of subcommands cannot say, so the top level reads its first word itself and
 * hands the rest to the subcommand's grammar. Refused: rewriting (`-r`/`--rewrite`, `-U`,
 * `-i`), `new` (creates files), `lsp` (never ends), following symlinks (`--follow`), and loading
 * native parsers (`--custom-languages` other than ignore). Older ast-grep loads the native parsers
 * a project's sgconfig.yml names without asking, so ast-grep counts as running project code.
 */
import { parseArgv } from '../../argv';
import { flags, following, refused, terminal, type Table, valued, table, once } from '../kit';
import type { ArgKind, ArgvState, CustomParse, Grammar, Grammars } from '../types';

const GLOBAL = once((): Table =>
  table(valued('path', '-c --config'), valued('text', '--custom-languages'), terminal('-h --help -V --version')),
);

const INPUT = once((): Table =>
  table(
    following('use ast-grep without --follow (it does not follow symlinks by default)', '--follow'),
    valued(['hidden', 'dot', 'exclude', 'global', 'parent', 'vcs'], '--no-ignore'),
    flags('--stdin'),
    valued('pattern', '--globs'),
    valued('number', '-j --threads -A --after -B --before -C --context --max-results'),
  ),
);

const OUTPUT = once((): Table =>
  table(
    refused('applies rewrites to files interactively', '-i --interactive'),
    refused('applies rewrites to files', '-U --update-all'),
    flags('--files-with-matches'),
    valued(['pretty', 'stream', 'compact'], '--json', true),
    valued(['auto', 'always', 'ansi', 'never'], '--color'),
    valued(['nothing', 'summary', 'entity'], '--inspect'),
  ),
);

function customLanguages(state: ArgvState): { rule: string; reason: string } | null {
  const v = state.values.get('--custom-languages')?.find((x) => x !== 'ignore');
  return v === undefined
    ? null
    : { rule: 'option', reason: `'ast-grep --custom-languages ${v}' loads native parsers or saves trust; use ignore` };
}

const REWRITES = 'rewrites code';

const astGrepRun = (): Grammar => ({
  name: 'ast-grep run',
  options: table(
    GLOBAL(),
    INPUT(),
    OUTPUT(),
    valued('pattern', '-p --pattern'),
    valued('text', '-l --lang --selector -k --kind'),
    valued(['pattern', 'ast', 'cst', 'sexp'], '--debug-query', true),
    valued(['cst', 'smart', 'ast', 'relaxed', 'signature', 'template'], '--strictness'),
    valued(['auto', 'always', 'never'], '--heading'),
    refused(REWRITES, '-r --rewrite'),
  ),
  check: customLanguages,
});

const astGrepScan = (): Grammar => ({
  name: 'ast-grep scan',
  options: table(
    GLOBAL(),
    INPUT(),
    OUTPUT(),
    valued('path', '--rule'),
    valued('text', '--inline-rules'),
    valued('pattern', '--filter'),
    flags('--include-metadata'),
    valued('text', '--error --warning --info --hint --off', true),
    valued(['github', 'sarif'], '--format'),
    valued(['rich', 'medium', 'short'], '--report-style'),
    refused(
      "names a rule file here, but '-r' is refused for ast-grep (it rewrites code in run); use --rule FILE",
      '-r',
    ),
  ),
  check: customLanguages,
});

const astGrepTest = (): Grammar => ({
  name: 'ast-grep test',
  options: table(
    GLOBAL(),
    valued('path', '-t --test-dir --snapshot-dir'),
    valued('text', '-f --filter'),
    flags('--skip-snapshot-tests --include-off'),
    refused('updates the snapshot files', '-U --update-all'),
    refused('updates the snapshot files interactively', '-i --interactive'),
  ),
  positional: () => null,
  check: customLanguages,
});

const astGrepOutline = (): Grammar => ({
  name: 'ast-grep outline',
  options: table(
    GLOBAL(),
    valued('text', '-l --lang --items --match --view'),
    valued(['pretty', 'stream', 'compact'], '--json', true),
  ),
  check: customLanguages,
});

/** The subcommands, built when the first ast-grep command is read. */
const SUBCOMMANDS = once((): Readonly<Record<string, Grammar>> => ({
  run: astGrepRun(),
  scan: astGrepScan(),
  test: astGrepTest(),
  outline: astGrepOutline(),
  completions: {
    name: 'ast-grep completions',
    options: table(terminal('-h --help')),
    positional: (i) => (i === 0 ? ['bash', 'elvish', 'fish', 'powershell', 'zsh'] : null),
  },
  help: { name: 'ast-grep help', options: {}, positional: () => 'text' },
}));

const REFUSED: Readonly<Record<string, string>> = {
  new: 'creates files',
  lsp: 'starts a language server that runs until it is stopped',
};

const KINDS = new Set<string>(['option', 'path', 'dir', 'pattern', 'script', 'text', 'number']);

function astGrepWords(args: readonly string[]): CustomParse {
  const first = args[0] ?? '';
  if (Object.hasOwn(REFUSED, first))
    return { ok: false, rule: 'subcommand', reason: `'%s ${first}' ${REFUSED[first]}` };
  const subcommands = SUBCOMMANDS();
  const sub = Object.hasOwn(subcommands, first) ? subcommands[first] : undefined;
  const run = subcommands['run'] as Grammar;
  const r = parseArgv(sub ? `ast-grep ${first}` : 'ast-grep', sub ?? run, sub ? args.slice(1) : args);
  if (!r.ok) return r;
  const kinds: ArgKind[] = sub ? [{ kind: 'text' }] : [];
  for (const w of r.words) {
    if (w.attached && (w.attached.kind === 'path' || w.attached.kind === 'dir')) {
      // A custom parse gives one kind per word, so a file inside an option's word would go unchecked.
      return { ok: false, rule: 'option', reason: `'%s ${w.option ?? ''}' needs its file as a separate word` };
    }
    if (!KINDS.has(w.kind)) return { ok: false, rule: 'argument', reason: `'%s' cannot read '${w.kind}' here` };
    kinds.push(w.option ? { kind: w.kind as ArgKind['kind'], option: w.option } : { kind: w.kind as ArgKind['kind'] });
  }
  return { ok: true, kinds };
}

const astGrep = (): Grammar => ({ name: 'ast-grep', options: {}, projectCode: true, custom: astGrepWords });

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { 'ast-grep': astGrep };
