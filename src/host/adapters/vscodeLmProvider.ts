/**
 * `planwise.provider: vscode-lm`: the session's model client is the Language Model API adapter
 * over the real `vscode` module, with the planning and build models looked up first so their
 * context windows (`maxInputTokens`) are known before the first request. No API key is read.
 */
import * as vscode from 'vscode';
import type { ModelClient } from '../../core/api/ports';
import type { PlanwiseSettings } from '../config';
import { VscodeLmModelClient, listLmModels, type LmModelInfo } from './vscodeLmModelClient';

export async function vscodeLmModel(
  settings: PlanwiseSettings,
  log: (line: string) => void,
): Promise<ModelClient | undefined> {
  if (settings.provider !== 'vscode-lm') return undefined;
  const client = new VscodeLmModelClient(vscode, log);
  await client.prepare([settings.planningModel, settings.buildModel].filter((m) => m !== ''));
  return client;
}

/** The chat models VS Code offers right now (empty when the API is unavailable). */
export async function vscodeLmModels(): Promise<LmModelInfo[]> {
  if (typeof vscode.lm?.selectChatModels !== 'function') return [];
  return listLmModels(vscode);
}
