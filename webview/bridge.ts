/**
 * The webview's only link to the host: VS Code's `acquireVsCodeApi()` handle, acquired once in
 * main.tsx and passed down. Outgoing messages are typed by the protocol.
 */
import type { WebviewMessage } from '../src/protocol';

/** The part of VS Code's webview API the panel uses. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export type Post = (message: WebviewMessage) => void;

export function createPost(api: VsCodeApi): Post {
  return (message) => api.postMessage(message);
}
