/**
 * Activation of the VS Code host. It registers the commands and, just after activation, the panel's
 * provider, and builds nothing else: everything loads on first need, in bundles of its own.
 * - `host/essentials` (dist/essentials.js): settings, the key store, the log, trust, the commands
 *   that need no host, the plan lenses. Required just after activation, or by a command or the view
 *   if one comes sooner.
 * - `host/panel/parts` (dist/panel.js): the panel's view and state, when the view first resolves.
 * - `host/composition` (dist/host.js): everything else, with the first command or panel message
 *   that needs it (the engine and model client load later still, with the first session).
 *
 * Loading this file is most of Planwise's activation, so it is written to bundle small: `vscode` and the other bundles by plain `require` (esbuild.mjs leaves those
 * as they are, with no module-interop helpers), and the command ids from the manifest VS Code has
 * already read instead of a table of its own.
 */
import vscode = require('vscode');
import type { Host } from './host/composition';
import type { Essentials } from './host/essentials';
import type { PanelParts } from './host/panel/parts';
import { DisposableStore, once } from './host/disposables';
import { PANEL_VIEW_ID } from './host/ids';

interface Manifest {
  readonly contributes: {
    readonly commands: readonly { readonly command: string }[];
    readonly menus: { readonly commandPalette: readonly { readonly command: string; readonly when?: string }[] };
  };
}

function activate(context: vscode.ExtensionContext): void {
  // Disposed newest first: the host before the panel, both before the log they write to.
  const store = new DisposableStore();
  context.subscriptions.push(store);
  const manifest = context.extension.packageJSON as Manifest;
  // The commands the palette never offers (`when: false`): only the host's own lenses and review
  // threads call them, so they are registered with the host (test/host/contributions.test.ts holds
  // the manifest to that). Every other contributed command is registered now.
  const hostUi = new Set(
    manifest.contributes.menus.commandPalette.filter((m) => m.when === 'false').map((m) => m.command),
  );

  const essentials = once(async (): Promise<Essentials> => {
    const e = (require('./host/essentials') as typeof import('./host/essentials')).createEssentials(context);
    return store.add(e);
  });

  // The panel's state and view come from dist/panel.js, not dist/host.js: when VS Code first asks
  // for the view, its page (with the first snapshot) is written at once, and the host loads after,
  // with the page's first message.
  const panel = once(async (): Promise<PanelParts> => {
    const { keys, config, trust, log } = await essentials();
    const route = (raw: unknown) =>
      host().then(
        (h) => h.route(raw),
        (err: unknown) => {
          log.error('the panel message could not be handled', err);
          return 'failed' as const;
        },
      );
    const { createPanelParts } = require('./host/panel/parts') as typeof import('./host/panel/parts');
    const parts = createPanelParts({ extensionUri: context.extensionUri, keys, config, trust, log, route });
    store.add(parts.view);
    return parts;
  });

  const host = once(async (): Promise<Host> => {
    const e = await essentials();
    const { composeHost } = require('./host/composition') as typeof import('./host/composition');
    const composed = composeHost({ ...e, panel: await panel() });
    store.add(composed);
    // Before any lens or comment thread the host draws can be clicked.
    for (const id of hostUi) register(id);
    return composed;
  });

  const register = (id: string) =>
    store.add(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await (await essentials()).runCommand(id, args, host);
        } catch (err) {
          await essentials().then(
            (e) => e.commandFailed(id, err),
            // Nothing to log to: the installed files are broken. Say so, with the cause.
            () => vscode.window.showErrorMessage(`Planwise: ${id} failed: ${String(err)}`),
          );
          return undefined;
        }
      }),
    );
  // Every command a window can show without the host: palette, menus and keybindings (also those
  // whose when-clause reads a context key the host sets: a restarted extension host leaves the
  // window's keys as they were, so the palette may offer them before Planwise is active again).
  for (const { command } of manifest.contributes.commands) if (!hostUi.has(command)) register(command);

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

function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

export = { activate, deactivate };
