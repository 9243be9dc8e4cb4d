import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
