/**
 * Whether `sed` on PATH is GNU sed (which has `--sandbox`). Its own module, with `node:child_process`
 * reached only when it is first asked: `planwise check-command` bundles this file, and loading
 * child_process (which loads net) would cost it about 6 ms on every run, sed or not.
 */
let sedIsGnu: boolean | undefined;

/** Asked once per process. */
export function gnuSed(): boolean {
  if (sedIsGnu === undefined) {
    const { spawnSync } = process.getBuiltinModule('node:child_process');
    const r = spawnSync('sed', ['--version'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
    sedIsGnu = r.status === 0 && /GNU sed/.test(r.stdout ?? '');
  }
  return sedIsGnu;
}

/**
 * This machine's safe modes for the gate, each found out only when read: the gate reads
 * `sedSandbox` only for a command that runs sed, so `sed --version` is never spawned otherwise.
 */
export const nodeSafeModes: { readonly sedSandbox: boolean } = {
  get sedSandbox() {
    return gnuSed();
  },
};
