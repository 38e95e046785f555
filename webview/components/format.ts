/** Byte counts as people read them: "812 bytes", "2.1 KB", "1.4 MB" (a KB is 1,024 bytes, as the settings count). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
