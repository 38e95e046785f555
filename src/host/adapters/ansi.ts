/**
 * Terminal output as plain text: escape sequences (colours, cursor moves, the shell-integration
 * OSC 633 markers, titles) removed, CRLF normalised, and carriage-return redraws (progress bars)
 * reduced to what the line finally showed.
 */

// OSC … BEL or ST; CSI … final byte; other two-byte escapes.
// eslint-disable-next-line no-control-regex
const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
// eslint-disable-next-line no-control-regex
const CSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex
const ESC2 = /\u001b[@-Z\\-_]/g;
// eslint-disable-next-line no-control-regex
const OTHER_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f]/g;

export function stripTerminalEscapes(raw: string): string {
  const text = raw.replace(OSC, '').replace(CSI, '').replace(ESC2, '').replace(/\r\n/g, '\n');
  return text
    .split('\n')
    .map((line) => {
      const parts = line.split('\r').filter((p) => p !== '');
      return (parts[parts.length - 1] ?? '').replace(OTHER_CONTROLS, '');
    })
    .join('\n');
}

/** Keeps the first `maxBytes` bytes of UTF-8 text without cutting a character. */
export function capUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true };
}
