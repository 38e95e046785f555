/**
 * What the build's guard needs from a host beyond the workspace ports: the text the person sees
 * (an open editor's document, dirty or not), range edits that never replace a whole document,
 * and a store for checkpoints outside the workspace.
 */
import type { WorkspaceWriter } from '../ports';

/** One replacement in a text: `[start, end)` offsets (UTF-16) of the text the edit was computed on. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** How a range edit landed. */
export interface EditOutcome {
  /** The document had unsaved changes of the person's, so the build left it unsaved. */
  readonly leftUnsaved: boolean;
}

/**
 * A writer that knows editors (VS Code). `openText` is the open document's current text, or
 * undefined when no editor holds the file; `editText` applies range edits computed on `base`, and
 * refuses (throws `StaleTextError`) when the document no longer holds `base`.
 */
export interface BufferWriter extends WorkspaceWriter {
  openText?(path: string): Promise<{ readonly text: string; readonly dirty: boolean } | undefined>;
  editText?(path: string, base: string, edits: readonly TextEdit[]): Promise<EditOutcome>;
  /** Removes a file the build created or deletes. */
  remove?(path: string): Promise<void>;
}

/**
 * A session's checkpoints: content-addressed blobs (sha256 hex) and one manifest. The host keeps
 * them in the session's storage (the extension's `storageUri`, the CLI's archive folder), never in
 * the workspace or the person's git history.
 */
export interface CheckpointStore {
  put(hash: string, data: Uint8Array): Promise<void>;
  get(hash: string): Promise<Uint8Array | undefined>;
  writeManifest(text: string): Promise<void>;
  readManifest(): Promise<string | undefined>;
}
