/** Under a failed request's notice: Retry (the person's message goes out again) and Change provider. */
import type { NoticeItem } from '../../src/protocol';
import { usePanel } from '../context';
import { Button } from '../ui/Button';

export function NoticeActions({ item }: { item: NoticeItem }) {
  const { post } = usePanel();
  const actions = item.actions ?? [];
  if (actions.length === 0) return null;
  return (
    <div class="pw-notice-actions">
      {actions.includes('retry') ? (
        <Button appearance="primary" testId="notice-retry" onClick={() => post({ type: 'retry', noticeId: item.id })}>
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
