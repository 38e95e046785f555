/**
 * What the person is told when something they can fix goes wrong, and which button fixes it.
 * Pure: the host shows the result as a notification.
 */
import type { ModelError } from '../core/index';
import type { SettingProblem } from './config';

export type FixAction = 'Set API Key' | 'Open Settings' | 'Show Log';

export interface Advice {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly actions: readonly FixAction[];
  /** For "Open Settings": the setting to show. */
  readonly setting?: string;
}

export function adviceForModelError(
  err: ModelError,
  baseUrl: string,
  hasKey: boolean,
  provider: 'openai-compatible' | 'vscode-lm' = 'openai-compatible',
): Advice {
  if (provider === 'vscode-lm' && (err.kind === 'auth' || err.kind === 'bad_request')) {
    // No key and no endpoint: the message says what VS Code refused, or which model is missing.
    return {
      severity: 'error',
      message: err.message,
      actions: ['Open Settings', 'Show Log'],
      setting: err.kind === 'auth' ? 'planwise.provider' : 'planwise.planningModel',
    };
  }
  switch (err.kind) {
    case 'timeout':
      return {
        severity: 'error',
        message: err.message,
        actions: ['Open Settings', 'Show Log'],
        setting: /idle-stream/.test(err.message)
          ? 'planwise.request.idleTimeoutSeconds'
          : 'planwise.request.firstByteTimeoutSeconds',
      };
    case 'context_length':
      return {
        severity: 'error',
        message: `${err.message} Planwise compacted the request and tried again; lower planwise.context.compactAtPercent or start a fresh session.`,
        actions: ['Open Settings', 'Show Log'],
        setting: 'planwise.context.compactAtPercent',
      };
    case 'auth':
      return {
        severity: 'error',
        message: hasKey
          ? `The model server at ${baseUrl} rejected the API key (${err.message}). Set a valid key.`
          : `The model server at ${baseUrl} needs an API key. Set one with "Planwise: Set API Key".`,
        actions: ['Set API Key', 'Open Settings'],
        setting: 'planwise.baseUrl',
      };
    case 'unreachable':
      return {
        severity: 'error',
        message: `Planwise cannot reach the model server at ${baseUrl}: ${err.message}. Check that it runs, or change planwise.baseUrl.`,
        actions: ['Open Settings', 'Show Log'],
        setting: 'planwise.baseUrl',
      };
    case 'bad_request':
      return {
        severity: 'error',
        message: `The model server refused the request: ${err.message}. Check planwise.planningModel and planwise.buildModel.`,
        actions: ['Open Settings', 'Show Log'],
        setting: 'planwise.planningModel',
      };
    case 'rate_limited':
      return {
        severity: 'warning',
        message: `The model server is rate-limiting Planwise: ${err.message}. Wait a moment and try again.`,
        actions: ['Show Log'],
      };
    default:
      return {
        severity: 'error',
        message: `The model request failed: ${err.message}`,
        actions: ['Show Log'],
      };
  }
}

export function adviceForMissingKey(baseUrl: string): Advice {
  return {
    severity: 'error',
    message: `No API key is set for ${baseUrl}. Set one (it is kept in VS Code's secret storage), or point planwise.baseUrl at a local server that needs none.`,
    actions: ['Set API Key', 'Open Settings'],
    setting: 'planwise.baseUrl',
  };
}

export function adviceForSettings(problems: readonly SettingProblem[]): Advice | undefined {
  const first = problems[0];
  if (!first) return undefined;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return {
    severity: 'warning',
    message: `Setting ${first.key} ${first.message}${more}`,
    actions: ['Open Settings'],
    setting: first.key,
  };
}
