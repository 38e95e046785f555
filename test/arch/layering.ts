/** The import rules of ARCHITECTURE.md, as a function the test runs over the real tree. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

const IMPORT_RE =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

const CORE_BANNED = new Set([
  'vscode',
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'child_process',
  'node:child_process',
]);
/** npm packages the webview bundle may use (UI libraries only; never host or engine code). */
const WEBVIEW_PACKAGES = /^(preact|preact\/.*|marked|dompurify|@vscode\/webview-ui-toolkit(\/.*)?|zod(\/.*)?)$/;
/** The deprecated toolkit stays inside webview/ui/, the one folder a later swap would touch. */
const TOOLKIT = /^@vscode\/webview-ui-toolkit(\/.*)?$/;

/** Who may import the panel's view model (`src/protocol/viewModel`, `src/host/panel/hub`). */
const VIEW_MODEL_READERS = ['src/host/panel/', 'src/host/composition.ts', 'src/host/session/controller.ts'];

/**
 * Hosts (`src/host`, `src/cli`, `src/node`, `src/extension.ts`) reach the engine only through its
 * facades, the modules of this folder, which only re-export.
 */
export const CORE_FACADES = 'src/core/api';

/** A facade's text without comments: `export … from '…';` statements and nothing else. */
const REEXPORTS_ONLY = /^(\s*export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+'[^']+';)*\s*$/;
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/**
 * Host files allowed to import engine modules directly while their owner's rewrite is in progress,
 * each with why (empty: every host file goes through the facades). A test fails for an entry
 * that is no longer needed.
 */
export const CORE_IMPORT_ALLOWANCES: Readonly<Record<string, string>> = {};

/** True for a module directly inside the facades' folder. */
const isFacade = (target: string) =>
  target.startsWith(`${CORE_FACADES}/`) && !target.slice(CORE_FACADES.length + 1).includes('/');

function isHostFile(path: string): boolean {
  return (
    path === 'src/extension.ts' ||
    path.startsWith('src/host/') ||
    path.startsWith('src/cli/') ||
    path.startsWith('src/node/')
  );
}

export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  return out;
}

/** True when `target` is the folder `dir` itself or a path inside it. */
function within(target: string, dir: string): boolean {
  return target === dir || target.startsWith(`${dir}/`);
}

export function findLayeringViolations(
  files: readonly SourceFile[],
  resolve: (from: string, spec: string) => string,
): string[] {
  const out: string[] = [];
  for (const f of files) {
    if (isFacade(f.path.replace(/\.ts$/, '')) && !REEXPORTS_ONLY.test(withoutComments(f.text))) {
      out.push(`${f.path}: a facade only re-exports engine modules (export … from '…')`);
    }
    for (const spec of importsOf(f.text)) {
      const relative = spec.startsWith('.');
      const target = relative ? resolve(f.path, spec) : spec;
      if (TOOLKIT.test(spec) && !f.path.startsWith('webview/ui/')) {
        out.push(`${f.path}: only webview/ui/ may import '${spec}'; use the wrappers in webview/ui/`);
      }
      if (f.path.startsWith('src/core/')) {
        if (CORE_BANNED.has(spec)) out.push(`${f.path}: src/core must not import '${spec}'`);
        if (relative && !within(target, 'src/core')) out.push(`${f.path}: src/core must not import ${target}`);
      } else if (isHostFile(f.path) && relative) {
        if (within(target, 'src/core') && !isFacade(target) && !(f.path in CORE_IMPORT_ALLOWANCES)) {
          out.push(`${f.path}: hosts import the engine only through its facades in src/core/api/ (found ${target})`);
        }
        if (f.path.startsWith('src/node/') && (within(target, 'src/host') || within(target, 'src/cli'))) {
          out.push(`${f.path}: src/node must not import ${target}`);
        }
        if (f.path.startsWith('src/cli/') && (within(target, 'src/host') || target === 'src/extension')) {
          out.push(`${f.path}: src/cli must not import ${target}`);
        }
        // The panel's view model is the panel's projection: the CLI and the Node adapters never read
        // it, and in VS Code only the panel, the session controller that feeds it and the
        // composition root do.
        if (
          (target === 'src/protocol/viewModel' || target === 'src/host/panel/hub') &&
          !VIEW_MODEL_READERS.some((r) => (r.endsWith('/') ? f.path.startsWith(r) : f.path === r))
        ) {
          out.push(`${f.path}: only the panel may import its view model (found ${target})`);
        }
        if ((f.path.startsWith('src/cli/') || f.path.startsWith('src/node/')) && within(target, 'src/protocol')) {
          out.push(`${f.path}: the panel's protocol is not for ${f.path.split('/')[1]} (found ${target})`);
        }
      } else if (f.path.startsWith('webview/')) {
        if (relative ? !(within(target, 'webview') || within(target, 'src/protocol')) : !WEBVIEW_PACKAGES.test(spec)) {
          out.push(`${f.path}: webview/ may import only webview/ and src/protocol (found '${spec}')`);
        }
      } else if (f.path.startsWith('src/protocol/')) {
        if (relative ? !within(target, 'src/protocol') : !/^zod(\/.*)?$/.test(spec)) {
          out.push(`${f.path}: src/protocol may import only zod and itself (found '${spec}')`);
        }
      }
    }
  }
  return out;
}
