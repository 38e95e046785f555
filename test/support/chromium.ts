/**
 * Flags for Debian's Chromium in tests and benchmarks: no sandbox (root in CI), no GPU, and none of
 * the background network traffic a closed machine refuses.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
