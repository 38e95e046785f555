/**
 * The Planwise webview view: strict-CSP HTML around the bundled panel, messages into the router,
 * visibility into the hub (which buffers while hidden and snapshots when shown again).
 */
import * as vscode from 'vscode';
import type { HostMessage } from '../../protocol';
import { DisposableStore } from '../disposables';
import { panelHtml } from './html';
import type { PanelHub } from './hub';
import type { MessageRouter } from './router';

export class PanelViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private viewSubs = new DisposableStore();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hub: PanelHub,
    private readonly route: MessageRouter,
  ) {}

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.resolveAt(view, Date.now());
  }

  /** Resolves `view`; `resolvedAt` is when VS Code asked for it (the webview times its first paint from it). */
  resolveAt(view: vscode.WebviewView, resolvedAt: number): void {
    this.viewSubs.dispose();
    this.viewSubs = new DisposableStore();
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const webview = view.webview;
    webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [media] };
    const asUri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(media, ...parts)).toString();
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: asUri('webview.js'),
      styleUris: [asUri('codicons', 'codicon.css'), asUri('panel.css')],
      resolvedAt,
    });
    this.hub.attach((message: HostMessage) => webview.postMessage(message), view.visible);
    this.viewSubs.add(webview.onDidReceiveMessage((raw: unknown) => void this.route(raw)));
    this.viewSubs.add(view.onDidChangeVisibility(() => this.hub.setVisible(view.visible)));
    this.viewSubs.add(
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.hub.detach();
        }
      }),
    );
  }

  dispose(): void {
    this.viewSubs.dispose();
    this.hub.detach();
  }
}
