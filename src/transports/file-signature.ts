import { statSync } from 'node:fs';

/**
 * What a poll compares to tell that files changed: each file's modification time, size and
 * inode (a rename over it changes the inode even within the same millisecond), or that it is
 * missing.
 */
export function filesSignature(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const info = statSync(file);
        return `${file}:${info.mtimeMs}:${info.size}:${info.ino}`;
      } catch {
        return `${file}:missing`;
      }
    })
    .join('|');
}
