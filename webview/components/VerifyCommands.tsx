/**
 * The gate's list of the plan's verify commands, each whole with what the build does with it (the
 * engine's verdict): runs read-only, runs from your allow-list, asks you first, never runs. When
 * some would ask, one checkbox, off for every new gate, approves those listed commands together
 * with the plan for this build; approving the plan alone approves none of them.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import type { ApprovalDecision, Gate } from '../../src/protocol';
import { Icon } from '../ui/Icon';

type Listed = NonNullable<Gate['verifyCommands']>[number];

const VERDICT: Record<Listed['verdict'], { icon: string; text: string }> = {
  read_only: { icon: 'eye', text: 'runs read-only' },
  allow_list: { icon: 'pass', text: 'on your allow-list' },
  ask: { icon: 'question', text: 'will ask' },
  refused: { icon: 'circle-slash', text: 'never runs' },
};

/** The checkbox's state for one gate, and what an approval carries. */
export function useVerifyApproval(gate: Gate) {
  const [allowed, setAllowed] = useState(false);
  // A new gate (or a new card for it) starts with the box off.
  useEffect(() => setAllowed(false), [gate.requestId, gate.revision]);
  const approvable = [...new Set((gate.verifyCommands ?? []).filter((c) => c.approvable).map((c) => c.command))];
  return {
    allowed,
    setAllowed,
    approvable,
    /** What an approval sends: the listed commands only when the box is ticked. */
    extra(decision: ApprovalDecision): { allowCommands?: string[] } {
      const approves = decision === 'execute' || decision === 'fresh_context';
      return approves && allowed && approvable.length > 0 ? { allowCommands: approvable } : {};
    },
  };
}

interface Props {
  gate: Gate;
  locked: boolean;
  approval: ReturnType<typeof useVerifyApproval>;
}

export function VerifyCommands({ gate, locked, approval }: Props) {
  const boxId = useId();
  const listed = gate.verifyCommands ?? [];
  if (listed.length === 0) return null;
  const asking = listed.filter((c) => c.verdict === 'ask').length;
  const n = approval.approvable.length;
  return (
    <details class="pw-gate-verify" open={asking > 0}>
      <summary>
        <Icon name="terminal" /> {listed.length} verify command{listed.length === 1 ? '' : 's'}
        {asking > 0 ? ` · ${asking} will ask` : ''}
      </summary>
      <ul>
        {listed.map((c) => (
          <li key={`${c.step}:${c.command}`} title={c.reason}>
            <span class="pw-tag">step {c.step}</span> <code class="pw-verify-cmd">{c.command}</code>{' '}
            <span class={`pw-verify-verdict pw-verify-verdict-${c.verdict}`}>
              <Icon name={VERDICT[c.verdict].icon} /> {VERDICT[c.verdict].text}
            </span>
          </li>
        ))}
      </ul>
      {n > 0 ? (
        <p class="pw-verify-allow">
          <input
            id={boxId}
            type="checkbox"
            checked={approval.allowed}
            disabled={locked}
            onChange={(e) => approval.setAllowed((e.currentTarget as HTMLInputElement).checked)}
          />{' '}
          <label for={boxId}>
            Also allow the {n === 1 ? 'command' : `${n} commands`} that would ask, for this build. Approving the plan
            alone allows none; a command that appears later is asked for.
          </label>
        </p>
      ) : null}
    </details>
  );
}
