/**
 * Loads one of the CLI's command bundles, dist/cli/<name>.js, for the dispatcher (see esbuild.mjs).
 *
 * Compiling a bundle is a good share of a short command's run (`check-command` holds the whole gate,
 * about 90 KB). So the bundle is compiled here with V8's code cache, kept in the user's own cache
 * folder (`$XDG_CACHE_HOME/planwise` or `~/.cache/planwise`, mode 0700), one file per bundle, keyed
 * by Node's version and the bundle's size, mtime and inode. The cache is written once, when the
 * process exits, so it holds the functions that run needed too; a run that only showed its help or
 * a usage error writes none. NODE_DISABLE_COMPILE_CACHE=1 means a plain require; a cache folder
 * that cannot be made means a compile without a cache, every run.
 *
 * This is so on every Node. Node ≥ 22.1 has a compile cache of its own (`module.enableCompileCache`),
 * but it loads `node:module` and Node's ESM loader, and it caches a script as compiled, before it
 * ran, so every function a command needs is compiled again on each run: on Node 22.23 a
 * `check-command -- ls` took 7.3 ms after the preload that way and 4.0 ms with this cache.
 */
import type * as Vm from 'node:vm';
import { EXIT_USAGE } from './io';

// Reached when a command loads, not at the dispatcher's start: `--version` needs none of them.
const builtin = process.getBuiltinModule;

const plainRequire = (file: string): unknown => builtin('node:module').createRequire(file)(file);

export function loadBundle(name: string, distDir: string): unknown {
  const path = builtin('node:path');
  const file = path.join(distDir, 'cli', `${name}.js`);
  if (process.env['NODE_DISABLE_COMPILE_CACHE']) return plainRequire(file);
  return loadWithCodeCache(file, name, cacheFolder());
}

/** Where this Node's code caches go; made (mode 0700) only when a cache is written. */
function cacheFolder(): string {
  const path = builtin('node:path');
  // os.homedir() reads $HOME first as well: node:os (0.4 ms to load) only when it is unset.
  const home = process.env['HOME'] || builtin('node:os').homedir();
  const base = process.env['XDG_CACHE_HOME'] || path.join(home, '.cache');
  return path.join(base, 'planwise', `v8-${process.version}-${process.arch}`);
}

function loadWithCodeCache(file: string, name: string, cacheDir: string): unknown {
  const [fs, path, vm] = [builtin('node:fs'), builtin('node:path'), builtin('node:vm')];
  // The source is read by its path, which Node reads and decodes in one call (through a descriptor
  // it takes several, ~0.5 ms more). The cache's key (size, mtime, inode) is stated before and
  // after: a bundle replaced in between (an upgrade) is compiled afresh and no cache is written.
  const key = (st: { size: number; mtimeMs: number; ino: number }) => `${st.size}-${Math.trunc(st.mtimeMs)}-${st.ino}`;
  const before = key(fs.statSync(file));
  const source = fs.readFileSync(file, 'utf8');
  const stable = key(fs.statSync(file)) === before;
  const cacheFile = path.join(cacheDir, `${name}-${before}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = stable ? fs.readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  if (stable && (!cachedData || script.cachedDataRejected))
    process.once('exit', (code) => {
      if (representative(code)) writeCache(script, cacheDir, name, cacheFile);
    });
  const mod = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, bundleRequire(file), mod, file, path.dirname(file));
  return mod.exports;
}

/**
 * Whether this run's compiled code is worth keeping. A run that only printed its help or a usage
 * error ran a small part of the bundle (`check-command --help` leaves a 53 KB cache, `-- ls` an
 * 86 KB one), and as the cache is written once, every later run would compile the rest again.
 */
function representative(exitCode: number): boolean {
  if (exitCode === EXIT_USAGE) return false;
  const args = process.argv.slice(3);
  const end = args.indexOf('--');
  return !(end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * The `require` a command bundle is given. esbuild bundles every package into it, so it asks only
 * for Node's builtins, which come straight from the process; anything else goes through a real
 * `require` of the bundle's folder.
 */
function bundleRequire(file: string): (id: string) => unknown {
  let fallback: ((id: string) => unknown) | undefined;
  return (id) => (builtin(id as 'node:fs') as unknown) ?? (fallback ??= builtin('node:module').createRequire(file))(id);
}

/** Replaces this bundle's older cache files; a failure only means the next run compiles again. */
function writeCache(script: Vm.Script, cacheDir: string, name: string, cacheFile: string): void {
  const [fs, path] = [builtin('node:fs'), builtin('node:path')];
  try {
    fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    for (const f of fs.readdirSync(cacheDir)) {
      if (f.startsWith(`${name}-`) && f !== path.basename(cacheFile))
        fs.rmSync(path.join(cacheDir, f), { force: true });
    }
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, cacheFile);
  } catch {
    // No cache this time.
  }
}
