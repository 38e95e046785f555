import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';

const banner = (p: ReturnType<typeof mountPanel>) => p.queryByText(/No API key is set/);

describe('panel: the "no API key" banner', () => {
  it('waits for secret storage: no banner while the key is unknown, none when a key exists', () => {
    const p = mountPanel({ state: { flags: { hasApiKey: false, keyChecked: false, trusted: true } } });
    assert.equal(banner(p), null, 'no flash while secret storage has not answered');
    p.update([{ op: 'flags.set', flags: { hasApiKey: true, keyChecked: true, trusted: true } }]);
    assert.equal(banner(p), null);
  });

  it('shows once secret storage answered that there is no key', () => {
    const p = mountPanel({ state: { flags: { hasApiKey: false, keyChecked: false, trusted: true } } });
    p.update([{ op: 'flags.set', flags: { hasApiKey: false, keyChecked: true, trusted: true } }]);
    assert.ok(banner(p));
  });
});
