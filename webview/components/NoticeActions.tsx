/**
 * Under a failed request's notice: Set API Key (when the endpoint refused the key or asked for
 * one: the host runs its Set API Key command), Retry (the person's message goes out again) and
 * Change provider. The first offered is the primary button.
 */
import type { NoticeItem } from '../../src/protocol';
import { usePanel } from '../context';
import { Button } from '../ui/Button';

export function NoticeActions({ item }: { item: NoticeItem }) {
  const { post } = usePanel();
  const actions = item.actions ?? [];
  if (actions.length === 0) return null;
  const key = actions.includes('setApiKey');
  return (
    <div class="pw-notice-actions">
      {key ? (
        <Button appearance="primary" testId="notice-set-key" onClick={() => post({ type: 'setApiKey' })}>
          Set API Key
        </Button>
      ) : null}
      {actions.includes('retry') ? (
        <Button
          appearance={key ? 'secondary' : 'primary'}
          testId="notice-retry"
          onClick={() => post({ type: 'retry', noticeId: item.id })}
        >
          Retry
        </Button>
      ) : null}
      {actions.includes('changeProvider') ? (
        <Button appearance="secondary" testId="notice-change-provider" onClick={() => post({ type: 'changeProvider' })}>
          Change provider
        </Button>
      ) : null}
    </div>
  );
}
