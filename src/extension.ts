/**
 * Activation of the VS Code host. It registers the commands and, just after activation, the panel's
 * provider, and builds nothing else: everything loads on first need, in bundles of its own.
 * - `host/essentials` (dist/essentials.js): settings, the key store, the log, trust, the commands
 *   that need no host, the plan lenses. Required just after activation, or by a command or the view
 *   if one comes sooner.
 * - `host/panel/parts` (dist/panel.js): the panel's view and state, when the view first resolves.
 * - `host/composition` (dist/host.js): everything else, with the first command or panel message
 *   that needs it (the engine and model client load later still, with the first session).
 * In a CPU profile of the extension host, loading this file was most of Planwise's activation: a
 * 20.7 KB bundle took 2-4 ms to compile and evaluate, against under 1 ms for an empty extension.
 */
import * as vscode from 'vscode';
import type { Host } from './host/composition';
import type { Essentials } from './host/essentials';
import type { PanelParts } from './host/panel/parts';
import { EAGER_COMMANDS, HOST_UI_COMMANDS, type EagerCommandKey, type HostCommandKey } from './host/commands/keys';
import { DisposableStore, once } from './host/disposables';
import { COMMANDS, PANEL_VIEW_ID, type CommandKey } from './host/ids';

export function activate(context: vscode.ExtensionContext): void {
  const store = new DisposableStore();
  context.subscriptions.push(store);

  const essentials = once(async (): Promise<Essentials> => {
    const { createEssentials } = await import('./host/essentials');
    return store.add(createEssentials(context));
  });

  // The panel's state and view come from dist/panel.js, not dist/host.js: when VS Code first asks
  // for the view, its page (with the first snapshot) is written at once, and the host loads after,
  // with the page's first message.
  const panel = once(async (): Promise<PanelParts> => {
    const e = await essentials();
    const { createPanelParts } = await import('./host/panel/parts');
    const route = (raw: unknown) =>
      host().then(
        (h) => h.route(raw),
        (err: unknown) => {
          e.log.error('the panel message could not be handled', err);
          return 'failed' as const;
        },
      );
    const { keys, config, trust, log } = e;
    const parts = createPanelParts({ extensionUri: context.extensionUri, keys, config, trust, log, route });
    store.add(parts.view);
    return parts;
  });

  const host = once(async (): Promise<Host> => {
    const e = await essentials();
    const { composeHost } = await import('./host/composition');
    const composed = store.add(composeHost({ ...e, panel: await panel() }));
    // Before any lens or comment thread the host draws can be clicked.
    for (const key of HOST_UI_COMMANDS) register(key);
    return composed;
  });

  const eager: ReadonlySet<CommandKey> = new Set(EAGER_COMMANDS);
  const register = (key: CommandKey) =>
    store.add(
      vscode.commands.registerCommand(COMMANDS[key], async (...args: unknown[]) => {
        try {
          return eager.has(key)
            ? await (await essentials()).runEager(key as EagerCommandKey)
            : await (await host()).run(key as HostCommandKey, args);
        } catch (err) {
          await essentials().then(
            (e) => e.commandFailed(COMMANDS[key], err),
            // Nothing to log to: the installed files are broken. Say so, with the cause.
            () => vscode.window.showErrorMessage(`Planwise: ${COMMANDS[key]} failed: ${String(err)}`),
          );
          return undefined;
        }
      }),
    );

  // Every command a window can show without the host: palette, menus and keybindings (also those
  // whose when-clause reads a context key the host sets: a restarted extension host leaves the
  // window's keys as they were, so the palette may offer them before Planwise is active again).
  const hostUi: ReadonlySet<CommandKey> = new Set(HOST_UI_COMMANDS);
  for (const key of Object.keys(COMMANDS) as CommandKey[]) if (!hostUi.has(key)) register(key);

  // Just after activation (the command that activated Planwise does not wait for it): the panel's
  // provider, then the essentials with the lenses and the settings check. VS Code keeps a view that
  // is asked for before its provider exists until the provider comes, and asks a new lens provider
  // for the open editors' lenses at once.
  const afterActivation = setTimeout(() => {
    store.add(
      vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, {
        // The panel's first paint is timed from here, before its bundles load.
        resolveWebviewView: async (view) => {
          const resolvedAt = Date.now();
          (await panel()).view.resolveAt(view, resolvedAt);
        },
      }),
    );
    essentials().then(
      (e) => e.startLenses(async (doc) => (await host()).provideLenses(doc)),
      (err: unknown) => void vscode.window.showErrorMessage(`Planwise could not start: ${String(err)}`),
    );
  }, 0);
  store.addCallback(() => clearTimeout(afterActivation));
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
