/**
 * The environment commands run with. Agent-run commands (`exec_command`, `run_command`, verify)
 * must never see credentials: a read-only `env` or `jq -n env` would otherwise hand the API key
 * to the model, its transcript and the session archive.
 */

/** Names that hold credentials by convention. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)/i;
/**
 * Shell start-up hooks: a file bash runs before every `-c` command (`BASH_ENV`, `ENV`) and
 * exported functions, which would replace a program the gate judged (`cat() { …; }`).
 */
const SHELL_HOOK = /^(BASH_ENV|ENV|BASH_FUNC_.*)$/;

export function scrubbedEnv(
  env: Readonly<Record<string, string | undefined>>,
  alsoRemove: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  const extra = new Set(alsoRemove);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || extra.has(name) || SECRET_NAME.test(name) || SHELL_HOOK.test(name)) continue;
    out[name] = value;
  }
  return out;
}
