import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cacheKeyFile, cacheSecret, sealed, sealedFile, unsealed } from '../../src/util/cache-secret.js';

const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tripwire-secret-')));
  temps.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('cacheKeyFile', () => {
  it('is under $XDG_CACHE_HOME when that is absolute, else under ~/.cache', () => {
    expect(cacheKeyFile({ XDG_CACHE_HOME: '/var/cache/me' })).toBe(path.join('/var/cache/me', 'tripwire', 'key'));
    expect(cacheKeyFile({})).toBe(path.join(os.homedir(), '.cache', 'tripwire', 'key'));
  });

  it('ignores a relative XDG_CACHE_HOME, which would put the key in the checked repository', () => {
    expect(cacheKeyFile({ XDG_CACHE_HOME: 'node_modules/.cache' })).toBe(path.join(os.homedir(), '.cache', 'tripwire', 'key'));
  });
});

describe('cacheSecret', () => {
  it('creates a 32-byte key readable by its owner only, and leaves nothing else there', () => {
    const file = path.join(tempDir(), 'tripwire', 'key');
    const secret = cacheSecret(file);
    expect(secret.persistent).toBe(true);
    expect(readFileSync(file).equals(secret.key)).toBe(true);
    expect(secret.key.length).toBe(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['key']);
  });

  it('uses the key another run created', () => {
    const file = path.join(tempDir(), 'key');
    const theirs = Buffer.alloc(32, 7);
    writeFileSync(file, theirs, { mode: 0o600 });
    expect(cacheSecret(file)).toMatchObject({ key: theirs, persistent: true });
  });

  it('replaces a key file that was cut short', () => {
    const file = path.join(tempDir(), 'key');
    writeFileSync(file, 'short');
    const secret = cacheSecret(file);
    expect(secret.persistent).toBe(true);
    expect(readFileSync(file).equals(secret.key)).toBe(true);
  });

  it('keeps the key in memory only when no key file can be created, and leaves a directory in its way alone', () => {
    const blocker = path.join(tempDir(), 'a-file');
    writeFileSync(blocker, '');
    expect(cacheSecret(path.join(blocker, 'tripwire', 'key'))).toMatchObject({ persistent: false });
    const dir = tempDir();
    mkdirSync(path.join(dir, 'key'));
    expect(cacheSecret(path.join(dir, 'key'))).toMatchObject({ persistent: false });
    expect(readdirSync(path.join(dir, 'key'))).toEqual([]);
  });

  it('reads a key through a link the user made', () => {
    const dir = tempDir();
    const real = path.join(dir, 'real-key');
    writeFileSync(real, Buffer.alloc(32, 3), { mode: 0o600 });
    symlinkSync(real, path.join(dir, 'key'));
    expect(cacheSecret(path.join(dir, 'key'))).toMatchObject({ key: Buffer.alloc(32, 3), persistent: true });
  });
});

describe('sealed records', () => {
  const secret = { key: Buffer.alloc(32, 1), persistent: true, file: '(test)' };
  const other = { key: Buffer.alloc(32, 2), persistent: true, file: '(test)' };

  it('round-trip under the same key and context', () => {
    expect(unsealed(secret, 'ctx', sealed(secret, 'ctx', '{"a":"é"}'))).toBe('{"a":"é"}');
  });

  it('do not verify when the text, the key or the context differ, or the record is cut short', () => {
    const record = sealed(secret, 'ctx', '{"imports":["openai"]}');
    expect(unsealed(secret, 'ctx', record.replace('openai', 'lodash'))).toBeNull();
    expect(unsealed(other, 'ctx', record)).toBeNull();
    expect(unsealed(secret, 'other', record)).toBeNull();
    expect(unsealed(secret, 'ctx', record.slice(0, 70))).toBeNull();
    expect(unsealed(secret, 'ctx', '{"imports":[]}')).toBeNull();
  });

  it('do not verify a character swapped for one with the same low byte', () => {
    // 'o' is U+006F and 'ů' U+016F: a MAC over Latin-1 bytes would not tell them apart.
    const record = sealed(secret, 'ctx', '{"imports":["openai"]}');
    expect(unsealed(secret, 'ctx', record.replace('openai', '\u016fpenai'))).toBeNull();
  });

  it('written as a file, are the bytes of the record sealed as text: the text encoded once, the same MAC', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ maxLength: 20 }), (text, context) => {
        const file = sealedFile(secret, context, text);
        expect(file.equals(Buffer.from(sealed(secret, context, text), 'utf8'))).toBe(true);
        expect(unsealed(secret, context, file.toString('utf8'))).toBe(text);
      }),
    );
    // A character outside ASCII is its UTF-8 bytes, under the MAC and in the file: one outside Latin-1, and one inside it.
    expect(sealedFile(secret, 'ctx', '{"a":"ů"}').subarray(65).toString('utf8')).toBe('{"a":"ů"}');
    expect([...sealedFile(secret, 'ctx', '"\u00e9"').subarray(65)]).toEqual([0x22, 0xc3, 0xa9, 0x22]);
  });
});
