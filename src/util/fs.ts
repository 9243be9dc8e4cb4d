import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes `data` beside `file` and renames it over it (creating the directory
 * first): a concurrent reader sees the old content or the new, never half.
 * The temporary file is removed when anything fails, and the error is thrown.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: { mode?: number } = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, data, options.mode === undefined ? undefined : { mode: options.mode });
    renameSync(temp, file);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The directory itself is unusable: the error below says what failed first.
    }
    throw error;
  }
}

/**
 * What changes when a file is written (atomically: a new inode) or replaced:
 * its inode, size and modification time; null when it is not a file that can
 * be read.
 */
export function fileStamp(file: string): string | null {
  try {
    const stat = statSync(file);
    return stat.isFile() ? `${stat.ino} ${stat.size} ${stat.mtimeMs}` : null;
  } catch {
    return null;
  }
}

/** Appends `lines` to a log file, one per line; the leading newline ends a line a cut-short write may have left open. Throws what the write throws. */
export function appendLines(file: string, lines: readonly string[]): void {
  appendFileSync(file, `\n${lines.join('\n')}\n`);
}
