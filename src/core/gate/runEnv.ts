/**
 * The environment every gate-admitted command runs with (rules §1.1 steps 9 and 10), computed
 * once: it is `ParsedCommand.env`, which `check-command` shows and the runners use, so the audit
 * and the run cannot differ. What each program reads and why each entry is here:
 * `grammar/CONFIG_AUDIT.md`.
 *
 * A value of `undefined` removes the variable; a name ending in `*` with `undefined` removes every
 * variable with that prefix (the runner applies those before the rest).
 */

/**
 * Configuration given to git on its command line (`GIT_CONFIG_COUNT`), which outranks every
 * configuration file, the repository's own included: no hooks, no file-system monitor, no
 * signature programs, no network, no nested repositories entered.
 */
export const GIT_SETTINGS: readonly (readonly [key: string, value: string])[] = [
  // A git directory found by walking up (a bare repository, or one with `commondir`) is refused.
  ['safe.bareRepository', 'explicit'],
  // Hooks (post-index-change when a stale index is refreshed) and the fsmonitor hook.
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  // Signatures are checked only when asked, and by a program that does nothing.
  ['log.showSignature', 'false'],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  // No transport at all: a lazy fetch in a partial clone would otherwise run ssh, an upload-pack
  // program or a proxy command named by the repository.
  ['protocol.allow', 'never'],
  ['core.sshCommand', 'false'],
  ['core.askPass', 'false'],
  ['credential.helper', ''],
  ['core.alternateRefsCommand', 'true'],
  // Output goes to a pipe; never a pager or an editor.
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  // A submodule's own repository is not entered: its configuration could name a filter program.
  ['diff.ignoreSubmodules', 'all'],
  ['submodule.recurse', 'false'],
  ['status.submoduleSummary', 'false'],
];

function gitConfigEnv(): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(GIT_SETTINGS.length) };
  GIT_SETTINGS.forEach(([key, value], n) => {
    env[`GIT_CONFIG_KEY_${n}`] = key;
    env[`GIT_CONFIG_VALUE_${n}`] = value;
  });
  return env;
}

/**
 * Variables programs on the allow-list read as configuration or as extra arguments, removed
 * (each one's entry in `grammar/CONFIG_AUDIT.md`).
 */
const PROGRAM_CONFIG = [
  'RIPGREP_CONFIG_PATH',
  'GREP_OPTIONS',
  'GREP_COLOR',
  'GREP_COLORS',
  'BAT_CONFIG_DIR',
  'BAT_CACHE_PATH',
  'BAT_PAGER',
  'BAT_OPTS',
  'BAT_STYLE',
  'BAT_THEME',
  'BAT_TABS',
  'LESSOPEN',
  'LESSCLOSE',
  'LESS',
  'MAGIC',
  'POSIXLY_CORRECT',
  '_POSIX2_VERSION',
  'TAR_OPTIONS',
  'GCONV_PATH',
  'LOCPATH',
  'NLSPATH',
] as const;

/** Shell variables that would make the shell read the command differently from the gate. */
const SHELL_READING = ['CDPATH', 'GLOBIGNORE', 'IFS', 'BASHOPTS', 'SHELLOPTS'] as const;

function build(): Readonly<Record<string, string | undefined>> {
  const env: Record<string, string | undefined> = { 'GIT_*': undefined };
  for (const name of [...SHELL_READING, ...PROGRAM_CONFIG]) env[name] = undefined;
  return Object.freeze({
    ...env,
    // The gate expanded globs byte by byte, as the C locale does.
    LC_ALL: 'C',
    PAGER: 'cat',
    // bat reads this file instead of the person's configuration: an empty one.
    BAT_CONFIG_PATH: '/dev/null',
    GIT_PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    ...gitConfigEnv(),
  });
}

/** The environment changes of every gate-admitted command (see the file comment). */
export const GATE_RUN_ENV: Readonly<Record<string, string | undefined>> = build();
