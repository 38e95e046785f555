/**
 * The panel's state (the hub) and its view provider, built when VS Code first asks for the view
 * (or when the host is composed, whichever is first). A bundle of its own, dist/panel.js
 * (esbuild.mjs): activation does not parse it, and the first resolve does not wait for
 * dist/host.js, which loads with the page's first message.
 */
import type * as vscode from 'vscode';
import { emptyViewState } from '../../protocol/emptyState';
import { redactMessage } from '../adapters/redactingArchive';
import type { HostLog } from '../log';
import { panelFlags, type FlagSources } from './flags';
import { PanelHub } from './hub';
import { PanelViewProvider } from './provider';
import type { MessageRouter } from './router';

/** The panel's state (the hub) and its view; its messages reach `Host.route`. */
export interface PanelParts {
  readonly hub: PanelHub;
  readonly view: PanelViewProvider;
}

export interface PanelPartsInput extends FlagSources {
  readonly extensionUri: vscode.Uri;
  readonly log: Pick<HostLog, 'warn'>;
  /** Where the webview's messages go (the host, loaded on the first one). */
  readonly route: MessageRouter;
}

export function createPanelParts(input: PanelPartsInput): PanelParts {
  const { keys, log } = input;
  const hub = new PanelHub(
    { ...emptyViewState(), flags: panelFlags(input) },
    { log: (l) => log.warn(l), sanitize: (m) => redactMessage(m, keys.known) },
  );
  return { hub, view: new PanelViewProvider(input.extensionUri, hub, input.route, log) };
}
