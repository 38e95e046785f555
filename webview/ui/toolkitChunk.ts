/**
 * The panel's toolkit chunk (media/panel/toolkit.js): `@vscode/webview-ui-toolkit` and the FAST
 * libraries under it, about half of the panel's code, with a hundred design tokens built when it
 * loads. main.tsx imports it right after the first paint; until then each `<vscode-button>` is an
 * element not yet defined, which media/panel.css draws as the toolkit does. The toolkit is
 * deprecated upstream: replacing it means touching this folder and nothing else.
 */
import { endLateLoad } from './lateLoad';
import { provideVSCodeDesignSystem, vsCodeButton } from '@vscode/webview-ui-toolkit';

endLateLoad();

/** Defines the toolkit's custom elements once per page. */
export function registerToolkit(): void {
  if (typeof customElements === 'undefined' || customElements.get('vscode-button')) return;
  provideVSCodeDesignSystem().register(vsCodeButton());
}
