/**
 * git's listing and object-reading subcommands in their read-only forms (rules §1.1 step 6):
 * `branch` and `tag` listing (a name is a pattern only after `--list`/`-l`, so nothing is ever
 * created), bare `remote` or `remote -v`, `worktree list`, `stash list`, `ls-tree`,
 * `cat-file -p|-t|-s|-e`, `merge-base` and `rev-list`. Every option that creates, deletes, moves,
 * verifies a signature or sets an upstream is refused by name; anything unknown is refused too.
 */
import { FLAG, flags, NUM, OPT_NUM, OPT_TEXT, TEXT, refused, table, once, type Table } from './kit';
import { REVS } from './gitOptions';
import type { ArgvState, Grammar, OptionSpec } from './types';

/** A commit a listing filters by (`--contains HEAD`): read as a revision, checked like a path. */
const REV: OptionSpec = { value: 'rev' };

/** Patterns are positionals only in list mode (`--list`/`-l`); otherwise a name would be created. */
function patternsAfterList(state: ArgvState): 'pattern' | null {
  return state.seen.has('--list') || state.seen.has('-l') ? 'pattern' : null;
}

/** The options `branch` and `tag` share for choosing and printing refs. */
const REF_LISTING = once((): Table =>
  table(flags('--list', '-l', '--no-column', '--no-color', '-i', '--ignore-case'), {
    '--contains': REV,
    '--no-contains': REV,
    '--merged': REV,
    '--no-merged': REV,
    '--points-at': REV,
    '--sort': TEXT,
    '--format': TEXT,
    '--column': OPT_TEXT,
    '--color': OPT_TEXT,
  }),
);

const CHANGES_BRANCHES = 'creates, deletes, renames, copies or reconfigures branches; only listing is read-only';

const BRANCH = (): Grammar => ({
  name: 'git branch',
  options: table(
    REF_LISTING(),
    flags('-a', '--all', '-r', '--remotes', '-v', '--verbose', '--show-current', '--no-abbrev', '-q', '--quiet'),
    { '--abbrev': OPT_NUM },
    refused(
      CHANGES_BRANCHES,
      '-d -D --delete -m -M --move -c -C --copy -f --force -u --set-upstream-to --unset-upstream --edit-description ' +
        '-t --track --no-track --create-reflog --recurse-submodules',
    ),
  ),
  positional: (_index, state) => patternsAfterList(state),
  check: (state) =>
    state.seen.has('--show-current') && state.positionals.length > 0
      ? { rule: 'argument', reason: "'git branch --show-current' takes no pattern" }
      : null,
});

const CHANGES_TAGS = 'creates, deletes or verifies tags; only listing is read-only';

const TAG = (): Grammar => ({
  name: 'git tag',
  options: table(
    REF_LISTING(),
    // `-n` prints annotation lines: alone or with an attached count (`-n3`).
    { '-n': OPT_NUM },
    refused(
      CHANGES_TAGS,
      '-a --annotate -s --sign -u --local-user -f --force -d --delete -v --verify -m --message -F --file -e --edit ' +
        '--cleanup --create-reflog',
    ),
  ),
  positional: (_index, state) => patternsAfterList(state),
});

const REMOTE = (): Grammar => ({
  name: 'git remote',
  options: table(flags('-v', '--verbose')),
  // `git remote add|remove|set-url|show|prune|update …` change remotes or contact them.
  positional: () => null,
});

const WORKTREE_LIST = (): Grammar => ({
  name: 'git worktree list',
  options: table(flags('--porcelain', '-v', '--verbose', '-z'), { '--expire': TEXT }),
  positional: () => null,
});

const WORKTREE = (): Grammar => ({
  name: 'git worktree',
  options: {},
  subcommands: { list: WORKTREE_LIST() },
  subcommandRequired: true,
});

const STASH_LIST = (): Grammar => ({
  name: 'git stash list',
  // Handed to `git log -g refs/stash`: a short list of its formatting options.
  options: table(
    flags(
      '--oneline',
      '-p',
      '-u',
      '--patch',
      '--stat',
      '--name-only',
      '--name-status',
      '--no-color',
      '--abbrev-commit',
    ),
    {
      '-n': NUM,
      '--max-count': NUM,
      '--format': TEXT,
      '--pretty': OPT_TEXT,
      '--date': TEXT,
    },
  ),
  numericOption: true,
  positional: () => null,
  insert: '--no-textconv --no-ext-diff',
});

const STASH = (): Grammar => ({
  name: 'git stash',
  options: {},
  // `git stash` alone saves and resets the work tree: only `list` is read-only.
  subcommands: { list: STASH_LIST() },
  subcommandRequired: true,
});

const LS_TREE = (): Grammar => ({
  name: 'git ls-tree',
  options: table(
    flags(
      '-d',
      '-r',
      '-t',
      '-l',
      '--long',
      '-z',
      '--name-only',
      '--name-status',
      '--object-only',
      '--full-name',
      '--full-tree',
    ),
    { '--abbrev': OPT_NUM, '--format': TEXT },
  ),
  positional: () => 'rev',
});

const CAT_FILE_MODES = ['-p', '-t', '-s', '-e'] as const;

const CAT_FILE = (): Grammar => ({
  name: 'git cat-file',
  // Only the four single-object modes: `--textconv` and `--filters` run programs, `--batch…` reads stdin.
  options: table(flags(...CAT_FILE_MODES, '--allow-unknown-type')),
  positional: (index) => (index === 0 ? 'rev' : null),
  check: (state) => {
    const modes = CAT_FILE_MODES.filter((m) => state.seen.has(m));
    if (modes.length !== 1) return { rule: 'argument', reason: "'git cat-file' takes exactly one of -p, -t, -s, -e" };
    if (state.positionals.length !== 1) return { rule: 'argument', reason: "'git cat-file' takes one object" };
    return null;
  },
});

const MERGE_BASE = (): Grammar => ({
  name: 'git merge-base',
  options: table(flags('-a', '--all', '--octopus', '--independent', '--is-ancestor', '--fork-point')),
  positional: () => 'rev',
});

const REV_LIST = (): Grammar => ({
  name: 'git rev-list',
  options: table(REVS(), flags('--count', '--no-object-names', '--objects', '--timestamp', '--header'), {
    '--abbrev': OPT_NUM,
    '--max-age': TEXT,
    '--min-age': TEXT,
    '--not': FLAG,
  }),
  numericOption: true,
  positional: () => 'rev',
  insert: '--no-textconv --no-ext-diff',
});

/** The subcommands of this file, by name, for git's grammar (built with it). */
export const LISTING = (): Readonly<Record<string, Grammar>> => ({
  branch: BRANCH(),
  tag: TAG(),
  remote: REMOTE(),
  worktree: WORKTREE(),
  stash: STASH(),
  'ls-tree': LS_TREE(),
  'cat-file': CAT_FILE(),
  'merge-base': MERGE_BASE(),
  'rev-list': REV_LIST(),
});
