/**
 * The repository's instruction files an agent was given: each name opens its file, with its size
 * as the engine measured it; a cut file says how much of it the model saw.
 */
import type { InstructionsItem } from '../../src/protocol';
import { Icon } from '../ui/Icon';
import { FileLink } from './FileLink';
import { formatBytes } from './format';

const LEAD: Record<InstructionsItem['reason'], (agent: string) => string> = {
  start: (agent) => `Instructions for ${agent}:`,
  changed: (agent) => `Instructions changed; ${agent} now uses:`,
  added: () => 'Instructions added for the folder just read:',
};

export function InstructionsRow({ item }: { item: InstructionsItem }) {
  const agent = item.agent === 'build' ? 'the build' : 'planning';
  if (item.files.length === 0) {
    return (
      <div class="pw-item pw-instructions" role="note">
        <Icon name="book" /> <span>No instruction files apply to {agent} any more.</span>
      </div>
    );
  }
  return (
    <div class="pw-item pw-instructions" role="note">
      <Icon name="book" />
      <span>
        {LEAD[item.reason](agent)}{' '}
        {item.files.map((f, i) => (
          <span class="pw-instructions-file" key={f.path}>
            {i > 0 ? ' · ' : ''}
            <FileLink path={f.path} />{' '}
            <span class="pw-muted">
              {f.shownBytes < f.bytes
                ? `${formatBytes(f.shownBytes)} of ${formatBytes(f.bytes)}`
                : formatBytes(f.bytes)}
            </span>
          </span>
        ))}
        {item.truncated ? (
          <span class="pw-instructions-cut">
            {' '}
            (cut at {formatBytes(item.maxBytes)}: raise planwise.instructions.maxKilobytes to send more)
          </span>
        ) : null}
      </span>
    </div>
  );
}
