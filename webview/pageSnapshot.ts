/**
 * The snapshot the host wrote into the page (renderPanelHtml's JSON data block), so the first
 * render shows the host's state without waiting for a message. Used once per page: VS Code
 * re-creates a hidden view from the same HTML, and by then that snapshot is old.
 */
import { PAGE_SNAPSHOT_ID } from '../src/protocol/panelHtml';
import type { UiStateStore } from './uiState';

/** The page's snapshot message to start from, or undefined (none, unreadable, or already used). */
export function pageSnapshot(doc: Document, ui: Pick<UiStateStore, 'claimPage'>): unknown {
  const text = doc.getElementById(PAGE_SNAPSHOT_ID)?.textContent;
  if (!text) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const { page, message } = data as { page?: unknown; message?: unknown };
  return typeof page === 'string' && ui.claimPage(page) ? message : undefined;
}
