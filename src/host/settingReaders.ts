/**
 * How each setting's value is checked: one reader per kind of value (a URL, a model name, a plans
 * folder, a list of commands or tools, one of a few words). A reader returns the value as the host
 * uses it, or the fallback after saying through `bad` what was wrong and what is used instead.
 */
import { INSTRUCTION_SOURCES, type InstructionSource } from '../core/api/basics';
import { readEndpointUrl } from '../node/endpointUrl';
import { clause } from '../node/messageText';
import type { PlanwiseSettings, ProviderKind } from './config';

export function readBaseUrl(v: unknown, fallback: string, bad: (m: string) => void): string {
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v !== 'string') {
    bad(`must be a URL such as https://api.openai.com/v1; got ${JSON.stringify(v)}. Using ${fallback}.`);
    return fallback;
  }
  // `localhost:11434` (no scheme) is completed, not refused with "got localhost:".
  const read = readEndpointUrl(v);
  if (!read.ok) {
    bad(`is not usable: ${clause(read.error)}. Using ${fallback}.`);
    return fallback;
  }
  return read.url;
}

export function readModel(v: unknown, fallback: string, required: boolean, bad: (m: string) => void): string {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string') {
    bad(`must be a model name such as gpt-4.1 or qwen2.5-coder:14b; got ${JSON.stringify(v)}.`);
    return fallback;
  }
  const name = v.trim();
  if (required && name === '') {
    bad(`is empty; name the model to plan with, e.g. gpt-4.1. Using ${fallback}.`);
    return fallback;
  }
  return name;
}

export function readPlansDir(v: unknown, fallback: string, bad: (m: string) => void): string {
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v !== 'string') {
    bad(`must be a folder path relative to the workspace; got ${JSON.stringify(v)}. Using ${fallback}.`);
    return fallback;
  }
  const dir = v.trim().replace(/\\/g, '/').replace(/\/+$/, '').replace(/^\.\//, '');
  if (dir.startsWith('/') || /^[A-Za-z]:/.test(dir) || dir.split('/').includes('..') || dir === '' || dir === '.') {
    bad(`"${v}" must be a folder inside the workspace, relative to its root (e.g. .vtcode/plans). Using ${fallback}.`);
    return fallback;
  }
  return dir;
}

export function readBool(v: unknown, fallback: boolean, bad: (m: string) => void): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') {
    bad(`must be true or false; got ${JSON.stringify(v)}. Using ${String(fallback)}.`);
    return fallback;
  }
  return v;
}

export function readAllowList(v: unknown, bad: (m: string) => void): readonly string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    bad(`must be a list of commands such as ["npm test", "npm run lint*"]; got ${JSON.stringify(v)}. Using [].`);
    return [];
  }
  const out: string[] = [];
  for (const item of v) {
    if (typeof item === 'string' && item.trim() !== '') out.push(item.trim());
    else bad(`entry ${JSON.stringify(item)} is not a command; each entry is a command line or a prefix ending in *.`);
  }
  return out;
}

export function readInstructionFiles(v: unknown, bad: (m: string) => void): readonly InstructionSource[] | false {
  if (v === undefined || v === null || v === true) return [...INSTRUCTION_SOURCES];
  if (v === false) return false;
  const known = INSTRUCTION_SOURCES as readonly string[];
  if (!Array.isArray(v)) {
    bad(`must be false or a list of ${known.join(', ')}; got ${JSON.stringify(v)}. Reading all of them.`);
    return [...INSTRUCTION_SOURCES];
  }
  const out: InstructionSource[] = [];
  for (const item of v) {
    if (typeof item === 'string' && known.includes(item)) out.push(item as InstructionSource);
    else bad(`entry ${JSON.stringify(item)} is not one of ${known.join(', ')}.`);
  }
  return out;
}

/** `server/tool` entries (and `server/*` when `wildcard`). */
export function readToolList(v: unknown, wildcard: boolean, bad: (m: string) => void): readonly string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    bad(`must be a list such as ["docs/search"${wildcard ? ', "issues/*"' : ''}]; got ${JSON.stringify(v)}. Using [].`);
    return [];
  }
  const out: string[] = [];
  for (const item of v) {
    const ok = typeof item === 'string' && /^[^/\s]+\/[^/\s]+$/.test(item.trim());
    if (ok && (wildcard || !item.trim().endsWith('/*'))) out.push(item.trim());
    else bad(`entry ${JSON.stringify(item)} is not server/tool${wildcard ? ' or server/*' : ''}.`);
  }
  return out;
}

export function readProvider(v: unknown, fallback: ProviderKind, bad: (m: string) => void): ProviderKind {
  if (v === undefined || v === null || v === '') return fallback;
  if (v === 'openai-compatible' || v === 'vscode-lm') return v;
  bad(`must be "openai-compatible" or "vscode-lm"; got ${JSON.stringify(v)}. Using "${fallback}".`);
  return fallback;
}

export function readAgent(v: unknown, fallback: 'plan' | 'build', bad: (m: string) => void): 'plan' | 'build' {
  if (v === undefined || v === null) return fallback;
  if (v === 'plan' || v === 'build') return v;
  bad(`must be "plan" or "build"; got ${JSON.stringify(v)}. Using "${fallback}".`);
  return fallback;
}

export function readScope(
  v: unknown,
  fallback: PlanwiseSettings['build']['scope'],
  bad: (m: string) => void,
): PlanwiseSettings['build']['scope'] {
  if (v === undefined || v === null) return fallback;
  if (v === 'ask' || v === 'record' || v === 'strict') return v;
  bad(`must be "ask", "record" or "strict"; got ${JSON.stringify(v)}. Using "${fallback}".`);
  return fallback;
}
