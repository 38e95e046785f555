/** What the repository's configuration could make these subcommands run, switched off. */
const NO_PROGRAMS = '--no-textconv --no-ext-diff';

/**
 * git's grammar: a short list of global options, then one of the read-only subcommands, each with
 * the options that only read (the listing forms in `gitListing.ts`). Revisions and pathspecs are checked as paths (a revision never
 * leaves the workspace; a pathspec must not). Options that write a file, run a program or point
 * git at another repository are refused by name; everything unknown is refused too.
 */
import { FLAG, flags, NUM, OPT_NUM, OPT_TEXT, PATTERN, TEXT, table } from '../kit';
import { LISTING } from '../gitListing';
import { DIFF, REVS, RUNS_TEXTCONV, SUBMODULES_NOT_ENTERED } from '../gitOptions';
import type { Grammar, Grammars, OptionSpec } from '../types';

const ENTERS_SUBMODULES: OptionSpec = {
  refuse: "enters submodules, whose own repositories' configuration could run programs",
};

const STATUS = (): Grammar => ({
  name: 'git status',
  options: table(
    flags(
      '-s',
      '--short',
      '-b',
      '--branch',
      '--show-stash',
      '--long',
      '-v',
      '--verbose',
      '-z',
      '--ahead-behind',
      '--no-ahead-behind',
      '--renames',
      '--no-renames',
      '--no-column',
    ),
    {
      '--porcelain': OPT_TEXT,
      '-u': OPT_TEXT,
      '--untracked-files': OPT_TEXT,
      '--ignored': OPT_TEXT,
      '--ignore-submodules': SUBMODULES_NOT_ENTERED,
      '--column': OPT_TEXT,
      '--find-renames': OPT_TEXT,
    },
  ),
  positional: () => 'path',
});

const LOG = (): Grammar => ({
  name: 'git log',
  options: table(DIFF(), REVS()),
  numericOption: true,
  positional: () => 'rev',
  insert: NO_PROGRAMS,
});

const SHOW = (): Grammar => ({
  name: 'git show',
  options: table(DIFF(), REVS()),
  numericOption: true,
  positional: () => 'rev',
  insert: NO_PROGRAMS,
});

const DIFF_CMD = (): Grammar => ({
  name: 'git diff',
  options: table(
    DIFF(),
    flags('--cached', '--staged', '--no-index', '--merge-base', '-1', '-2', '-3', '--base', '--ours', '--theirs', '-0'),
  ),
  positional: () => 'rev',
  insert: NO_PROGRAMS,
});

const BLAME = (): Grammar => ({
  name: 'git blame',
  options: table(
    flags(
      '-b',
      '--root',
      '--show-stats',
      '-l',
      '-t',
      '-s',
      '-n',
      '--show-number',
      '-f',
      '--show-name',
      '-e',
      '--show-email',
      '-w',
      '-p',
      '--porcelain',
      '--line-porcelain',
      '--incremental',
      '--reverse',
      '--first-parent',
      '--color-lines',
      '--color-by-age',
      '--progress',
      '--no-progress',
      '-c',
      '--minimal',
    ),
    {
      '-L': TEXT,
      '-M': OPT_NUM,
      '-C': OPT_NUM,
      '--date': TEXT,
      '--since': TEXT,
      '--abbrev': OPT_NUM,
      '--contents': { value: 'path' },
      '-S': { value: 'path' },
      '--ignore-rev': TEXT,
      '--ignore-revs-file': { value: 'path' },
      '--encoding': TEXT,
    },
  ),
  positional: () => 'rev',
  insert: NO_PROGRAMS,
});

const LS_FILES = (): Grammar => ({
  name: 'git ls-files',
  options: table(
    flags(
      '-c',
      '--cached',
      '-d',
      '--deleted',
      '-m',
      '--modified',
      '-o',
      '--others',
      '-i',
      '--ignored',
      '-s',
      '--stage',
      '-u',
      '--unmerged',
      '-k',
      '--killed',
      '-z',
      '-t',
      '-v',
      '-f',
      '--directory',
      '--no-empty-directory',
      '--eol',
      '--exclude-standard',
      '--error-unmatch',
      '--full-name',
      '--debug',
      '--deduplicate',
      '--sparse',
      '--resolve-undo',
    ),
    {
      '-x': PATTERN,
      '--exclude': PATTERN,
      '-X': { value: 'path' },
      '--exclude-from': { value: 'path' },
      '--exclude-per-directory': TEXT,
      '--with-tree': TEXT,
      '--abbrev': OPT_NUM,
      '--format': TEXT,
      '--recurse-submodules': ENTERS_SUBMODULES,
    },
  ),
  positional: () => 'path',
});

const REV_PARSE = (): Grammar => ({
  name: 'git rev-parse',
  options: table(
    flags(
      '--show-toplevel',
      '--show-prefix',
      '--show-cdup',
      '--git-dir',
      '--absolute-git-dir',
      '--git-common-dir',
      '--is-inside-work-tree',
      '--is-inside-git-dir',
      '--is-bare-repository',
      '--is-shallow-repository',
      '--show-superproject-working-tree',
      '--verify',
      '-q',
      '--quiet',
      '--symbolic',
      '--symbolic-full-name',
      '--all',
      '--revs-only',
      '--no-revs',
      '--flags',
      '--no-flags',
      '--default',
      '--sq',
      '--not',
      '--local-env-vars',
      '--show-object-format',
      '--show-ref-format',
    ),
    {
      '--abbrev-ref': OPT_TEXT,
      '--short': OPT_NUM,
      '--branches': OPT_TEXT,
      '--tags': OPT_TEXT,
      '--remotes': OPT_TEXT,
      '--glob': TEXT,
      '--exclude': TEXT,
      '--since': TEXT,
      '--after': TEXT,
      '--until': TEXT,
      '--before': TEXT,
    },
  ),
  positional: () => 'rev',
});

const DESCRIBE = (): Grammar => ({
  name: 'git describe',
  options: table(
    flags('--tags', '--all', '--always', '--long', '--exact-match', '--contains', '--first-parent', '--debug'),
    {
      '--abbrev': OPT_NUM,
      '--dirty': OPT_TEXT,
      '--broken': OPT_TEXT,
      '--match': PATTERN,
      '--exclude': PATTERN,
      '--candidates': NUM,
    },
  ),
  positional: () => 'rev',
});

const SHORTLOG = (): Grammar => ({
  name: 'git shortlog',
  options: table(REVS(), flags('-s', '--summary', '-n', '--numbered', '-e', '--email', '-c', '--committer'), {
    '-n': FLAG,
    '-w': OPT_TEXT,
    '--group': TEXT,
    '--format': TEXT,
  }),
  positional: () => 'rev',
  insert: NO_PROGRAMS,
});

const GREP = (): Grammar => ({
  name: 'git grep',
  options: table(
    flags(
      '--cached',
      '--untracked',
      '--no-index',
      '--no-exclude-standard',
      '--exclude-standard',
      '-a',
      '--text',
      '--textconv',
      '--no-textconv',
      '-i',
      '--ignore-case',
      '-I',
      '-w',
      '--word-regexp',
      '-v',
      '--invert-match',
      '-h',
      '-H',
      '--full-name',
      '-E',
      '--extended-regexp',
      '-G',
      '--basic-regexp',
      '-P',
      '--perl-regexp',
      '-F',
      '--fixed-strings',
      '-n',
      '--line-number',
      '--column',
      '-l',
      '--files-with-matches',
      '--name-only',
      '-L',
      '--files-without-match',
      '-z',
      '--null',
      '-o',
      '--only-matching',
      '-c',
      '--count',
      '--no-color',
      '--break',
      '--heading',
      '-p',
      '--show-function',
      '-W',
      '--function-context',
      '--and',
      '--or',
      '--not',
      '--all-match',
      '-q',
      '--quiet',
    ),
    {
      '--textconv': RUNS_TEXTCONV,
      '--recurse-submodules': ENTERS_SUBMODULES,
      '--color': OPT_TEXT,
      '--max-depth': NUM,
      '-m': NUM,
      '--max-count': NUM,
      '-A': NUM,
      '-B': NUM,
      '-C': NUM,
      '--after-context': NUM,
      '--before-context': NUM,
      '--context': NUM,
      '--threads': NUM,
      '-e': { value: 'pattern', suppliesPattern: true },
      '-f': { value: 'path', suppliesPattern: true },
      '-O': { refuse: 'opens the matching files in a pager, which can run commands' },
      '--open-files-in-pager': { refuse: 'opens the matching files in a pager, which can run commands' },
    },
  ),
  numericOption: true,
  positional: (index, state) =>
    index === 0 && !state.afterDashDash && !['-e', '-f'].some((o) => state.seen.has(o)) ? 'pattern' : 'rev',
  insert: '--no-textconv',
});

const GLOBAL_REPO: OptionSpec = { refuse: 'points git at another repository, configuration or program' };

const git = (): Grammar => ({
  name: 'git',
  options: {
    '--no-pager': FLAG,
    '-P': FLAG,
    '--no-optional-locks': FLAG,
    '--literal-pathspecs': FLAG,
    '--no-replace-objects': FLAG,
    '-C': { value: 'dir', separateValue: true },
    '--version': { terminal: true },
    '-c': { refuse: 'sets configuration, which can make git run programs' },
    '--config-env': { refuse: 'sets configuration, which can make git run programs' },
    '--exec-path': GLOBAL_REPO,
    '--git-dir': GLOBAL_REPO,
    '--work-tree': GLOBAL_REPO,
    '--namespace': GLOBAL_REPO,
    '--attr-source': GLOBAL_REPO,
    '--super-prefix': GLOBAL_REPO,
    '-p': { refuse: 'pipes output through a pager, which can run commands' },
    '--paginate': { refuse: 'pipes output through a pager, which can run commands' },
  },
  subcommands: {
    status: STATUS(),
    log: LOG(),
    diff: DIFF_CMD(),
    show: SHOW(),
    blame: BLAME(),
    'ls-files': LS_FILES(),
    'rev-parse': REV_PARSE(),
    describe: DESCRIBE(),
    shortlog: SHORTLOG(),
    grep: GREP(),
    ...LISTING(),
  },
  subcommandRequired: true,
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { git };
