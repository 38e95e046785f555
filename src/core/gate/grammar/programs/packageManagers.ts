/**
 * npm, pnpm and yarn: only `test` and `run test`, which run the project's own tests (trusted
 * workspaces only). Global options come from a short list; a directory option (`npm --prefix`,
 * `pnpm -C`, `yarn --cwd`) must name a directory inside the workspace and moves the working
 * directory. After `--` (npm) or directly (pnpm, yarn) the test runner's own arguments follow the
 * test-argument grammar: selection and output options and files, never update or record modes.
 */
import { FLAG, NUM, PATTERN, TEXT, once } from '../kit';
import type { Grammar, Grammars, OptionSpec } from '../types';

const REWRITES: OptionSpec = { refuse: 'rewrites snapshots or expected output; run the tests without it' };
const WATCHES: OptionSpec = { refuse: 'watches for changes and never ends' };
const REPORTER_FILE: OptionSpec = {
  refuse: 'can point the reporter at an output file (output=FILE); run without it',
};
const COVERAGE: OptionSpec = { refuse: 'writes a coverage report into the workspace' };

/**
 * What a test runner may be given (mocha, jest, vitest, node --test, ava, tap): test selection,
 * reporters and output, timeouts, and test files inside the workspace.
 */
const TEST_ARGS = once((): Grammar => ({
  name: 'test',
  options: {
    '--grep': PATTERN,
    '-g': PATTERN,
    '--fgrep': PATTERN,
    '-f': PATTERN,
    '--invert': FLAG,
    '-t': PATTERN,
    '--testNamePattern': PATTERN,
    '--test-name-pattern': PATTERN,
    '--testPathPattern': PATTERN,
    '--testPathPatterns': PATTERN,
    '--test-path-pattern': PATTERN,
    '--filter': PATTERN,
    '--match': PATTERN,
    '-m': PATTERN,
    '--reporter': TEXT,
    '-R': TEXT,
    '--reporters': TEXT,
    '--reporter-option': REPORTER_FILE,
    '--reporter-options': REPORTER_FILE,
    '-O': REPORTER_FILE,
    '--run': FLAG,
    '--bail': FLAG,
    '-b': FLAG,
    '--verbose': FLAG,
    '--silent': FLAG,
    '--no-coverage': FLAG,
    '--coverage': COVERAGE,
    '--timeout': NUM,
    '--testTimeout': NUM,
    '--test-timeout': NUM,
    '--slow': NUM,
    '--retries': NUM,
    '--forbid-only': FLAG,
    '--forbid-pending': FLAG,
    '--exit': FLAG,
    '--color': FLAG,
    '--colors': FLAG,
    '--no-color': FLAG,
    '--no-colors': FLAG,
    '--passWithNoTests': FLAG,
    '--runInBand': FLAG,
    '-i': FLAG,
    '--maxWorkers': NUM,
    '--ci': FLAG,
    '--no-watch': FLAG,
    '--watchAll=false': FLAG,
    '--project': TEXT,
    '--spec': { value: 'path' },
    '--config': { refuse: 'loads another configuration, which can run other code' },
    '-c': { refuse: 'loads another configuration, which can run other code' },
    '-u': REWRITES,
    '--update': REWRITES,
    '--updateSnapshot': REWRITES,
    '--update-snapshots': REWRITES,
    '--updateSnapshots': REWRITES,
    '--snapshot-update': REWRITES,
    '--update-snapshot': REWRITES,
    '--record': REWRITES,
    '--update-golden': REWRITES,
    '--accept': REWRITES,
    '--bless': REWRITES,
    '--snapshot': REWRITES,
    '-w': WATCHES,
    '--watch': WATCHES,
    '--watchAll': WATCHES,
  },
  positional: () => 'path',
  optionsAfterDashDash: true,
}));

const TEST = once((): Grammar => ({
  name: 'test',
  options: { '--silent': FLAG, '-s': FLAG, '--if-present': FLAG, '--ignore-scripts': FLAG },
  positional: () => null,
  afterDashDash: TEST_ARGS(),
  projectCode: true,
}));

/** `npm run test`: the script name must be exactly `test`. */
const NPM_RUN = once((): Grammar => ({
  name: 'run',
  options: TEST().options,
  subcommands: { test: TEST() },
  subcommandRequired: true,
}));

const NPM_GLOBALS: Record<string, OptionSpec> = {
  '--silent': FLAG,
  '-s': FLAG,
  '--quiet': FLAG,
  '-q': FLAG,
  '--loglevel': TEXT,
  '--color': TEXT,
  '--no-color': FLAG,
  '--prefix': { value: 'dir' },
  '--workspace': { value: 'path' },
  '-w': { value: 'path' },
  '--workspaces': FLAG,
  '--if-present': FLAG,
  '--version': { terminal: true },
  '-v': { terminal: true },
};

const npm = (): Grammar => ({
  name: 'npm',
  options: NPM_GLOBALS,
  subcommands: { test: TEST(), t: TEST(), tst: TEST(), run: NPM_RUN(), 'run-script': NPM_RUN() },
  subcommandRequired: true,
});

/** pnpm and yarn hand the words after `test` straight to the test script. */
const DIRECT_TEST = once((): Grammar => ({ ...TEST_ARGS(), name: 'test', projectCode: true }));
const DIRECT_RUN = once((): Grammar => ({
  name: 'run',
  options: {},
  subcommands: { test: DIRECT_TEST() },
  subcommandRequired: true,
}));

const pnpm = (): Grammar => ({
  name: 'pnpm',
  options: {
    '--silent': FLAG,
    '-s': FLAG,
    '-C': { value: 'dir' },
    '--dir': { value: 'dir' },
    '--filter': TEXT,
    '-F': TEXT,
    '-r': FLAG,
    '--recursive': FLAG,
    '--reporter': TEXT,
    '--version': { terminal: true },
    '-v': { terminal: true },
  },
  subcommands: { test: DIRECT_TEST(), t: DIRECT_TEST(), run: DIRECT_RUN() },
  subcommandRequired: true,
});

const yarn = (): Grammar => ({
  name: 'yarn',
  options: {
    '--silent': FLAG,
    '-s': FLAG,
    '--cwd': { value: 'dir' },
    '--version': { terminal: true },
    '-v': { terminal: true },
  },
  subcommands: { test: DIRECT_TEST(), run: DIRECT_RUN() },
  subcommandRequired: true,
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { npm, pnpm, yarn };
