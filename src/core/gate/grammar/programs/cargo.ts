/**
 * cargo: `check`, `test`, `metadata`, `tree`, `clippy`, `nextest run` and `nextest list`, which
 * build and run the project's own code (trusted workspaces only). After `--`, `cargo test` and
 * `nextest run` take libtest's selection and output options; clippy takes lint levels.
 */
import { FLAG, flags, NUM, once, PATH, TEXT, table } from '../kit';
import type { Grammar, Grammars, OptionSpec } from '../types';

const COMMON = once((): Record<string, OptionSpec> =>
  table(
    flags(
      '-q',
      '--quiet',
      '-v',
      '--verbose',
      '-vv',
      '--offline',
      '--frozen',
      '--locked',
      '--workspace',
      '--all',
      '--lib',
      '--bins',
      '--tests',
      '--examples',
      '--benches',
      '--all-targets',
      '--all-features',
      '--no-default-features',
      '-r',
      '--release',
      '--keep-going',
      '--ignore-rust-version',
      '--future-incompat-report',
    ),
    {
      '--color': TEXT,
      '-p': TEXT,
      '--package': TEXT,
      '--exclude': TEXT,
      '--bin': TEXT,
      '--test': TEXT,
      '--example': TEXT,
      '--bench': TEXT,
      '-F': TEXT,
      '--features': TEXT,
      '--profile': TEXT,
      '--target': TEXT,
      '-j': NUM,
      '--jobs': NUM,
      '--message-format': TEXT,
      '--manifest-path': PATH,
      '--target-dir': PATH,
      '--config': { refuse: 'overrides configuration, which can run programs' },
      '-Z': { refuse: 'turns on unstable cargo features' },
      '--timings': { refuse: 'writes a timing report' },
    },
  ),
);

const REWRITES: OptionSpec = { refuse: 'rewrites expected output; run the tests without it' };

/** libtest's arguments after `--`: test selection and output. */
const LIBTEST = once((): Grammar => ({
  name: 'cargo test --',
  options: table(
    flags(
      '--nocapture',
      '--no-capture',
      '--exact',
      '--ignored',
      '--include-ignored',
      '--list',
      '-q',
      '--quiet',
      '--show-output',
      '--test',
      '--bench',
      '--no-fail-fast',
      '--force-run-in-process',
    ),
    {
      '--test-threads': NUM,
      '--skip': TEXT,
      '--color': TEXT,
      '--format': TEXT,
      '--logfile': { refuse: 'writes a log file' },
      '--bless': REWRITES,
      '-Z': { refuse: 'turns on unstable test options' },
    },
  ),
  positional: () => 'text',
  optionsAfterDashDash: true,
}));

const CLIPPY_LINTS = (): Grammar => ({
  name: 'cargo clippy --',
  options: {
    '-D': TEXT,
    '-W': TEXT,
    '-A': TEXT,
    '-F': TEXT,
    '--deny': TEXT,
    '--warn': TEXT,
    '--allow': TEXT,
    '--forbid': TEXT,
    '--cap-lints': TEXT,
  },
  positional: () => null,
});

const CHECK = (): Grammar => ({ name: 'cargo check', options: COMMON(), positional: () => null, projectCode: true });

const TEST = (): Grammar => ({
  name: 'cargo test',
  options: table(COMMON(), flags('--no-run', '--doc', '--no-fail-fast')),
  positional: (index) => (index === 0 ? 'text' : null),
  afterDashDash: LIBTEST(),
  projectCode: true,
});

const CLIPPY = (): Grammar => ({
  name: 'cargo clippy',
  options: table(COMMON(), { '--fix': { refuse: 'applies fixes to source files' }, '--no-deps': FLAG }),
  positional: () => null,
  afterDashDash: CLIPPY_LINTS(),
  projectCode: true,
});

const METADATA = (): Grammar => ({
  name: 'cargo metadata',
  options: table(COMMON(), { '--format-version': NUM, '--no-deps': FLAG, '--filter-platform': TEXT }),
  positional: () => null,
  projectCode: true,
});

const TREE = (): Grammar => ({
  name: 'cargo tree',
  options: table(COMMON(), flags('-d', '--duplicates', '--no-dedupe', '-a', '--all'), {
    '-i': TEXT,
    '--invert': TEXT,
    '-e': TEXT,
    '--edges': TEXT,
    '--depth': NUM,
    '--prefix': TEXT,
    '--charset': TEXT,
    '-f': TEXT,
    '--format': TEXT,
    '--prune': TEXT,
  }),
  positional: () => null,
  projectCode: true,
});

const NEXTEST_OPTIONS = once((): Record<string, OptionSpec> =>
  table(COMMON(), flags('--no-fail-fast', '--no-capture', '--nocapture', '--run-ignored', '--no-tests'), {
    '-E': TEXT,
    '--filterset': TEXT,
    '--filter-expr': TEXT,
    '-P': TEXT,
    '--test-threads': NUM,
    '--retries': NUM,
    '--partition': TEXT,
    '--status-level': TEXT,
    '--final-status-level': TEXT,
    '--success-output': TEXT,
    '--failure-output': TEXT,
    '-T': TEXT,
    '--message-format-version': TEXT,
    '--hide-progress-bar': FLAG,
  }),
);

const NEXTEST = (): Grammar => ({
  name: 'cargo nextest',
  options: {},
  subcommands: {
    run: {
      name: 'cargo nextest run',
      options: NEXTEST_OPTIONS(),
      positional: () => 'text',
      afterDashDash: LIBTEST(),
      projectCode: true,
    },
    list: { name: 'cargo nextest list', options: NEXTEST_OPTIONS(), positional: () => 'text', projectCode: true },
  },
  subcommandRequired: true,
});

const cargo = (): Grammar => ({
  name: 'cargo',
  options: table(flags('-q', '--quiet', '-v', '--verbose', '--offline', '--frozen', '--locked'), {
    '--color': TEXT,
    '--version': { terminal: true },
    '-V': { terminal: true },
  }),
  subcommands: {
    check: CHECK(),
    test: TEST(),
    clippy: CLIPPY(),
    metadata: METADATA(),
    tree: TREE(),
    nextest: NEXTEST(),
  },
  subcommandRequired: true,
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { cargo };
