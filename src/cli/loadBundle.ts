/**
 * Loads one of the CLI's command bundles, dist/cli/<name>.js, for the dispatcher (see esbuild.mjs).
 *
 * Compiling a bundle is a good share of a short command's run (`check-command` holds the whole gate,
 * about 90 KB). Node ≥ 22.1 keeps V8's compiled code on disk itself (`module.enableCompileCache`);
 * on older Nodes the bundle is compiled here with V8's code cache, kept in the user's own cache
 * folder (`$XDG_CACHE_HOME/planwise` or `~/.cache/planwise`, mode 0700), one file per bundle, keyed
 * by Node's version and the bundle's size, mtime and inode. The cache is written once, when the
 * process exits, so it holds the functions that run needed too. NODE_DISABLE_COMPILE_CACHE=1 means a
 * plain require; a cache folder that cannot be made means a compile without a cache, every run.
 */
import type * as Vm from 'node:vm';

// Reached when a command loads, not at the dispatcher's start: `--version` needs none of them.
const builtin = process.getBuiltinModule;

type EnableCompileCache = () => { status: number } | undefined;

/**
 * Node's own compile cache, where there is one (Node ≥ 22.1). Told by the version rather than by
 * loading `node:module` to look: that builtin brings Node's ESM loader with it (0.3-0.4 ms of a
 * `check-command` run that otherwise needs neither).
 */
function nodeCompileCache(): EnableCompileCache | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 1)) return undefined;
  return (builtin('node:module') as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
}

const plainRequire = (file: string): unknown => builtin('node:module').createRequire(file)(file);

export function loadBundle(name: string, distDir: string): unknown {
  const path = builtin('node:path');
  const file = path.join(distDir, 'cli', `${name}.js`);
  const enable = nodeCompileCache();
  if (enable || process.env['NODE_DISABLE_COMPILE_CACHE']) {
    enable?.();
    return plainRequire(file);
  }
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
  // One open for the cache's key (size, mtime, inode) and the source.
  const fd = fs.openSync(file, 'r');
  let source: string;
  let cacheFile: string;
  try {
    const st = fs.fstatSync(fd);
    cacheFile = path.join(cacheDir, `${name}-${st.size}-${Math.trunc(st.mtimeMs)}-${st.ino}.bin`);
    source = fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  if (!cachedData || script.cachedDataRejected)
    process.once('exit', () => writeCache(script, cacheDir, name, cacheFile));
  const mod = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, bundleRequire(file), mod, file, path.dirname(file));
  return mod.exports;
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
