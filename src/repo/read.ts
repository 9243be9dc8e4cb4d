import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Reads of the checked repository's files, never unbounded: each is opened
 * without blocking (a named pipe would wait for a writer forever), must be a
 * regular file (a device such as /dev/zero never ends), and its size is taken
 * from the open descriptor before a byte is read.
 */

/** Tripwire's own inputs that must be read whole (the configuration, the baseline, a .gitignore): far above any real one. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

export type BoundedRead =
  | { ok: true; bytes: Buffer }
  /** Larger than the limit (`size` as found, the file was not read). */
  | { ok: false; tooLarge: true; size: number }
  /** An errno code (`ENOENT`, `EACCES`) or `not a regular file`. */
  | { ok: false; tooLarge: false; reason: string };

const CHUNK = 1 << 20;
// O_NONBLOCK does not exist on Windows, where a pipe is not a path anyway.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function open(path: string): { fd: number; size: number } | { reason: string } {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    return { reason: errorCode(error) };
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) return { fd, size: stat.size };
  } catch (error) {
    closeSync(fd);
    return { reason: errorCode(error) };
  }
  closeSync(fd);
  return { reason: 'not a regular file' };
}

/** The bytes of a regular file of at most `maxBytes`; a file that grows past it while read counts as too large. */
export function readBounded(path: string, maxBytes: number): BoundedRead {
  const opened = open(path);
  if ('reason' in opened) return { ok: false, tooLarge: false, reason: opened.reason };
  const { fd, size } = opened;
  try {
    if (size > maxBytes) return { ok: false, tooLarge: true, size };
    // One byte more than the limit allows tells a file that grew since fstat.
    const buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
    let filled = 0;
    for (;;) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (read === 0) break;
      filled += read;
      if (filled === buffer.length) {
        if (filled > maxBytes) return { ok: false, tooLarge: true, size: filled };
        break;
      }
    }
    return { ok: true, bytes: buffer.subarray(0, filled) };
  } catch (error) {
    return { ok: false, tooLarge: false, reason: errorCode(error) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Feeds a regular file's bytes to `update` in chunks, after `start` has its
 * size (git's blob header needs it first): memory stays flat whatever the
 * size. Reads the size fstat gave, no more. The reason when it cannot.
 */
export function streamFile(path: string, start: (size: number) => void, update: (chunk: Buffer) => void): string | null {
  const opened = open(path);
  if ('reason' in opened) return opened.reason;
  const { fd, size } = opened;
  try {
    start(size);
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
    for (let left = size; left > 0; ) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, left), null);
      if (read === 0) break;
      update(buffer.subarray(0, read));
      left -= read;
    }
    return null;
  } catch (error) {
    return errorCode(error);
  } finally {
    closeSync(fd);
  }
}

function errorCode(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : String(error);
}

/** `52428849` → `50.0 MiB`, for messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
