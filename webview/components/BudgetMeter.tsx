/** A compact budget line matching the status bar; the tooltip has the full breakdown. */
import type { Budget } from '../../src/protocol';
import { meterParts, meterTooltip, overallLevel } from '../budget';
import { Icon } from '../ui/Icon';

export function BudgetMeter({ budget }: { budget: Budget }) {
  const parts = meterParts(budget);
  const level = overallLevel(parts);
  return (
    <div
      class={`pw-budget pw-level-${level}`}
      role="group"
      aria-label={`Budget: ${parts.map((p) => `${p.label} ${p.text}`).join(', ')}`}
      title={meterTooltip(budget)}
    >
      <Icon name={level === 'ok' ? 'dashboard' : 'warning'} />
      {parts.map((p) => (
        <span key={p.label} class={`pw-budget-part pw-level-${p.level}`}>
          <span class="pw-budget-label">{p.label}</span> {p.text}
        </span>
      ))}
    </div>
  );
}
