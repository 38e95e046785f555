import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import { gate } from './scenes';

describe('panel: Restricted Mode', () => {
  it('is one banner with a Trust Workspace button, and the gate says verify is off before approval', () => {
    const p = mountPanel({ state: { flags: { hasApiKey: true, trusted: false } } });
    const banners = p.container.querySelectorAll('.pw-banner');
    assert.equal(banners.length, 1);
    assert.match(banners[0]!.textContent!, /This workspace is not trusted/);
    fireEvent.click(p.getByText('Trust Workspace'));
    assert.deepEqual(p.sent('trustWorkspace'), [{ type: 'trustWorkspace' }]);
    p.update([{ op: 'gate.set', gate }]);
    assert.ok(p.getByText(/Verify is off in Restricted Mode: steps cannot complete\./));
    p.update([{ op: 'flags.set', flags: { hasApiKey: true, trusted: true } }]);
    assert.equal(p.queryByText(/Verify is off in Restricted Mode/), null);
    assert.equal(p.container.querySelectorAll('.pw-banner').length, 0);
  });
});
