/** The conversation: a virtualised list of transcript items that follows the stream. */
import type { TranscriptItem } from '../../src/protocol';
import { usePanel } from '../context';
import { estimateItemHeight, TranscriptItemView } from './TranscriptItem';
import { VirtualList } from './VirtualList';

const itemKey = (item: TranscriptItem) => item.id;
const renderItem = (item: TranscriptItem) => <TranscriptItemView item={item} />;

export function Transcript({ items }: { items: readonly TranscriptItem[] }) {
  const { ui } = usePanel();
  const saved = ui.get();
  if (items.length === 0) {
    return (
      <div class="pw-empty" role="note">
        <p>
          Describe a task below. Planwise explores the workspace read-only, asks what it cannot decide, and proposes a
          plan for you to approve.
        </p>
      </div>
    );
  }
  return (
    <VirtualList
      items={items}
      itemKey={itemKey}
      estimate={estimateItemHeight}
      renderItem={renderItem}
      label="Transcript"
      initialScrollTop={saved.scrollTop}
      initialFollow={saved.follow}
      onScrollChange={(top, follow) => ui.rememberScroll(top, follow)}
    />
  );
}
