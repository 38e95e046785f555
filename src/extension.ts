/**
 * Activation of the VS Code host. Kept cheap: it registers the commands, the panel and the plan
 * lenses, and builds only small pieces (settings, secrets, log, trust). Everything else loads on
 * first use from `host/composition` (and the engine and model client later still, with the first
 * session).
 */
import * as vscode from 'vscode';
import type { Host } from './host/composition';
import type { PanelParts } from './host/panel/parts';
import { clearApiKey, selectModel, setApiKey, showLog, type SettingsCommandDeps } from './host/commands/settings';
import { HOST_UI_COMMANDS, type EagerCommandKey, type HostCommandKey } from './host/commands/keys';
import { ConfigService } from './host/configService';
import { DisposableStore, once } from './host/disposables';
import { adviceForSettings, toastText, type Advice } from './host/errors';
import { COMMANDS, OUTPUT_CHANNEL_NAME, PANEL_VIEW_ID, type CommandKey } from './host/ids';
import { HostLog, describeError } from './host/log';
import { ApiKeyStore } from './host/secrets';
import { TrustState } from './host/trust';

const EAGER: Record<EagerCommandKey, (d: SettingsCommandDeps) => unknown> = {
  setApiKey,
  clearApiKey,
  selectModel,
  showLog,
};

export function activate(context: vscode.ExtensionContext): void {
  const store = new DisposableStore();
  context.subscriptions.push(store);

  // The output channel is made when first written to or shown (nothing is logged at activation).
  let made: vscode.LogOutputChannel | undefined;
  const output = (): vscode.LogOutputChannel =>
    (made ??= store.add(vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true })));
  const channel = { show: (preserveFocus?: boolean) => output().show(preserveFocus) };
  const keys = store.add(new ApiKeyStore(context.secrets));
  const log = new HostLog(
    {
      debug: (m) => output().debug(m),
      info: (m) => output().info(m),
      warn: (m) => output().warn(m),
      error: (m) => output().error(m),
    },
    () => keys.known,
  );
  const showAdvice = (advice: Advice) => {
    const show = advice.severity === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
    void show(toastText(advice.message), ...advice.actions).then((action) => {
      if (action === 'Set API Key') void vscode.commands.executeCommand(COMMANDS.setApiKey);
      else if (action === 'Open Settings')
        void vscode.commands.executeCommand('workbench.action.openSettings', advice.setting ?? 'planwise');
      else if (action === 'Show Log') channel.show(true);
    });
  };
  const config = store.add(
    new ConfigService((problems) => {
      const advice = adviceForSettings(problems);
      if (advice) showAdvice(advice);
    }),
  );
  const trust = new TrustState(vscode.workspace.isTrusted);
  store.add(vscode.workspace.onDidGrantWorkspaceTrust(() => trust.grant()));
  const lensChanged = store.add(new vscode.EventEmitter<void>());

  // No setContext here: every window starts with the context keys unset, which every when-clause
  // reads as idle and no plan; the host sets them once a session exists. (Two setContext calls were
  // 0.6-1.1 ms of activation in a CPU profile of the extension host.)

  const settingsDeps: SettingsCommandDeps = { keys, config, log, channel };
  const register = (key: CommandKey) => {
    const eager = (EAGER as Partial<Record<CommandKey, (d: SettingsCommandDeps) => unknown>>)[key];
    store.add(
      vscode.commands.registerCommand(COMMANDS[key], async (...args: unknown[]) => {
        try {
          return eager ? await eager(settingsDeps) : await (await host()).run(key as HostCommandKey, args);
        } catch (err) {
          log.error(`command ${COMMANDS[key]} failed`, err);
          void vscode.window.showErrorMessage(toastText(describeError(err)));
          return undefined;
        }
      }),
    );
  };

  // The panel's state and view come from dist/panel.js, not dist/host.js: when VS Code first asks
  // for the view, its page (with the first snapshot) is written at once, and the host loads after,
  // with the page's first message. Loaded on first use, not at activation.
  const panel = once(async (): Promise<PanelParts> => {
    const { createPanelParts } = await import('./host/panel/parts');
    const route = (raw: unknown) =>
      host().then(
        (h) => h.route(raw),
        (err: unknown) => {
          log.error('the panel message could not be handled', err);
          return 'failed' as const;
        },
      );
    const parts = createPanelParts({ extensionUri: context.extensionUri, keys, config, trust, log, route });
    store.add(parts.view);
    return parts;
  });

  const host = once(async (): Promise<Host> => {
    const { composeHost } = await import('./host/composition');
    const composed = store.add(
      composeHost({ context, config, log, keys, trust, lensChanged, showAdvice, panel: await panel() }),
    );
    // Before any lens or comment thread the host draws can be clicked.
    for (const key of HOST_UI_COMMANDS) register(key);
    return composed;
  });

  const hostUi: ReadonlySet<CommandKey> = new Set(HOST_UI_COMMANDS);
  for (const key of Object.keys(COMMANDS) as CommandKey[]) if (!hostUi.has(key)) register(key);

  // The panel's provider, like the lenses below, is registered just after activation: VS Code
  // keeps a view that is asked for before its provider exists until the provider comes (its
  // webview view service waits for the registration), and the command that activated Planwise
  // does not wait for it. In the extension host it was 0.6-1.3 ms of a 1.4-3 ms activate().
  const registerPanel = () =>
    store.add(
      vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, {
        // The panel's first paint is timed from here, before dist/panel.js loads.
        resolveWebviewView: async (view) => {
          const resolvedAt = Date.now();
          (await panel()).view.resolveAt(view, resolvedAt);
        },
      }),
    );

  // Lenses only for plan files: the selector follows the plans-folder setting. Registered just
  // after activation, with the settings check: no command or view that activates Planwise needs
  // them, and in a CPU profile of the extension host registering the provider (and reading the
  // setting its selector needs) was 1-2.5 ms of activate(). VS Code asks the new provider for the
  // open editors' lenses at once.
  let lensRegistration: vscode.Disposable | undefined;
  const registerLenses = (dir: string) => {
    lensRegistration?.dispose();
    lensRegistration = vscode.languages.registerCodeLensProvider(
      { scheme: 'file', pattern: `**/${dir}/*.md` },
      {
        onDidChangeCodeLenses: lensChanged.event,
        provideCodeLenses: async (doc) => (await host()).provideLenses(doc),
      },
    );
  };
  store.addCallback(() => lensRegistration?.dispose());

  // The panel, the lenses and the settings check (which reads every setting): the command that
  // activated Planwise does not wait for them.
  const afterActivation = setTimeout(() => {
    registerPanel();
    let plansDir = config.plansDirectory;
    registerLenses(plansDir);
    store.add(
      config.onDidChange((s) => {
        if (s.plansDirectory === plansDir) return;
        plansDir = s.plansDirectory;
        registerLenses(plansDir);
      }),
    );
    const advice = adviceForSettings(config.settingProblems);
    if (advice) showAdvice(advice);
  }, 0);
  store.addCallback(() => clearTimeout(afterActivation));
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
