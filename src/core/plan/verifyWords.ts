/**
 * The words the verify rules know (rules §3): programs a check may start with, command words that
 * are also English, programs that change or fetch, shells and interpreters, and git's subcommands
 * that change a repository, and the programs that check (which the runloop's guards count as
verification). Data only; `verifyCommand.ts` and the guards judge with it.
 */

/** Programs a verification command may start with. */
export const COMMAND_WORDS: ReadonlySet<string> = new Set([
  // JavaScript and TypeScript
  'npm',
  'pnpm',
  'yarn',
  'npx',
  'node',
  'tsc',
  'tsx',
  'mocha',
  'jest',
  'vitest',
  'playwright',
  'cypress',
  'eslint',
  'prettier',
  'deno',
  'bun',
  // Rust, Go, C and build systems
  'cargo',
  'rustc',
  'rustfmt',
  'clippy',
  'nextest',
  'go',
  'gofmt',
  'make',
  'cmake',
  'ctest',
  'meson',
  'ninja',
  'just',
  'bazel',
  'gradle',
  'gradlew',
  'mvn',
  'dotnet',
  // Python, Ruby, PHP, Swift, Zig, Elixir
  'pytest',
  'python',
  'python3',
  'uv',
  'poetry',
  'tox',
  'nox',
  'ruff',
  'mypy',
  'black',
  'flake8',
  'ruby',
  'rspec',
  'bundle',
  'rake',
  'php',
  'phpunit',
  'composer',
  'swift',
  'swiftlint',
  'xcodebuild',
  'zig',
  'mix',
  // inspection
  'rg',
  'grep',
  'egrep',
  'fgrep',
  'sed',
  'awk',
  'head',
  'tail',
  'wc',
  'ls',
  'cat',
  'cut',
  'file',
  'find',
  'sort',
  'uniq',
  'stat',
  'tr',
  'diff',
  'jq',
  'git',
  'shellcheck',
  'ast-grep',
  'sg',
  'planwise',
  'vsce',
]);

/**
 * Command words that are also English words: they count as a command only with a flag or a path
 * after them (`ls src/`, `wc -l README.md`), never as prose (`make sense`, `find files`).
 */
export const ENGLISH_WORDS: ReadonlySet<string> = new Set([
  'cat',
  'cut',
  'diff',
  'file',
  'find',
  'head',
  'tail',
  'just',
  'ls',
  'make',
  'sort',
  'stat',
  'tr',
  'uniq',
  'wc',
]);

/** A real use of each English command word, shown when the entry uses it as a word. */
export const ENGLISH_EXAMPLES: Readonly<Record<string, string>> = {
  cat: 'cat package.json',
  cut: 'cut -d, -f1 data.csv',
  diff: 'diff old.txt new.txt',
  file: 'file src/main.rs',
  find: "find src -name '*.ts'",
  head: 'head -40 README.md',
  tail: 'tail -20 build.log',
  just: 'just --list',
  ls: 'ls src/',
  make: 'make -f Makefile test',
  sort: 'sort -u names.txt',
  stat: 'stat src/',
  tr: "tr -d '\\r' < a.txt",
  uniq: 'uniq -c words.txt',
  wc: 'wc -l README.md',
};

/** What a tool named alone might run, for the refusal's example. */
export const RUN_EXAMPLES: Readonly<Record<string, string>> = {
  npm: 'npm test',
  pnpm: 'pnpm test',
  yarn: 'yarn test',
  npx: 'npx tsc --noEmit',
  node: 'node scripts/check.js',
  cargo: 'cargo test',
  go: 'go test ./...',
  pytest: 'pytest tests/',
  python: 'python -m pytest',
  python3: 'python3 -m pytest',
};

/** Programs that delete, rewrite or take over the machine: never a check. */
export const DESTRUCTIVE: ReadonlyMap<string, string> = new Map([
  ['rm', 'deletes files'],
  ['rmdir', 'deletes folders'],
  ['shred', 'destroys files'],
  ['unlink', 'deletes files'],
  ['dd', 'writes raw bytes to files or devices'],
  ['mkfs', 'formats a disk'],
  ['truncate', 'empties files'],
  ['mv', 'moves files'],
  ['cp', 'overwrites files'],
  ['chmod', 'changes file permissions'],
  ['chown', 'changes file owners'],
  ['kill', 'stops processes'],
  ['pkill', 'stops processes'],
  ['killall', 'stops processes'],
  ['sudo', 'runs a command as another user'],
  ['su', 'runs a command as another user'],
  ['eval', 'runs text as a command'],
  ['exec', 'replaces the shell'],
  ['source', 'runs a script in the shell'],
  ['curl', 'fetches from the network'],
  ['sh', 'starts a shell; run the script itself (./scripts/check.sh) or the command'],
  ['bash', 'starts a shell; run the script itself (./scripts/check.sh) or the command'],
  ['zsh', 'starts a shell; run the script itself (./scripts/check.sh) or the command'],
  ['wget', 'fetches from the network'],
]);

/** Programs a pipe may not feed: the fetched or printed text would run as code. */
export const INTERPRETERS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
  'xargs',
  'source',
  'eval',
]);

/** Git subcommands that change the repository, the work tree or a remote. */
export const GIT_MUTATING: ReadonlySet<string> = new Set([
  'add',
  'am',
  'apply',
  'branch',
  'checkout',
  'cherry-pick',
  'clean',
  'clone',
  'commit',
  'config',
  'fetch',
  'gc',
  'init',
  'merge',
  'mv',
  'notes',
  'prune',
  'pull',
  'push',
  'rebase',
  'remote',
  'reset',
  'restore',
  'revert',
  'rm',
  'stash',
  'submodule',
  'switch',
  'tag',
  'update-ref',
  'worktree',
]);

/**
 * Programs that compile, test, lint or type-check: the runloop counts a shell call that runs one
 * (or one of the subcommands or package scripts below) as verification, not navigation.
 */
export const CHECKING_PROGRAMS: ReadonlySet<string> = new Set([
  'tsc',
  'eslint',
  'jest',
  'vitest',
  'mocha',
  'pytest',
  'tox',
  'mypy',
  'pyright',
  'ruff',
  'rspec',
  'phpunit',
  'ctest',
  'clippy-driver',
]);
/** The subcommands that check, for programs that have subcommands. */
export const CHECKING_SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  cargo: new Set(['test', 'check', 'clippy', 'build', 'nextest']),
  go: new Set(['test', 'vet', 'build']),
  npm: new Set(['test', 't']),
  pnpm: new Set(['test', 't']),
  yarn: new Set(['test']),
  make: new Set(['test', 'check', 'build', 'lint']),
  mvn: new Set(['test', 'verify', 'compile']),
  gradle: new Set(['test', 'build', 'check']),
  dotnet: new Set(['test', 'build']),
};
/** Package scripts that check (`npm run test:unit`, `yarn typecheck`). */
export const CHECKING_SCRIPTS = /^(test|build|lint|check|typecheck|type-check|compile|verify)(:.*)?$/;
