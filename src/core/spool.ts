/**
 * Oversized tool results. The model sees a head, a tail and a reference; the full text stays here
 * (in memory, bounded, least recently used evicted first) and `read_spool` pages through it by
 * byte offset. Every cut lands on a UTF-8 character boundary.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

export interface SpoolOptions {
  /** Total bytes kept across all entries (default 64 MiB). A single larger entry is kept alone. */
  readonly maxBytes?: number;
  /** Entries kept (default 500). */
  readonly maxEntries?: number;
}

export interface SpoolPage {
  readonly id: string;
  /** Byte offset where the page starts (moved back to a character boundary if needed). */
  readonly start: number;
  /** Byte offset just past the page; the next page starts here. */
  readonly end: number;
  readonly totalBytes: number;
  readonly text: string;
}

export class Spool {
  private readonly entries = new Map<string, Uint8Array>();
  private totalBytes = 0;
  private counter = 0;
  private readonly maxBytes: number;
  private readonly maxEntries: number;

  constructor(options: SpoolOptions = {}) {
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.maxEntries = options.maxEntries ?? 500;
  }

  /** Stores a full result and returns its id. */
  put(text: string): string {
    const data = encoder.encode(text);
    const id = `s${++this.counter}`;
    this.entries.set(id, data);
    this.totalBytes += data.length;
    this.evict(id);
    return id;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Size in bytes of a stored entry, undefined when unknown or evicted. */
  sizeOf(id: string): number | undefined {
    return this.entries.get(id)?.length;
  }

  /** The page of at most `limitBytes` bytes starting at `offset`; undefined when the id is unknown or evicted. */
  read(id: string, offset: number, limitBytes: number): SpoolPage | undefined {
    const data = this.entries.get(id);
    if (!data) return undefined;
    // Touch: most recently used goes to the end of the map's order.
    this.entries.delete(id);
    this.entries.set(id, data);
    const start = charStart(data, Math.min(Math.max(0, Math.floor(offset)), data.length));
    let end = charStart(data, Math.min(data.length, start + Math.max(1, Math.floor(limitBytes))));
    if (end === start && start < data.length) end = charEnd(data, start + 1); // a page holds at least one character
    return { id, start, end, totalBytes: data.length, text: decoder.decode(data.subarray(start, end)) };
  }

  private evict(keep: string): void {
    for (const [id, data] of this.entries) {
      if (this.totalBytes <= this.maxBytes && this.entries.size <= this.maxEntries) break;
      if (id === keep) continue;
      this.entries.delete(id);
      this.totalBytes -= data.length;
    }
  }
}

export interface Preview {
  /** The text to show: the whole text when it fits, else head + reference + tail. */
  readonly content: string;
  /** UTF-8 size of the full text. */
  readonly bytes: number;
  /** Set when the text did not fit and was spooled. */
  readonly spoolId?: string;
}

/**
 * Bytes of `text` in UTF-8, counted without encoding it (results are measured several times on
 * every tool call). A lone surrogate counts 3 bytes, as `TextEncoder` writes U+FFFD for it.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      bytes += 1;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

/**
 * Fits `text` into `limitBytes`. When it does not fit, the full text is put in the spool and the
 * preview keeps about two thirds head and one third tail, cut at line ends when one is near, with a
 * reference line between them telling how to page through the rest.
 */
export function previewOf(text: string, limitBytes: number, spool: Spool): Preview {
  const size = utf8Length(text);
  if (size <= limitBytes) return { content: text, bytes: size };
  const data = encoder.encode(text);
  const id = spool.put(text);
  const total = data.length;
  // The reference's numbers are at most as long as `total`, so measure it with `total` everywhere.
  const overhead = utf8Length(reference(id, total, total, total)) + 2;
  const room = Math.max(0, limitBytes - overhead);
  const headEnd = preferLineEnd(data, charStart(data, Math.floor((room * 2) / 3)), 0);
  const tailStart = preferLineStart(data, charEnd(data, total - (room - headEnd)), total);
  const head = decoder.decode(data.subarray(0, headEnd));
  const tail = decoder.decode(data.subarray(tailStart, total));
  const sep = (s: string) => (s.length === 0 || s.endsWith('\n') ? '' : '\n');
  const marker = reference(id, total, headEnd, tailStart);
  return { content: `${head}${sep(head)}${marker}\n${tail}`, bytes: total, spoolId: id };
}

function reference(id: string, total: number, headEnd: number, tailStart: number): string {
  return `[spooled: ${id}, ${total} bytes; shown bytes 0-${headEnd} and ${tailStart}-${total}; read_spool id=${id} offset=${headEnd}]`;
}

/** Is `i` the first byte of a character (or the end)? UTF-8 continuation bytes are 10xxxxxx. */
function isBoundary(data: Uint8Array, i: number): boolean {
  return i <= 0 || i >= data.length || ((data[i] ?? 0) & 0xc0) !== 0x80;
}

/** The boundary at or before `i`. */
export function charStart(data: Uint8Array, i: number): number {
  let j = Math.max(0, Math.min(i, data.length));
  while (!isBoundary(data, j)) j--;
  return j;
}

/** The boundary at or after `i`. */
function charEnd(data: Uint8Array, i: number): number {
  let j = Math.max(0, Math.min(i, data.length));
  while (!isBoundary(data, j)) j++;
  return j;
}

/** Moves a head cut back to just after a newline when one lies in the last fifth of the head. */
function preferLineEnd(data: Uint8Array, end: number, floor: number): number {
  const lowest = Math.max(floor, end - Math.floor((end - floor) / 5));
  for (let i = end; i > lowest; i--) if (data[i - 1] === 0x0a) return i;
  return end;
}

/** Moves a tail cut forward to just after a newline when one lies in the first fifth of the tail. */
function preferLineStart(data: Uint8Array, start: number, ceiling: number): number {
  const highest = Math.min(ceiling, start + Math.floor((ceiling - start) / 5));
  for (let i = start; i < highest; i++) if (data[i] === 0x0a) return i + 1;
  return start;
}
