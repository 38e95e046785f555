import assert from 'node:assert/strict';
import { Emitter } from '../../src/core/emitter';

describe('Emitter', () => {
  it('hands each value to every listener in order; a throwing listener is reported and the rest still hear it', () => {
    const errors: unknown[] = [];
    const e = new Emitter<number>((err) => errors.push(err));
    const heard: string[] = [];
    e.on((n) => heard.push(`a${n}`));
    e.on(() => {
      throw new Error('view gone');
    });
    const c = e.on((n) => heard.push(`c${n}`));
    e.fire(1);
    c.dispose();
    e.fire(2);
    assert.deepEqual(heard, ['a1', 'c1', 'a2']);
    assert.deepEqual(
      errors.map((x) => (x as Error).message),
      ['view gone', 'view gone'],
    );
  });

  it('a listener added while firing waits for the next value; clear removes all', () => {
    const e = new Emitter<string>();
    const heard: string[] = [];
    e.on((v) => {
      heard.push(`first ${v}`);
      e.on((w) => heard.push(`late ${w}`));
    });
    e.fire('x');
    assert.deepEqual(heard, ['first x']);
    e.clear();
    e.fire('y');
    assert.deepEqual(heard, ['first x']);
  });
});
