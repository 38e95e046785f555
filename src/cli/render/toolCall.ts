/**
 * One line per tool call: the tool, its main argument, and the gate's verdict (✓ allowed,
 * ✗ blocked with the reason). Failed results get one short line of their own.
 */
import type { ItemPayload } from '../../core/index';
import type { Style } from './style';

const MAX_ARG_CHARS = 100;

function clip(text: string, max = MAX_ARG_CHARS): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function parse(args: string): Record<string, unknown> {
  try {
    const v = JSON.parse(args) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The argument worth showing for a tool call, e.g. the path or the command. */
export function describeArguments(name: string, args: string): string {
  const a = parse(args);
  switch (name) {
    case 'read_file': {
      const start = a['start_line'];
      const end = a['end_line'];
      const range = typeof start === 'number' ? `:${start}${typeof end === 'number' ? `-${end}` : ''}` : '';
      return clip(`${str(a['path']) ?? '?'}${range}`);
    }
    case 'list_files':
      return clip(str(a['path']) ?? '.');
    case 'write_file': {
      const content = str(a['content']);
      return clip(`${str(a['path']) ?? '?'}${content !== undefined ? ` (${content.length} chars)` : ''}`);
    }
    case 'edit_file':
    case 'delete_file':
      return clip(str(a['path']) ?? '?');
    case 'code_search': {
      const where = str(a['path']) ?? str(a['glob']);
      return clip(`${JSON.stringify(str(a['pattern']) ?? '')}${where ? ` in ${where}` : ''}`);
    }
    case 'exec_command':
    case 'run_command':
      return clip(`$ ${str(a['command']) ?? ''}`);
    case 'read_spool':
      return clip(str(a['id']) ?? '');
    case 'task_tracker': {
      const target = a['index_path'] ?? a['index'];
      const parts = [str(a['action']), target !== undefined ? `#${String(target)}` : undefined, str(a['status'])];
      return parts.filter((p) => p !== undefined).join(' ');
    }
    case 'request_user_input': {
      const n = Array.isArray(a['questions']) ? a['questions'].length : 0;
      return `${n} question${n === 1 ? '' : 's'}`;
    }
    default:
      return clip(args);
  }
}

/** `✓ read_file README.md` or `✗ exec_command $ rm -rf x — blocked: …`. */
export function toolCallLine(item: ItemPayload, style: Style): string | undefined {
  if (!item.tool) return undefined;
  const shown = describeArguments(item.tool.name, item.tool.arguments);
  const head = `${item.tool.name}${shown ? ` ${shown}` : ''}`;
  const verdict = item.verdict;
  if (verdict && !verdict.allowed) return `  ${style.red('✗')} ${head} ${style.red(`— ${clip(verdict.reason, 200)}`)}`;
  return `  ${style.green('✓')} ${head}`;
}

/** A short line for a failed (not blocked) result, so the person sees why a call did not help. */
export function failedResultLine(item: ItemPayload, style: Style): string | undefined {
  const r = item.result;
  if (!r || r.ok) return undefined;
  const first = r.preview.split('\n').find((l) => l.trim() !== '') ?? 'failed';
  return `    ${style.yellow('↳')} ${style.dim(clip(first, 160))}`;
}
