/** Mode switch, lifecycle state and the budget meter. */
import type { Budget, Lifecycle, Mode, ProviderLabel } from '../../src/protocol';
import { usePanel } from '../context';
import { ProgressRing } from '../ui/ProgressRing';
import { BudgetMeter } from './BudgetMeter';
import { pure } from '../pure';

const STATE_LABEL: Record<Lifecycle['state'], string> = {
  idle: 'Idle',
  planning: 'Planning',
  awaiting_approval: 'Awaiting approval',
  revising: 'Revising the plan',
  executing: 'Executing',
  cancelled: 'Cancelled',
};

export const MODE_LOCKED_REASON = 'Mode switches are locked while Planwise is working; they wait for the turn to end.';

export function ModeSwitch({ mode, locked }: { mode: Mode; locked: boolean }) {
  const { post } = usePanel();
  const option = (value: Mode, label: string, hint: string) => (
    <button
      type="button"
      class={`pw-mode${mode === value ? ' pw-mode-on' : ''}`}
      aria-pressed={mode === value}
      disabled={locked}
      title={locked ? MODE_LOCKED_REASON : hint}
      onClick={() => {
        if (!locked && mode !== value) post({ type: 'setMode', mode: value });
      }}
    >
      {label}
    </button>
  );
  return (
    <div class="pw-mode-switch" role="group" aria-label="Mode">
      {option('plan', 'Plan', 'Read-only planning: explore, ask, propose a plan')}
      {option('build', 'Build', 'Write-capable build agent')}
    </div>
  );
}

/** The provider and model in use; clicking it opens the setup card. */
function ProviderButton({ provider }: { provider: ProviderLabel }) {
  const { post } = usePanel();
  return (
    <button
      type="button"
      class="pw-provider"
      title="Change provider or model"
      aria-label={`Provider: ${provider.label}, model ${provider.model}. Change`}
      onClick={() => post({ type: 'changeProvider' })}
    >
      {provider.label} · {provider.model}
    </button>
  );
}

function HeaderView(props: { lifecycle: Lifecycle; budget: Budget | null; locked: boolean; provider?: ProviderLabel }) {
  const { lifecycle, budget } = props;
  return (
    <header class="pw-header">
      <ModeSwitch mode={lifecycle.mode} locked={lifecycle.busy || props.locked} />
      <span class="pw-state" role="status">
        {lifecycle.busy ? <ProgressRing /> : null}
        {STATE_LABEL[lifecycle.state]}
      </span>
      {props.provider ? <ProviderButton provider={props.provider} /> : null}
      {budget ? <BudgetMeter budget={budget} /> : null}
    </header>
  );
}

export const Header = pure(HeaderView);
