import assert from 'node:assert/strict';
import { Verifier, type VerifyRecord } from '../../src/core/index';
import { LazyVerifier } from '../../src/host/verify/lazyVerifier';
import { policyFor } from '../support/commandPolicy';

describe('host: the Verifier built on first use', () => {
  const make = () => {
    let built = 0;
    const lazy = new LazyVerifier(() => {
      built++;
      return new Verifier({ cwd: () => '/ws', now: () => 1000, policy: policyFor('/ws') });
    });
    return { lazy, built: () => built };
  };

  it('has no results and builds nothing until it is asked for', () => {
    const { lazy, built } = make();
    const off = lazy.onRecorded(() => {});
    assert.equal(lazy.hasResults, false);
    assert.equal(lazy.latest('/ws/plan.md', '1', 'check it'), undefined);
    lazy.cancelAll();
    off();
    assert.deepEqual([built(), lazy.built], [0, false]);
  });

  it('hands the listeners asked for before it existed to the Verifier once built, and builds once', () => {
    const { lazy, built } = make();
    const seen: VerifyRecord[] = [];
    lazy.onRecorded((r) => seen.push(r));
    const dropped: VerifyRecord[] = [];
    const off = lazy.onRecorded((r) => dropped.push(r));
    off();
    lazy.get().signOff('/ws/plan.md', '1', 'check it');
    assert.equal(lazy.get(), lazy.get());
    assert.equal(built(), 1);
    assert.deepEqual(
      seen.map((r) => [r.step, r.entry, r.status]),
      [['1', 'check it', 'checked']],
    );
    assert.deepEqual(dropped, []);
    assert.equal(lazy.hasResults, true);
    assert.equal(lazy.latest('/ws/plan.md', '1', 'check it')?.status, 'checked');
  });

  it('a listener attached before the build can still be removed after it', () => {
    const { lazy } = make();
    const seen: VerifyRecord[] = [];
    const off = lazy.onRecorded((r) => seen.push(r));
    lazy.get().signOff('/ws/plan.md', '1', 'a');
    off();
    lazy.get().signOff('/ws/plan.md', '1', 'b');
    assert.deepEqual(
      seen.map((r) => r.entry),
      ['a'],
    );
  });
});
