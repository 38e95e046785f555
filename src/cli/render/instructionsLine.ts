/** The transcript's one line naming the instruction files an agent was given, with their sizes. */
import type { ThreadEvent } from '../../core/api/sessions';

type InstructionEvent = Extract<ThreadEvent, { type: 'instructions.loaded' | 'instructions.added' }>;

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

export function instructionsLine(e: InstructionEvent): string {
  const files = e.files
    .map((f) => `${f.path} (${f.shownBytes < f.bytes ? `${size(f.shownBytes)} of ${size(f.bytes)}` : size(f.bytes)})`)
    .join(', ');
  const cut = e.truncated ? `; cut at ${size(e.max_bytes)} (--no-instructions turns them off)` : '';
  if (e.type === 'instructions.added') return `Instructions added: ${files}${cut}`;
  const who = e.agent === 'build' ? 'the build' : 'planning';
  if (e.files.length === 0) return `Instructions: none apply to ${who} any more`;
  return `Instructions for ${who}${e.reason === 'changed' ? ' (changed)' : ''}: ${files}${cut}`;
}
