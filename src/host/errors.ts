/**
 * What the person is told when something they can fix goes wrong, and which button fixes it.
 * Pure: the host shows the result as a notification.
 */
import type { ModelError } from '../core/api/ports';
import type { SettingProblem } from './config';
import { clause, prefixed, sentence } from '../node/messageText';

/** A notification's text: "Planwise: " and the message, once, whatever the message starts with. */
export function toastText(message: string): string {
  return prefixed(message);
}

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
        message: `${sentence(err.message)} Planwise compacted the request and tried again; lower planwise.context.compactAtPercent or start a fresh session.`,
        actions: ['Open Settings', 'Show Log'],
        setting: 'planwise.context.compactAtPercent',
      };
    case 'auth':
      return {
        severity: 'error',
        // The engine's message already says what was refused and what to do: it is shown as it is.
        message: hasKey
          ? sentence(err.message)
          : `The model server at ${baseUrl} needs an API key. Set one with "Set API Key".`,
        actions: ['Set API Key', 'Open Settings'],
        setting: 'planwise.baseUrl',
      };
    case 'unreachable':
      return {
        severity: 'error',
        // The client's message names the URL and says what to check; anything else gets the URL.
        message: err.message.includes(baseUrl)
          ? sentence(err.message)
          : `Planwise cannot reach the model server at ${baseUrl}: ${clause(err.message)}. Check that it runs, or change planwise.baseUrl.`,
        actions: ['Open Settings', 'Show Log'],
        setting: 'planwise.baseUrl',
      };
    case 'bad_request':
      return {
        severity: 'error',
        message: `${sentence(err.message)} Check planwise.planningModel and planwise.buildModel.`,
        actions: ['Open Settings', 'Show Log'],
        setting: 'planwise.planningModel',
      };
    case 'rate_limited':
      return {
        severity: 'warning',
        message: sentence(err.message),
        actions: ['Show Log'],
      };
    default:
      return {
        severity: 'error',
        message: `The model request failed: ${sentence(clause(err.message))}`,
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
  const n = problems.length - 1;
  const more = n > 0 ? ` ${n} more setting${n > 1 ? 's have problems' : ' has a problem'}.` : '';
  return {
    severity: 'warning',
    message: `Setting ${first.key} ${sentence(first.message)}${more}`,
    actions: ['Open Settings'],
    setting: first.key,
  };
}
