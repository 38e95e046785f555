/**
 * Loads one of the CLI's command bundles, dist/cli/<name>.js, for the dispatcher (see scripts/cliBuild.mjs).
 *
 * Compiling a bundle is a good share of a short command's run (`check-command` holds the whole gate,
 * about 90 KB). So the bundle is compiled here with V8's code cache, kept in the user's own cache
 * folder (`$XDG_CACHE_HOME/planwise` or `~/.cache/planwise`, mode 0700), one file per bundle. The
 * build writes each bundle inside the CommonJS module wrapper, so its text compiles as read, and
 * ends it with `//planwise-bundle:<id>`, a hash of everything before it; the
 * cache is named by Node's version and that id, read from the very text being compiled: no stat of
 * the bundle is needed, and a bundle replaced by an upgrade (even mid-run) never meets an older
 * build's cache. The cache is written once, when the process exits, so it holds the functions that
 * run needed too, and only after the bundle's text was checked against its id; a run that only
 * showed its help or a usage error writes none. NODE_DISABLE_COMPILE_CACHE=1, a bundle without an
 * id, or a cache folder that cannot be made means a compile without a cache.
 *
 * This is so on every Node. Node ≥ 22.1 has a compile cache of its own (`module.enableCompileCache`),
 * but it loads `node:module` and Node's ESM loader, and it caches a script as compiled, before it
 * ran, so every function a command needs is compiled again on each run: on Node 22.23 a
 * `check-command -- ls` took 7.3 ms after the preload that way and 4.0 ms with this cache.
 */
import type * as Fs from 'node:fs';
import type * as Vm from 'node:vm';
import { EXIT_USAGE } from './io';

// Reached when a command loads, not at the dispatcher's start: `--version` needs none of them.
const builtin = process.getBuiltinModule;

/** The end of every command bundle: this mark, 16 hex digits and a newline (scripts/cliBuild.mjs). */
const ID_MARK = '//planwise-bundle:';
const ID_LENGTH = 16;

/** The bundle's id, and its text without the id line; undefined for a bundle that has none. */
function bundleId(source: string): { id: string; body: string } | undefined {
  const at = source.length - ID_MARK.length - ID_LENGTH - 1;
  if (at < 0 || !source.startsWith(ID_MARK, at) || source.charCodeAt(source.length - 1) !== 10) return undefined;
  const id = source.slice(at + ID_MARK.length, -1);
  return /^[0-9a-f]{16}$/.test(id) ? { id, body: source.slice(0, at) } : undefined;
}

export function loadBundle(name: string, distDir: string): unknown {
  // Plain strings, not node:path: each Node function a short command calls is compiled on its first
  // call, and the dispatcher's own folder needs no normalising.
  const sep = process.platform === 'win32' ? '\\' : '/';
  const file = `${distDir}${sep}cli${sep}${name}.js`;
  const cacheDir = process.env['NODE_DISABLE_COMPILE_CACHE'] ? undefined : cacheFolder(sep);
  return loadWithCodeCache(file, name, cacheDir, sep);
}

/** Where this Node's code caches go; made (mode 0700) only when a cache is written. */
function cacheFolder(sep: string): string {
  // os.homedir() reads $HOME first as well: node:os (0.4 ms to load) only when it is unset.
  const home = process.env['HOME'] || builtin('node:os').homedir();
  const base = process.env['XDG_CACHE_HOME'] || `${home}${sep}.cache`;
  return `${base}${sep}planwise${sep}v8-${process.version}-${process.arch}`;
}

/** Compiles and runs the bundle at `file`, with its code cache in `cacheDir` (undefined: none). */
function loadWithCodeCache(file: string, name: string, cacheDir: string | undefined, sep: string): unknown {
  const fs = builtin('node:fs');
  const vm = builtin('node:vm');
  // Read by its path, which Node reads and decodes in one call (through a descriptor it takes
  // several, ~0.5 ms more).
  const source = fs.readFileSync(file, 'utf8');
  const id = bundleId(source);
  const cacheFile = id && cacheDir !== undefined ? `${cacheDir}${sep}${name}-${id.id}.bin` : undefined;
  let cachedData: Uint8Array | undefined;
  try {
    cachedData = cacheFile ? readCache(fs, cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  // The file's text is the module wrapper (scripts/cliBuild.mjs), so it compiles as read.
  const script = new vm.Script(source, { filename: file, cachedData });
  if (cacheFile !== undefined && (!cachedData || script.cachedDataRejected))
    process.once('exit', (code) => {
      if (representative(code) && matches(source)) writeCache(script, name, cacheFile, sep);
    });
  const mod = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, bundleRequire(file), mod, file, file.slice(0, file.lastIndexOf(sep)));
  return mod.exports;
}

/** Room for a command's whole cache in one read; `check-command`'s is about 80 KB. */
const CACHE_READ_BYTES = 1 << 20;

/**
 * The cache file's bytes, read into a plain Uint8Array: `readFileSync` to a Buffer first stats the
 * file and takes a Buffer from Node's pool, nine functions that Node compiles on their first call
 * (about 0.45M instructions of a 99M `check-command -- ls`), where this takes four. A larger file
 * is read whole after all.
 */
function readCache(fs: typeof Fs, file: string): Uint8Array {
  const fd = fs.openSync(file, 'r');
  try {
    const bytes = new Uint8Array(CACHE_READ_BYTES);
    const n = fs.readSync(fd, bytes, 0, CACHE_READ_BYTES, 0);
    return n < CACHE_READ_BYTES ? bytes.subarray(0, n) : fs.readFileSync(file);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whether the bundle's text is what its id says, checked once, before its cache is written: an id
 * left on an edited bundle must not name a cache that later runs of the real build would read.
 */
function matches(source: string): boolean {
  const id = bundleId(source);
  return (
    id !== undefined &&
    builtin('node:crypto').createHash('sha256').update(id.body).digest('hex').slice(0, ID_LENGTH) === id.id
  );
}

/**
 * Whether this run's compiled code is worth keeping. A run that only printed its help or a usage
 * error ran a small part of the bundle (`check-command --help` left a 53 KB cache, `-- ls` an
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
function writeCache(script: Vm.Script, name: string, cacheFile: string, sep: string): void {
  const fs = builtin('node:fs');
  const cacheDir = cacheFile.slice(0, cacheFile.lastIndexOf(sep));
  try {
    fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const own = cacheFile.slice(cacheDir.length + 1);
    for (const f of fs.readdirSync(cacheDir)) {
      if (f.startsWith(`${name}-`) && f !== own) fs.rmSync(`${cacheDir}${sep}${f}`, { force: true });
    }
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, cacheFile);
  } catch {
    // No cache this time.
  }
}
