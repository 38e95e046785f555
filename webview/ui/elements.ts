/** JSX typing of the toolkit's custom elements, for this folder's wrappers. */
import type { HTMLAttributes } from 'preact';

declare module 'preact' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'vscode-button': HTMLAttributes<HTMLElement> & {
        appearance?: 'primary' | 'secondary' | 'icon';
        disabled?: boolean;
      };
    }
  }
}
