/**
 * The one typed accessor of Planwise's settings and the one `onDidChangeConfiguration`
 * subscription. Also keeps `files.exclude` (per workspace folder) for listings.
 */
import * as vscode from 'vscode';
import {
  CONFIG_SECTION,
  readPlansDirectory,
  readSettings,
  type PlanwiseSettings,
  type ReadSettings,
  type SettingGetter,
  type SettingKey,
  type SettingProblem,
} from './config';
import { compileFilesExclude, type ExcludeMatcher } from './adapters/filesExclude';

export class ConfigService implements vscode.Disposable {
  /** Read on first use: activation needs only `plansDirectory` (1-2 ms of parsing in a CPU profile). */
  private read: ReadSettings | undefined;
  private exclude: ExcludeMatcher | undefined;
  private readonly emitter = new vscode.EventEmitter<PlanwiseSettings>();
  private readonly sub: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor(private readonly onProblems: (problems: readonly SettingProblem[]) => void) {
    this.sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('files.exclude')) this.exclude = undefined;
      if (!e.affectsConfiguration(CONFIG_SECTION)) return;
      const before = this.read && JSON.stringify(this.read.problems);
      this.read = undefined;
      const now = this.current();
      if (now.problems.length > 0 && JSON.stringify(now.problems) !== before) this.onProblems(now.problems);
      this.emitter.fire(now.settings);
    });
  }

  get settings(): PlanwiseSettings {
    return this.current().settings;
  }

  /** Problems with the current settings (a bad value was replaced by its default). */
  get settingProblems(): readonly SettingProblem[] {
    return this.current().problems;
  }

  /** `plansDirectory`, without reading the other settings when they have not been read yet. */
  get plansDirectory(): string {
    return this.read ? this.read.settings.plansDirectory : readPlansDirectory(sectionGetter());
  }

  /** `files.exclude` of the first workspace folder, compiled once per change. */
  get filesExclude(): ExcludeMatcher {
    this.exclude ??= compileFilesExclude(
      vscode.workspace
        .getConfiguration('files', vscode.workspace.workspaceFolders?.[0]?.uri)
        .get<Record<string, unknown>>('exclude'),
    );
    return this.exclude;
  }

  /** Writes a setting where it is defined now (the workspace when it overrides it, else the user settings). */
  async update(key: SettingKey, value: unknown): Promise<void> {
    const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
    const inspect = config.inspect(key);
    const target =
      inspect?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await config.update(key, value, target);
  }

  /**
   * "Always allow" from a command question: adds `entry` to `planwise.buildCommandAllowList` in
   * the workspace's settings (kept once; the workspace's own entries are kept).
   */
  async addToAllowList(entry: string): Promise<void> {
    const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
    const now = config.inspect<unknown>('buildCommandAllowList')?.workspaceValue;
    const list = Array.isArray(now) ? now.filter((e): e is string => typeof e === 'string') : [];
    if (list.includes(entry)) return;
    await config.update('buildCommandAllowList', [...list, entry], vscode.ConfigurationTarget.Workspace);
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }

  private current(): ReadSettings {
    this.read ??= readSettings(sectionGetter());
    return this.read;
  }
}

/** Planwise's settings as they are now, one key at a time. */
function sectionGetter(): SettingGetter {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  return (key) => config.get(key);
}
