/** The part of jsdom's API the component tests use (the package ships no types). */
declare module 'jsdom' {
  export interface JSDOMOptions {
    pretendToBeVisual?: boolean;
    url?: string;
  }
  export class JSDOM {
    constructor(html?: string, options?: JSDOMOptions);
    readonly window: Window & typeof globalThis;
  }
}
