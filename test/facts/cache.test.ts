import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cacheDirectory, openFactCache } from '../../src/facts/cache.js';
import { sealed, unsealed, type CacheSecret } from '../../src/util/cache-secret.js';

interface Facts {
  imports: string[];
}

function isFacts(value: unknown): value is Facts {
  return typeof value === 'object' && value !== null && 'imports' in value && Array.isArray(value.imports);
}

const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tripwire-cache-')));
  temps.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const SECRET: CacheSecret = { key: randomBytes(32), persistent: true, file: '(test)' };

function open(location: string, version = '1.0.0', secret = SECRET) {
  return openFactCache<Facts>({ root: tempDir(), version, enabled: true, location, validate: isFacts, secret });
}

/** The JSON a cache file holds, its MAC checked. */
function unsealedFile(location: string, version = '1.0.0'): string {
  const text = unsealed(SECRET, `tripwire-facts facts-${version}`, readFileSync(path.join(location, `facts-${version}.json`), 'latin1'));
  if (text === null) throw new Error('the cache file does not verify');
  return text;
}

/** Writes `json` as the cache file, sealed as the cache seals it. */
function writeSealed(location: string, json: string, version = '1.0.0'): void {
  writeFileSync(path.join(location, `facts-${version}.json`), sealed(SECRET, `tripwire-facts facts-${version}`, json));
}

/** The file's entries with the log's applied, as the next run sees them. */
function stored(location: string, version = '1.0.0'): unknown {
  const entries = JSON.parse(unsealedFile(location, version)) as Record<string, unknown>;
  const log = path.join(location, `facts-${version}.log`);
  if (existsSync(log)) {
    for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
      const json = unsealed(SECRET, `tripwire-facts-log facts-${version}`, line);
      if (json === null) throw new Error(`a log line does not verify: ${line}`);
      const [key, value] = JSON.parse(json) as [string, unknown];
      entries[key] = value;
    }
  }
  return entries;
}

describe('openFactCache', () => {
  it('round-trips entries through the file and counts hits and misses', () => {
    const location = tempDir();
    const first = open(location);
    expect(first.get('k1')).toBeUndefined();
    first.set('k1', { imports: ['openai'] });
    expect(first.get('k1')).toEqual({ imports: ['openai'] });
    first.save();
    expect(first.stats).toEqual({ hits: 1, misses: 1 });
    expect(readdirSync(location)).toEqual(['facts-1.0.0.json']);

    const second = open(location);
    expect(second.get('k1')).toEqual({ imports: ['openai'] });
    expect(second.get('k2')).toBeUndefined();
    expect(second.stats).toEqual({ hits: 1, misses: 1 });
  });

  it('writes pure ASCII and reads back any text, in the file and in the log', () => {
    const location = tempDir();
    const text = { imports: ['é … 中 😀', 'lone \ud800 surrogate', 'del \u007f'] };
    const first = open(location);
    first.set('a', text);
    // Enough other entries that the next addition is appended to the log.
    for (const key of ['c', 'd', 'e', 'f', 'g']) first.set(key, { imports: [] });
    first.save();
    const second = open(location);
    for (const key of ['c', 'd', 'e', 'f', 'g']) second.get(key);
    expect(second.get('a')).toEqual(text);
    second.set('b', { imports: ['ß'] });
    second.save();
    for (const name of readdirSync(location)) expect(readFileSync(path.join(location, name)).every((byte) => byte < 0x7f)).toBe(true);
    expect(readdirSync(location).sort()).toEqual(['facts-1.0.0.json', 'facts-1.0.0.log']);
    const third = open(location);
    expect([third.get('a'), third.get('b')]).toEqual([text, { imports: ['ß'] }]);
  });

  it('keeps versions apart', () => {
    const location = tempDir();
    const v1 = open(location, '1.0.0');
    v1.set('k', { imports: [] });
    v1.save();
    expect(open(location, '2.0.0').get('k')).toBeUndefined();
    const odd = open(location, '1.0.0/f 2');
    odd.set('k', { imports: [] });
    odd.save();
    expect(readdirSync(location).sort()).toEqual(['facts-1.0.0.json', 'facts-1.0.0_f_2.json']);
  });

  it('writes nothing when nothing changed', () => {
    const location = tempDir();
    const empty = open(location);
    expect(empty.get('k')).toBeUndefined();
    empty.save();
    expect(readdirSync(location)).toEqual([]);

    const writer = open(location);
    writer.set('k', { imports: ['a'] });
    writer.save();
    writeSealed(location, unsealedFile(location).replace('"a"', '"sentinel"'));
    const reader = open(location);
    expect(reader.get('k')).toEqual({ imports: ['sentinel'] });
    reader.set('k', { imports: ['sentinel'] });
    reader.save();
    expect(stored(location)).toEqual({ k: { imports: ['sentinel'] } });
  });

  it('prunes entries the run did not touch', () => {
    const location = tempDir();
    const first = open(location);
    first.set('kept', { imports: ['a'] });
    first.set('dropped', { imports: ['b'] });
    first.save();

    const second = open(location);
    expect(second.get('kept')).toEqual({ imports: ['a'] });
    second.set('added', { imports: ['c'] });
    second.save();
    expect(stored(location)).toEqual({ kept: { imports: ['a'] }, added: { imports: ['c'] } });
  });

  it('appends what a run added while the file is mostly in use, and rewrites it once a quarter went unused', () => {
    const location = tempDir();
    const file = path.join(location, 'facts-1.0.0.json');
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const first = open(location);
    for (const key of keys) first.set(key, { imports: [key] });
    first.save();
    const before = readFileSync(file, 'utf8');

    // Every entry used and one added: the file stays as it was, the new entry goes to the log.
    const second = open(location);
    for (const key of keys) second.get(key);
    second.set('i', { imports: ['i'] });
    second.save();
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(location).sort()).toEqual(['facts-1.0.0.json', 'facts-1.0.0.log']);
    expect(open(location).get('i')).toEqual({ imports: ['i'] });

    // A torn line (a write cut short) costs only its own entry.
    writeFileSync(path.join(location, 'facts-1.0.0.log'), `${readFileSync(path.join(location, 'facts-1.0.0.log'), 'utf8')}["j", {"imp`);
    const third = open(location);
    expect(third.get('i')).toEqual({ imports: ['i'] });
    expect(third.get('j')).toBeUndefined();

    // Five of nine used: the rewrite keeps those five and the one added, and drops the log.
    const fourth = open(location);
    for (const key of ['a', 'b', 'c', 'd', 'i']) fourth.get(key);
    fourth.set('z', { imports: ['z'] });
    fourth.save();
    expect(readdirSync(location)).toEqual(['facts-1.0.0.json']);
    expect(Object.keys(stored(location) as object).sort()).toEqual(['a', 'b', 'c', 'd', 'i', 'z']);
  });

  it('discards a corrupt file and replaces it at save', () => {
    const location = tempDir();
    writeSealed(location, '{"k": {"imports": [');
    const cache = open(location);
    expect(cache.get('k')).toBeUndefined();
    cache.save();
    expect(stored(location)).toEqual({});
  });

  it('discards the whole file when one entry fails validation', () => {
    const location = tempDir();
    writeSealed(location, JSON.stringify({ good: { imports: [] }, bad: { imports: 'openai' } }));
    const cache = open(location);
    expect(cache.get('good')).toBeUndefined();
    expect(cache.get('bad')).toBeUndefined();
  });

  it('discards a file that is valid JSON but not a map', () => {
    const location = tempDir();
    writeSealed(location, '[1, 2]');
    expect(open(location).get('0')).toBeUndefined();
  });

  it('treats a file whose MAC does not verify as a miss, however well-formed, and replaces it at save', () => {
    const location = tempDir();
    const writer = open(location);
    writer.set('k', { imports: ['openai'] });
    writer.save();
    const file = path.join(location, 'facts-1.0.0.json');
    // The same shape, one fact changed, the old MAC kept: what a forger without the key can write.
    writeFileSync(file, readFileSync(file, 'latin1').replace('"openai"', '"lodash"'));
    const reader = open(location);
    expect(reader.get('k')).toBeUndefined();
    reader.set('k', { imports: ['openai'] });
    reader.save();
    expect(stored(location)).toEqual({ k: { imports: ['openai'] } });
  });

  it('skips a log line whose MAC does not verify, and keeps the others', () => {
    const location = tempDir();
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const first = open(location);
    for (const key of keys) first.set(key, { imports: [] });
    first.save();
    const second = open(location);
    for (const key of keys) second.get(key);
    second.set('i', { imports: ['openai'] });
    second.set('j', { imports: ['openai'] });
    second.save();
    const log = path.join(location, 'facts-1.0.0.log');
    const lines = readFileSync(log, 'latin1').split('\n');
    writeFileSync(log, lines.map((line) => (line.includes('"i"') ? line.replace('"openai"', '"lodash"') : line)).join('\n'));
    const third = open(location);
    expect(third.get('i')).toBeUndefined();
    expect(third.get('j')).toEqual({ imports: ['openai'] });
  });

  it('reads nothing that another key sealed', () => {
    const location = tempDir();
    const writer = open(location);
    writer.set('k', { imports: [] });
    writer.save();
    expect(open(location, '1.0.0', { key: randomBytes(32), persistent: true, file: '(other)' }).get('k')).toBeUndefined();
  });

  it('reads and writes nothing when the key lives in memory only', () => {
    const location = tempDir();
    const writer = open(location);
    writer.set('k', { imports: [] });
    writer.save();
    const before = readFileSync(path.join(location, 'facts-1.0.0.json'), 'latin1');
    const ephemeral = open(location, '1.0.0', { ...SECRET, persistent: false });
    expect(ephemeral.get('k')).toBeUndefined();
    ephemeral.set('other', { imports: [] });
    ephemeral.save();
    expect(ephemeral.file).toBeNull();
    expect(readdirSync(location)).toEqual(['facts-1.0.0.json']);
    expect(readFileSync(path.join(location, 'facts-1.0.0.json'), 'latin1')).toBe(before);
  });

  it('skips an unwritable location silently', () => {
    const blocker = path.join(tempDir(), 'a-file');
    writeFileSync(blocker, '');
    const cache = open(path.join(blocker, 'cache'));
    cache.set('k', { imports: [] });
    expect(() => cache.save()).not.toThrow();
    expect(cache.get('k')).toEqual({ imports: [] });
  });

  it('leaves no temporary file behind', () => {
    const location = tempDir();
    const cache = open(location);
    cache.set('k', { imports: [] });
    cache.save();
    cache.set('k', { imports: ['changed'] });
    cache.save();
    expect(readdirSync(location)).toEqual(['facts-1.0.0.json']);
    expect(stored(location)).toEqual({ k: { imports: ['changed'] } });
  });

  it('reads and writes nothing when disabled', () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'node_modules'));
    const cache = openFactCache<Facts>({ root, version: '1', enabled: false });
    cache.set('k', { imports: [] });
    expect(cache.get('k')).toBeUndefined();
    cache.save();
    expect(cache.file).toBeNull();
    expect(readdirSync(path.join(root, 'node_modules'))).toEqual([]);
  });
});

describe('cacheDirectory', () => {
  const home = process.env.HOME;
  afterEach(() => {
    process.env.HOME = home;
  });

  it('uses an explicit location first', () => {
    const root = tempDir();
    expect(cacheDirectory(root, path.join(root, 'custom'))).toBe(path.join(root, 'custom'));
  });

  it('uses node_modules/.cache/tripwire when the repository has node_modules', () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'node_modules'));
    expect(cacheDirectory(root)).toBe(path.join(root, 'node_modules', '.cache', 'tripwire'));
  });

  it('falls back to the home cache without creating node_modules', () => {
    const root = tempDir();
    process.env.HOME = tempDir();
    const id = createHash('sha1').update(root).digest('hex').slice(0, 12);
    expect(cacheDirectory(root)).toBe(path.join(process.env.HOME, '.cache', 'tripwire', id));

    const cache = openFactCache({ root, version: '1', enabled: true, secret: SECRET });
    cache.set('k', 1);
    cache.save();
    expect(existsSync(path.join(root, 'node_modules'))).toBe(false);
    expect(existsSync(path.join(process.env.HOME, '.cache', 'tripwire', id, 'facts-1.json'))).toBe(true);
  });
});
