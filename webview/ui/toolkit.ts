/**
 * The only module that loads `@vscode/webview-ui-toolkit`. The toolkit is deprecated upstream;
 * replacing it means touching this folder and nothing else.
 */
import { provideVSCodeDesignSystem, vsCodeButton } from '@vscode/webview-ui-toolkit';

/** Defines the toolkit's custom elements once per page. */
export function registerToolkit(): void {
  if (typeof customElements === 'undefined' || customElements.get('vscode-button')) return;
  provideVSCodeDesignSystem().register(vsCodeButton());
}
