import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// What a checked change can write, it can forge: a cache file committed under
// node_modules/.cache, or restored from a CI cache a pull request populated.
// Every cache file is therefore authenticated with a key that only this user
// holds, kept outside every repository; a file that does not verify is a miss.

const KEY_BYTES = 32;
export const MAC_HEX = 64;

export interface CacheSecret {
  key: Buffer;
  /**
   * False when the key file could not be created or read: the key lives in
   * memory only, so nothing written under it can be verified by a later run.
   */
  persistent: boolean;
  /** The key file, where the key was (or would have been) kept. */
  file: string;
}

/**
 * `$XDG_CACHE_HOME/tripwire/key`, else `~/.cache/tripwire/key`. A relative
 * XDG_CACHE_HOME is ignored, as the XDG specification says: it would put the
 * key in whatever directory tripwire runs in, the checked repository.
 */
export function cacheKeyFile(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'tripwire', 'key');
}

const secrets = new Map<string, CacheSecret>();

/** The user's cache key, created (mode 0600) on first use; in memory only when it cannot be kept. */
export function cacheSecret(file: string = cacheKeyFile()): CacheSecret {
  const known = secrets.get(file);
  if (known) return known;
  const key = readKey(file) ?? createKey(file);
  const secret: CacheSecret = key ? { key, persistent: true, file } : { key: randomBytes(KEY_BYTES), persistent: false, file };
  secrets.set(file, secret);
  return secret;
}

/** The key in `file`: a file of exactly KEY_BYTES bytes; null otherwise. */
function readKey(file: string): Buffer | null {
  try {
    if (!statSync(file).isFile()) return null;
    const key = readFileSync(file);
    return key.length === KEY_BYTES ? key : null;
  } catch {
    return null;
  }
}

/**
 * Publishes a new key atomically: written to a private temporary file, then
 * linked into place, so a concurrent run reads a whole key or none. When
 * another run won the race its key is used; a file that is not a valid key
 * (cut short, emptied) is replaced, anything else at that path is left alone.
 */
function createKey(file: string): Buffer | null {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temp, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temp, file);
    } catch (error) {
      if (!isCode(error, 'EEXIST')) throw error;
      const theirs = readKey(file);
      if (theirs) return theirs;
      if (!lstatSync(file).isFile()) return null;
      renameSync(temp, file);
    }
    return readKey(file);
  } catch {
    return null;
  } finally {
    try {
      rmSync(temp, { force: true });
    } catch {
      // No directory to have left it in.
    }
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}

/**
 * HMAC-SHA256 of `text` under the key, bound to `context` (what the text is:
 * a file name and format). The text is hashed as UTF-8, which is one-to-one
 * on what a read can return (Latin-1 or UTF-8 decoded bytes): no two texts
 * share a MAC input.
 */
export function macOf(secret: CacheSecret, context: string, text: string): string {
  return createHmac('sha256', secret.key).update(context, 'utf8').update('\0').update(text, 'utf8').digest('hex');
}

const NON_ASCII = /[^\x00-\x7f]/;

/** `<mac> <text>`: the form every cache file and cache log line is written in. */
export function sealed(secret: CacheSecret, context: string, text: string): string {
  return `${macOf(secret, context, text)} ${text}`;
}

/**
 * `sealed` as the bytes a file of it holds (its UTF-8), for a whole cache
 * file: the text is encoded once, and the MAC taken over those bytes, where
 * `sealed` encodes it for the MAC and again for the write (a 10k repository's
 * verdict files are megabytes, written on every run that evaluates a rule).
 */
export function sealedFile(secret: CacheSecret, context: string, text: string): Buffer {
  // ASCII text (what JSON.stringify mostly gives) is its own UTF-8: its length is its byte length, and
  // Buffer.byteLength scans 2 MB in 6-8 ms on Node 20 where this test takes under 1 ms.
  const ascii = !NON_ASCII.test(text);
  const out = Buffer.allocUnsafe(MAC_HEX + 1 + (ascii ? text.length : Buffer.byteLength(text, 'utf8')));
  out.write(text, MAC_HEX + 1, ascii ? 'latin1' : 'utf8');
  out.write(bytesMac(secret, context, out.subarray(MAC_HEX + 1)).toString('hex'), 0, 'latin1');
  out[MAC_HEX] = 0x20;
  return out;
}

/** The text of a sealed record whose MAC verifies under the key; null for anything else (forged, torn, another key's). */
export function unsealed(secret: CacheSecret, context: string, record: string): string | null {
  if (record.length <= MAC_HEX || record[MAC_HEX] !== ' ') return null;
  const claimed = Buffer.from(record.slice(0, MAC_HEX), 'latin1');
  const text = record.slice(MAC_HEX + 1);
  const expected = Buffer.from(macOf(secret, context, text), 'latin1');
  return timingSafeEqual(claimed, expected) ? text : null;
}

/**
 * The bytes after the MAC of a sealed record read as bytes, when the MAC
 * verifies; null for anything else. The MAC is taken over the bytes as read:
 * for the ASCII a writer seals they are the text's UTF-8, and anything else
 * does not verify.
 */
export function unsealedRecord(secret: CacheSecret, context: string, record: Buffer): Buffer | null {
  if (record.length <= MAC_HEX || record[MAC_HEX] !== 0x20) return null;
  const body = record.subarray(MAC_HEX + 1);
  const expected = Buffer.from(bytesMac(secret, context, body).toString('hex'), 'latin1');
  return timingSafeEqual(record.subarray(0, MAC_HEX), expected) ? body : null;
}

/** A binary record: the 32-byte HMAC-SHA256 of `bytes` under the key and `context`, then the bytes. */
export function sealedBytes(secret: CacheSecret, context: string, bytes: Uint8Array): Buffer {
  return Buffer.concat([bytesMac(secret, context, bytes), bytes]);
}

/** The bytes of a binary record whose MAC verifies under the key; null for anything else. */
export function unsealedBytes(secret: CacheSecret, context: string, record: Buffer): Buffer | null {
  if (record.length <= MAC_BYTES) return null;
  const bytes = record.subarray(MAC_BYTES);
  return timingSafeEqual(record.subarray(0, MAC_BYTES), bytesMac(secret, context, bytes)) ? bytes : null;
}

const MAC_BYTES = 32;

function bytesMac(secret: CacheSecret, context: string, bytes: Uint8Array): Buffer {
  return createHmac('sha256', secret.key).update(context, 'utf8').update('\0').update(bytes).digest();
}
