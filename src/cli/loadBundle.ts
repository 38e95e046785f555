/**
 * Loads one of the CLI's command bundles, dist/cli/<name>.js, for the dispatcher (see esbuild.mjs).
 *
 * Compiling a bundle is a good share of a short command's run (`check-command` holds the whole gate,
 * about 90 KB). Node ≥ 22.1 keeps V8's compiled code on disk itself (`module.enableCompileCache`);
 * on older Nodes the bundle is compiled here with V8's code cache, kept in the user's own cache
 * folder (`$XDG_CACHE_HOME/planwise` or `~/.cache/planwise`, mode 0700), one file per bundle, keyed
 * by Node's version and the bundle's size, mtime and inode. The cache is written once, when the
 * process exits, so it holds the functions that run needed too. NODE_DISABLE_COMPILE_CACHE=1, or a
 * cache folder that cannot be made, means a plain require.
 */
import type * as Vm from 'node:vm';

// Reached when a command loads, not at the dispatcher's start: `--version` needs none of them.
const builtin = process.getBuiltinModule;

type EnableCompileCache = () => { status: number } | undefined;

export function loadBundle(name: string, distDir: string): unknown {
  const path = builtin('node:path');
  const nodeModule = builtin('node:module');
  const file = path.join(distDir, 'cli', `${name}.js`);
  const enable = (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (enable || process.env['NODE_DISABLE_COMPILE_CACHE']) {
    enable?.();
    return nodeModule.createRequire(file)(file) as unknown;
  }
  const cacheDir = cacheFolder();
  if (!cacheDir) return nodeModule.createRequire(file)(file) as unknown;
  return loadWithCodeCache(file, name, cacheDir);
}

function cacheFolder(): string | undefined {
  const [fs, os, path] = [builtin('node:fs'), builtin('node:os'), builtin('node:path')];
  const base = process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
  const dir = path.join(base, 'planwise', `v8-${process.version}-${process.arch}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return undefined;
  }
}

function loadWithCodeCache(file: string, name: string, cacheDir: string): unknown {
  const [fs, path, vm, nodeModule] = [
    builtin('node:fs'),
    builtin('node:path'),
    builtin('node:vm'),
    builtin('node:module'),
  ];
  const st = fs.statSync(file);
  const cacheFile = path.join(cacheDir, `${name}-${st.size}-${Math.trunc(st.mtimeMs)}-${st.ino}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = fs.readFileSync(file, 'utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  if (!cachedData || script.cachedDataRejected)
    process.once('exit', () => writeCache(script, cacheDir, name, cacheFile));
  const mod = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, nodeModule.createRequire(file), mod, file, path.dirname(file));
  return mod.exports;
}

/** Replaces this bundle's older cache files; a failure only means the next run compiles again. */
function writeCache(script: Vm.Script, cacheDir: string, name: string, cacheFile: string): void {
  const [fs, path] = [builtin('node:fs'), builtin('node:path')];
  try {
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
