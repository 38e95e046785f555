/**
 * The one typed accessor of Planwise's settings and the one `onDidChangeConfiguration`
 * subscription. Also keeps `files.exclude` (per workspace folder) for listings.
 */
import * as vscode from 'vscode';
import { CONFIG_SECTION, readSettings, type PlanwiseSettings, type SettingKey, type SettingProblem } from './config';
import { compileFilesExclude, type ExcludeMatcher } from './adapters/filesExclude';

export class ConfigService implements vscode.Disposable {
  private current: PlanwiseSettings;
  private problems: readonly SettingProblem[];
  private exclude: ExcludeMatcher | undefined;
  private readonly emitter = new vscode.EventEmitter<PlanwiseSettings>();
  private readonly sub: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor(private readonly onProblems: (problems: readonly SettingProblem[]) => void) {
    ({ settings: this.current, problems: this.problems } = this.read());
    this.sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('files.exclude')) this.exclude = undefined;
      if (!e.affectsConfiguration(CONFIG_SECTION)) return;
      const before = JSON.stringify(this.problems);
      ({ settings: this.current, problems: this.problems } = this.read());
      if (this.problems.length > 0 && JSON.stringify(this.problems) !== before) this.onProblems(this.problems);
      this.emitter.fire(this.current);
    });
  }

  get settings(): PlanwiseSettings {
    return this.current;
  }

  /** Problems with the current settings (a bad value was replaced by its default). */
  get settingProblems(): readonly SettingProblem[] {
    return this.problems;
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

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }

  private read() {
    const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
    return readSettings((key) => config.get(key));
  }
}
