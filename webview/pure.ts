/**
 * `pure(Component)` skips re-rendering when the props are shallowly equal: the panel
 * re-renders once per frame while streaming, and most parts have not changed.
 */
import { Component, h, type FunctionComponent } from 'preact';

export function shallowEqual(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  }
  return true;
}

export function pure<P extends object>(inner: FunctionComponent<P>): FunctionComponent<P> {
  class Pure extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      return !shallowEqual(this.props, next);
    }
    override render() {
      return h(inner, this.props);
    }
  }
  return Pure as unknown as FunctionComponent<P>;
}
