/**
 * Mode switch, lifecycle state and the budget meter. Switching to Build while a plan waits for
 * approval would cancel it: the switch asks first, inline under the header, keeping the plan by
 * default.
 */
import { useState } from 'preact/hooks';
import type { Budget, Lifecycle, Mode, ProviderLabel } from '../../src/protocol';
import { AT_STAKE_WORDS, type AtStake } from '../../src/protocol/atStake';
import { ConfirmBar } from './ConfirmBar';
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

export function ModeSwitch({ mode, locked, stake }: { mode: Mode; locked: boolean; stake?: AtStake }) {
  const { post } = usePanel();
  const [asking, setAsking] = useState<Mode | null>(null);
  const option = (value: Mode, label: string, hint: string) => (
    <button
      type="button"
      class={`pw-mode${mode === value ? ' pw-mode-on' : ''}`}
      aria-pressed={mode === value}
      disabled={locked}
      title={locked ? MODE_LOCKED_REASON : hint}
      onClick={() => {
        if (locked || mode === value) return;
        // Leaving Plan at the gate cancels the waiting plan: that is a decision, asked for first.
        if (value === 'build' && stake === 'plan') setAsking(value);
        else post({ type: 'setMode', mode: value });
      }}
    >
      {label}
    </button>
  );
  const switcher = (
    <div class="pw-mode-switch" role="group" aria-label="Mode">
      {option('plan', 'Plan', 'Read-only planning: explore, ask, propose a plan')}
      {option('build', 'Build', 'Write-capable build agent')}
    </div>
  );
  if (!asking || stake !== 'plan') return switcher;
  return (
    <>
      {switcher}
      <ConfirmBar
        testId="mode-confirm"
        question="Switch to Build and discard the plan?"
        detail={`Switching to Build cancels ${AT_STAKE_WORDS.plan.what}. Nothing has been built yet.`}
        keepLabel={AT_STAKE_WORDS.plan.keep}
        goLabel="Discard and switch to Build"
        onKeep={() => setAsking(null)}
        onGo={() => {
          setAsking(null);
          post({ type: 'setMode', mode: 'build' });
        }}
      />
    </>
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

function HeaderView(props: {
  lifecycle: Lifecycle;
  budget: Budget | null;
  locked: boolean;
  stake?: AtStake | undefined;
  provider?: ProviderLabel;
}) {
  const { lifecycle, budget } = props;
  return (
    <header class="pw-header">
      <ModeSwitch mode={lifecycle.mode} locked={lifecycle.busy || props.locked} stake={props.stake} />
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
