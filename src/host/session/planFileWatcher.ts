/**
 * Watches the workspace for plan files and their revisions: a created, changed or deleted plan
 * (or its tracker file) is handed to the plans' owner, which re-reads it; a plan or history entry
 * asks for the lenses again and rechecks whether any plan exists (the
 * `planwise.hasPlan` context key), as does a change of workspace folders. Written against
 * structural copies of VS Code's watcher API.
 */
interface Sub {
  dispose(): unknown;
}

export interface WatcherLike extends Sub {
  onDidCreate(listener: (uri: { fsPath: string }) => void): Sub;
  onDidChange(listener: (uri: { fsPath: string }) => void): Sub;
  onDidDelete(listener: (uri: { fsPath: string }) => void): Sub;
}

export interface PlanFileWatcherDeps {
  /** A watcher over `**\/*.md`. */
  readonly watcher: WatcherLike;
  readonly onDidChangeWorkspaceFolders: (listener: () => void) => Sub;
  /** A folder is open (with none, nothing is a plan). */
  readonly hasFolder: () => boolean;
  /** A plan file of the plans folder. */
  readonly isPlanFile: (path: string) => boolean;
  /** Whether any plan exists on disk now. */
  readonly anyPlan: () => Promise<boolean>;
  readonly lensesChanged: () => void;
  /**
   * A plan file or its tracker file (`<stem>.tasks.md`) was written: another tool may have changed
   * it. True when the plans' owner re-reads it, and so asks for the lenses itself if it changed.
   */
  readonly planChanged?: (file: string) => boolean;
  readonly onPlansOnDisk: (any: boolean) => void;
}

const REVISION = /\.history[\\/]\d+\.md$/;
const TRACKER = /\.tasks\.md$/;

export function watchPlanFiles(deps: PlanFileWatcherDeps): { dispose(): void; recheck(): Promise<void> } {
  const recheck = async () => {
    let any: boolean;
    try {
      any = await deps.anyPlan();
    } catch {
      any = false;
    }
    deps.onPlansOnDisk(any);
  };
  const onChange = (uri: { fsPath: string }) => {
    if (!deps.hasFolder()) return;
    const plan = deps.isPlanFile(uri.fsPath);
    let followed = false;
    if (plan || (TRACKER.test(uri.fsPath) && deps.isPlanFile(uri.fsPath.replace(TRACKER, '.md')))) {
      followed = deps.planChanged?.(uri.fsPath) ?? false;
    }
    if (!(plan || REVISION.test(uri.fsPath))) return;
    // A write the plans' owner already knows (its own) asks for nothing: VS Code would wait again
    // before drawing the lenses it has just been asked for.
    if (!(plan && followed)) deps.lensesChanged();
    void recheck();
  };
  const subs: Sub[] = [
    deps.watcher,
    deps.watcher.onDidCreate(onChange),
    deps.watcher.onDidChange(onChange),
    deps.watcher.onDidDelete(onChange),
    deps.onDidChangeWorkspaceFolders(() => void recheck()),
  ];
  void recheck();
  return { dispose: () => subs.forEach((s) => s.dispose()), recheck };
}
