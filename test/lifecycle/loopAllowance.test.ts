import assert from 'node:assert/strict';
import { approvedPlanLoopLimit, loopHardCap } from '../../src/core/lifecycle/loopAllowance';

describe('approved-plan loop allowance', () => {
  it('adds +50 under the hard cap: the default 40 becomes 90', () => {
    assert.equal(approvedPlanLoopLimit(40, 0), 90);
  });

  it('clamps to the hard cap of 120: 100 stays capped at 120', () => {
    assert.equal(approvedPlanLoopLimit(100, 0), 120);
    assert.equal(approvedPlanLoopLimit(70, 0), 120);
  });

  it('clamps to base×3 when that is lower than 120', () => {
    assert.equal(loopHardCap(10), 30);
    assert.equal(approvedPlanLoopLimit(10, 0), 30);
    assert.equal(approvedPlanLoopLimit(1, 0), 3);
    assert.equal(approvedPlanLoopLimit(25, 0), 75);
  });

  it('keeps 0 as unlimited, with or without manual grants', () => {
    assert.equal(loopHardCap(0), 0);
    assert.equal(approvedPlanLoopLimit(0, 0), 0);
    assert.equal(approvedPlanLoopLimit(0, 30), 0);
  });

  it('does not stack with manual grants: the larger of the two wins', () => {
    assert.equal(approvedPlanLoopLimit(40, 30), 90, 'a smaller manual grant is covered by the allowance');
    assert.equal(approvedPlanLoopLimit(40, 50), 90);
    assert.equal(approvedPlanLoopLimit(40, 100), 140, 'a larger manual grant is kept, without +50 on top');
    assert.equal(approvedPlanLoopLimit(100, 40), 140);
  });

  it('never lowers a base that is already above the hard cap', () => {
    assert.equal(loopHardCap(200), 120);
    assert.equal(approvedPlanLoopLimit(200, 0), 200);
    assert.equal(approvedPlanLoopLimit(120, 0), 120);
  });

  it('rejects negative or fractional counts with a message naming the argument', () => {
    assert.throws(() => approvedPlanLoopLimit(-1, 0), /configured loop limit must be a whole number.*got -1/);
    assert.throws(
      () => approvedPlanLoopLimit(40, 2.5),
      /manually granted loop iterations must be a whole number.*got 2\.5/,
    );
    assert.throws(() => approvedPlanLoopLimit(Number.NaN, 0), RangeError);
    assert.throws(() => loopHardCap(-3), RangeError);
  });
});
