import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync, truncateSync } from 'node:fs';
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

const context = (version: string): string => `tripwire-facts facts-${version}`;

/** The cache file's form (src/facts/cache.ts): a line giving the index's length, the index, then the records. */
function indexed(records: string[]): string {
  let offset = 0;
  const index = records.map((record) => {
    const line = `${record.slice(65, record.indexOf('\t'))} ${offset} ${record.length}\n`;
    offset += record.length + 1;
    return line;
  });
  return `tripwire-facts-1 ${index.join('').length}\n${index.join('')}${records.map((record) => `${record}\n`).join('')}`;
}

/** Writes the cache file as the cache seals it: one record per entry, each value given as its JSON text. */
function writeRecords(location: string, entries: Record<string, string>, version = '1.0.0'): void {
  writeFileSync(path.join(location, `facts-${version}.facts`), indexed(Object.entries(entries).map(([key, json]) => sealed(SECRET, context(version), `${key}\t${json}`))));
}

/** The records of a cache file (after its index) or of a log, sealed as written. */
function recordLines(file: string): string[] {
  const text = readFileSync(file, 'latin1');
  const head = /^tripwire-facts-1 (\d+)\n/.exec(text);
  return (head ? text.slice(head[0].length + Number(head[1])) : text).split('\n').filter(Boolean);
}

/** The entries of a file of records, each MAC checked; later lines win. */
function records(file: string, version: string, into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const line of recordLines(file)) {
    const text = unsealed(SECRET, context(version), line);
    if (text === null) throw new Error(`a record does not verify: ${line}`);
    const tab = text.indexOf('\t');
    into[text.slice(0, tab)] = JSON.parse(text.slice(tab + 1));
  }
  return into;
}

/** The file's entries with the log's applied, as the next run sees them. */
function stored(location: string, version = '1.0.0'): unknown {
  const entries = records(path.join(location, `facts-${version}.facts`), version);
  const log = path.join(location, `facts-${version}.log`);
  return existsSync(log) ? records(log, version, entries) : entries;
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
    expect(readdirSync(location)).toEqual(['facts-1.0.0.facts']);

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
    expect(readdirSync(location).sort()).toEqual(['facts-1.0.0.facts', 'facts-1.0.0.log']);
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
    expect(readdirSync(location).sort()).toEqual(['facts-1.0.0.facts', 'facts-1.0.0_f_2.facts']);
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
    writeRecords(location, { k: '{"imports": ["sentinel"]}' });
    const reader = open(location);
    expect(reader.get('k')).toEqual({ imports: ['sentinel'] });
    reader.set('k', { imports: ['sentinel'] });
    reader.save();
    expect(stored(location)).toEqual({ k: { imports: ['sentinel'] } });
  });

  it('tells a stored entry from the index alone: not counted, not kept alive, and a record that does not verify is still a miss when asked for', () => {
    const location = tempDir();
    const first = open(location);
    expect(first.has('k1')).toBe(false);
    first.set('k1', { imports: ['openai'] });
    first.set('k2', { imports: ['zod'] });
    expect(first.has('k1')).toBe(true);
    first.save();

    const second = open(location);
    expect([second.has('k1'), second.has('k2'), second.has('k3')]).toEqual([true, true, false]);
    expect(second.stats).toEqual({ hits: 0, misses: 0 });
    // Only what was read is in use: k2, told only, goes at the next rewrite.
    expect(second.get('k1')).toEqual({ imports: ['openai'] });
    second.set('k4', { imports: ['a'] });
    second.save();
    expect(stored(location)).toEqual({ k1: { imports: ['openai'] }, k4: { imports: ['a'] } });

    // An entry whose record fails its MAC is there by the index, and a miss when read.
    writeFileSync(path.join(location, 'facts-1.0.0.facts'), indexed([`${'0'.repeat(64)} k5\t{"imports":[]}`]));
    const third = open(location);
    expect(third.has('k5')).toBe(true);
    expect(third.get('k5')).toBeUndefined();
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
    const file = path.join(location, 'facts-1.0.0.facts');
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
    expect(readdirSync(location).sort()).toEqual(['facts-1.0.0.facts', 'facts-1.0.0.log']);
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
    expect(readdirSync(location)).toEqual(['facts-1.0.0.facts']);
    expect(Object.keys(stored(location) as object).sort()).toEqual(['a', 'b', 'c', 'd', 'i', 'z']);
  });

  it('treats a record cut short as a miss and replaces the file at save', () => {
    const location = tempDir();
    writeRecords(location, { k: '{"imports": [' });
    const cache = open(location);
    expect(cache.get('k')).toBeUndefined();
    cache.save();
    expect(stored(location)).toEqual({});
  });

  it('treats an entry that fails validation as a miss, reads the others, and rewrites the file without it', () => {
    const location = tempDir();
    writeRecords(location, { good: '{"imports": []}', bad: '{"imports": "openai"}' });
    const cache = open(location);
    expect(cache.get('good')).toEqual({ imports: [] });
    expect(cache.get('bad')).toBeUndefined();
    cache.save();
    expect(stored(location)).toEqual({ good: { imports: [] } });
  });

  it.each(['[1, 2]', 'k2 12', 'k3 1x 4', 'k4 -1 4', 'k5 3 ', 'k6  4'])('rewrites a file whose index has a line that is not an entry (%j), though nothing was added', (line) => {
    const location = tempDir();
    writeRecords(location, { k: '{"imports": ["a"]}' });
    const file = path.join(location, 'facts-1.0.0.facts');
    const text = readFileSync(file, 'latin1');
    const length = Number(/^tripwire-facts-1 (\d+)\n/.exec(text)?.[1]);
    writeFileSync(file, text.replace(/^tripwire-facts-1 \d+\n/, `tripwire-facts-1 ${length + line.length + 1}\n${line}\n`));
    const cache = open(location);
    expect(cache.get('k')).toEqual({ imports: ['a'] });
    cache.save();
    expect(readFileSync(file, 'latin1')).not.toContain(`${line}\n`);
    expect(stored(location)).toEqual({ k: { imports: ['a'] } });
  });

  it('reads a file of another form as empty and replaces it at save', () => {
    const location = tempDir();
    const file = path.join(location, 'facts-1.0.0.facts');
    writeFileSync(file, sealed(SECRET, context('1.0.0'), 'k\t{"imports": []}'));
    const cache = open(location);
    expect(cache.get('k')).toBeUndefined();
    cache.save();
    expect(readFileSync(file, 'latin1').startsWith('tripwire-facts-1 ')).toBe(true);
  });

  it('binds each record to its key: an index entry pointing at another key\'s record does not verify', () => {
    const location = tempDir();
    const writer = open(location);
    writer.set('clean', { imports: [] });
    writer.set('paid', { imports: ['openai'] });
    writer.save();
    const file = path.join(location, 'facts-1.0.0.facts');
    const [clean = '', paid = ''] = recordLines(file);
    // Both keys lead to paid's record, which was sealed for 'paid'.
    const index = `clean ${clean.length + 1} ${paid.length}\npaid ${clean.length + 1} ${paid.length}\n`;
    writeFileSync(file, `tripwire-facts-1 ${index.length}\n${index}${clean}\n${paid}\n`);
    const reader = open(location);
    expect(reader.get('clean')).toBeUndefined();
    expect(reader.get('paid')).toEqual({ imports: ['openai'] });
  });

  it('treats a file whose MAC does not verify as a miss, however well-formed, and replaces it at save', () => {
    const location = tempDir();
    const writer = open(location);
    writer.set('k', { imports: ['openai'] });
    writer.save();
    const file = path.join(location, 'facts-1.0.0.facts');
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
    writeFileSync(log, lines.map((line) => (line.includes(' i\t') ? line.replace('"openai"', '"lodash"') : line)).join('\n'));
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
    const before = readFileSync(path.join(location, 'facts-1.0.0.facts'), 'latin1');
    const ephemeral = open(location, '1.0.0', { ...SECRET, persistent: false });
    expect(ephemeral.get('k')).toBeUndefined();
    ephemeral.set('other', { imports: [] });
    ephemeral.save();
    expect(ephemeral.file).toBeNull();
    expect(readdirSync(location)).toEqual(['facts-1.0.0.facts']);
    expect(readFileSync(path.join(location, 'facts-1.0.0.facts'), 'latin1')).toBe(before);
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
    expect(readdirSync(location)).toEqual(['facts-1.0.0.facts']);
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

describe('the records a rewrite keeps', () => {
  const ID_A = 'a'.repeat(40);
  const ID_B = 'b'.repeat(40);

  it('keeps an entry this run did not read while its content is live, and drops the dead ones', () => {
    const location = tempDir();
    const first = open(location);
    for (const [key, id] of [['one', ID_A], ['two', ID_A], ['three', ID_B], ['four', ID_B]] as const) first.set(`${id}:${key}`, { imports: [key] });
    first.save();
    // A run that reads nothing and adds one entry, with only ID_A's content still in the listing: half the file is dead.
    const second = open(location);
    second.set(`${ID_A}:five`, { imports: ['five'] });
    second.save((id) => id === ID_A);
    expect(readdirSync(location)).toEqual(['facts-1.0.0.facts']);
    expect(Object.keys(stored(location) as object).sort()).toEqual([`${ID_A}:five`, `${ID_A}:one`, `${ID_A}:two`]);
  });

  it('without a live test, keeps only what the run used', () => {
    const location = tempDir();
    const first = open(location);
    for (const key of ['one', 'two']) first.set(`${ID_A}:${key}`, { imports: [key] });
    first.save();
    const second = open(location);
    second.set(`${ID_A}:three`, { imports: ['three'] });
    second.save();
    expect(Object.keys(stored(location) as object)).toEqual([`${ID_A}:three`]);
  });
});

describe('a fact table', () => {
  const tableFile = (location: string): string => path.join(location, readdirSync(location).find((name) => /\.table-\w+\.json$/.test(name)) ?? '(none)');

  it('serves a value for the content id it was stored with, and misses for another', () => {
    const location = tempDir();
    const first = open(location);
    first.table('env uses').set('test/a.test.ts', 'id-1', ['CI']);
    first.save();
    const second = open(location);
    expect(second.table('env uses').get('test/a.test.ts', 'id-1')).toEqual(['CI']);
    expect(second.table('env uses').get('test/a.test.ts', 'id-2')).toBeUndefined();
    expect(second.table('another name').get('test/a.test.ts', 'id-1')).toBeUndefined();
  });

  it('is removed, with its log, when dropped; the other tables stay', () => {
    const location = tempDir();
    const first = open(location);
    first.table('kept').set('a', 'id-1', 1);
    for (const file of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) first.table('dropped').set(file, 'id-1', 1);
    first.save();
    // A second save with one change of eight appends a log to the dropped table.
    const second = open(location);
    second.table('dropped').set('a', 'id-1', 2);
    second.save();
    const tables = () => readdirSync(location).filter((name) => name.includes('.table-')).sort();
    // Each table with its note of the file written, and the dropped one's log.
    expect(tables().map((name) => name.replace(/^.*\.table-\w+/, 'table')).sort()).toEqual(['table.json', 'table.json', 'table.json.log', 'table.json.verified', 'table.json.verified']);
    open(location).drop('dropped');
    expect(tables().map((name) => name.replace(/^.*\.table-\w+/, 'table')).sort()).toEqual(['table.json', 'table.json.verified']);
    expect(open(location).table('kept').get('a', 'id-1')).toBe(1);
    expect(open(location).table('dropped').get('a', 'id-1')).toBeUndefined();
  });

  it('is not written when nothing in it changed', () => {
    const location = tempDir();
    const first = open(location);
    first.table('t').set('a', 'id-1', 1);
    first.save();
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(tableFile(location), past, past);
    const second = open(location);
    expect(second.table('t').get('a', 'id-1')).toBe(1);
    second.table('t').set('a', 'id-1', 1);
    second.save();
    expect(statSync(tableFile(location)).mtime).toEqual(past);
    expect(existsSync(`${tableFile(location)}.log`)).toBe(false);
    second.table('t').set('a', 'id-1', 2);
    second.save();
    expect(open(location).table('t').get('a', 'id-1')).toBe(2);
  });

  it('appends the few entries a run set without reading it to its log, unread, and a later read takes them', () => {
    const location = tempDir();
    const first = open(location);
    first.table('t').set('a', 'id-1', 'a');
    first.save();
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(tableFile(location), past, past);
    // One new entry against a table of one: a run that read the table would write it whole.
    const second = open(location);
    second.table('t').set('b', 'id-1', 'b');
    second.table('t').set('a', 'id-2', 'A');
    second.save();
    expect(statSync(tableFile(location)).mtime).toEqual(past);
    expect(readFileSync(`${tableFile(location)}.log`, 'latin1').split('\n').filter(Boolean)).toHaveLength(2);
    const third = open(location);
    expect([third.table('t').get('a', 'id-2'), third.table('t').get('a', 'id-1'), third.table('t').get('b', 'id-1')]).toEqual(['A', undefined, 'b']);
  });

  it('is read before a run that set many entries unread writes them, and those as they were are not written', () => {
    const location = tempDir();
    const names = Array.from({ length: 40 }, (_, i) => `file-${i}`);
    const first = open(location);
    for (const name of names) first.table('t').set(name, 'id-1', name);
    first.save();
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(tableFile(location), past, past);
    // Forty entries set unread, one of them changed: the table is read, and one line appended.
    const second = open(location);
    for (const name of names) second.table('t').set(name, 'id-1', name === 'file-0' ? 'changed' : name);
    second.save();
    expect(statSync(tableFile(location)).mtime).toEqual(past);
    expect(readFileSync(`${tableFile(location)}.log`, 'latin1').split('\n').filter(Boolean)).toHaveLength(1);
    expect(open(location).table('t').get('file-0', 'id-1')).toBe('changed');
  });

  it('is written anew, not appended to, when a run sets entries unread and the table no longer verifies', () => {
    const location = tempDir();
    const first = open(location);
    for (const name of ['a', 'b']) first.table('t').set(name, 'id-1', name);
    first.save();
    truncateSync(tableFile(location), Math.floor(readFileSync(tableFile(location)).length / 2));
    const damaged = readFileSync(tableFile(location));
    const second = open(location);
    second.table('t').set('c', 'id-1', 'c');
    second.save();
    expect(readFileSync(tableFile(location)).equals(damaged)).toBe(false);
    expect(existsSync(`${tableFile(location)}.log`)).toBe(false);
    const third = open(location);
    expect([third.table('t').get('c', 'id-1'), third.table('t').get('a', 'id-1')]).toEqual(['c', undefined]);
  });

  /** A table of two entries, written by a first run; its file. */
  const tableOfTwo = (location: string): string => {
    const first = open(location);
    for (const name of ['a', 'b']) first.table('t').set(name, 'id-1', name);
    first.save();
    return tableFile(location);
  };
  /** A whole-second time, which utimes can put back exactly. */
  const PAST = new Date('2020-01-01T00:00:00Z');
  /** Damages `file` in place: the same inode and size, its time set to PAST; the damaged bytes. */
  const damageInPlace = (file: string): Buffer => {
    const bytes = readFileSync(file);
    bytes.write('X', bytes.length - 3, 'latin1');
    writeFileSync(file, bytes);
    utimesSync(file, PAST, PAST);
    return bytes;
  };

  it('is appended to unverified while it is the very file a run wrote or verified; a read still finds it damaged, serves nothing from it and writes it anew', () => {
    const location = tempDir();
    const file = tableOfTwo(location);
    // The next run checks the seal of the file at this time, and notes it.
    utimesSync(file, PAST, PAST);
    const second = open(location);
    second.table('t').set('c', 'id-1', 'c');
    second.save();
    const bytes = damageInPlace(file);
    const third = open(location);
    third.table('t').set('d', 'id-1', 'd');
    third.save();
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(readFileSync(`${file}.log`, 'latin1').split('\n').filter(Boolean)).toHaveLength(2);
    const fourth = open(location);
    expect([fourth.table('t').get('a', 'id-1'), fourth.table('t').get('d', 'id-1')]).toEqual([undefined, undefined]);
    fourth.table('t').set('a', 'id-1', 'a');
    fourth.save();
    expect(readFileSync(tableFile(location)).equals(bytes)).toBe(false);
    expect(open(location).table('t').get('a', 'id-1')).toBe('a');
  });

  it('takes no note of the file verified that another key sealed: the damaged table is written anew, not appended to', () => {
    const location = tempDir();
    const file = tableOfTwo(location);
    const bytes = damageInPlace(file);
    const stat = statSync(file);
    // The note names this very file, but under another key.
    const other: CacheSecret = { key: randomBytes(32), persistent: true, file: '(other)' };
    const note = `${file}.verified`;
    const noted = unsealed(SECRET, `tripwire-facts-table facts-1.0.0\0t\0verified`, readFileSync(note, 'latin1'));
    expect(noted).not.toBeNull();
    writeFileSync(note, sealed(other, `tripwire-facts-table facts-1.0.0\0t\0verified`, `${stat.ino} ${stat.size} ${stat.mtimeMs}`));
    const second = open(location);
    second.table('t').set('c', 'id-1', 'c');
    second.save();
    expect(readFileSync(file).equals(bytes)).toBe(false);
    expect(existsSync(`${file}.log`)).toBe(false);
    expect(open(location).table('t').get('c', 'id-1')).toBe('c');
  });

  it('is written whole when a run sets entries unread and there is no table yet', () => {
    const location = tempDir();
    const first = open(location);
    first.table('t').set('a', 'id-1', 'a');
    first.save();
    expect(existsSync(tableFile(location))).toBe(true);
    expect(existsSync(`${tableFile(location)}.log`)).toBe(false);
    expect(open(location).table('t').get('a', 'id-1')).toBe('a');
  });

  it('appends a few changed entries to a log beside it, and is rewritten, the log gone, once the log outgrows a quarter of it', () => {
    const location = tempDir();
    const first = open(location);
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) first.table('t').set(name, 'id-1', name);
    first.save();
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(tableFile(location), past, past);

    const second = open(location);
    second.table('t').set('a', 'id-2', 'A');
    second.save();
    expect(statSync(tableFile(location)).mtime).toEqual(past);
    expect(existsSync(`${tableFile(location)}.log`)).toBe(true);
    const third = open(location);
    expect([third.table('t').get('a', 'id-2'), third.table('t').get('a', 'id-1'), third.table('t').get('b', 'id-1')]).toEqual(['A', undefined, 'b']);

    // One logged and two more: past a quarter of the eight entries.
    third.table('t').set('c', 'id-2', 'C');
    third.table('t').set('d', 'id-2', 'D');
    third.save(() => true);
    expect(statSync(tableFile(location)).mtime).not.toEqual(past);
    expect(existsSync(`${tableFile(location)}.log`)).toBe(false);
    const fourth = open(location);
    expect(['a', 'b', 'c', 'd'].map((name) => fourth.table('t').get(name, name === 'b' ? 'id-1' : 'id-2'))).toEqual(['A', 'b', 'C', 'D']);
  });

  it('ignores a log line whose MAC does not verify, and rewrites the table without it at the next save', () => {
    const location = tempDir();
    const first = open(location);
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) first.table('t').set(name, 'id-1', name);
    first.save();
    const second = open(location);
    second.table('t').set('a', 'id-2', 'A');
    second.save();
    const log = `${tableFile(location)}.log`;
    writeFileSync(log, readFileSync(log, 'latin1').replace('"A"', '"X"'));

    const third = open(location);
    expect([third.table('t').get('a', 'id-2'), third.table('t').get('a', 'id-1')]).toEqual([undefined, 'a']);
    third.save(() => true);
    expect(existsSync(log)).toBe(false);
    expect(open(location).table('t').get('a', 'id-1')).toBe('a');
  });

  it('treats a table whose MAC does not verify as empty and replaces it at save', () => {
    const location = tempDir();
    const first = open(location);
    first.table('t').set('test/a.test.ts', 'id-1', ['CI']);
    first.save();
    writeFileSync(tableFile(location), readFileSync(tableFile(location), 'latin1').replace('"CI"', '"XX"'));
    const second = open(location);
    expect(second.table('t').get('test/a.test.ts', 'id-1')).toBeUndefined();
    second.table('t').set('test/b.test.ts', 'id-2', []);
    second.save();
    expect(open(location).table('t').get('test/b.test.ts', 'id-2')).toEqual([]);
    expect(open(location).table('t').get('test/a.test.ts', 'id-1')).toBeUndefined();
  });

  it('drops, when it is written whole, the entries neither asked for nor live', () => {
    const location = tempDir();
    const first = open(location);
    for (const [file, id] of [['a', 'live'], ['b', 'dead'], ['c', 'dead']]) first.table('t').set(file ?? '', id ?? '', file);
    first.save();
    const second = open(location);
    expect(second.table('t').get('c', 'dead')).toBe('c');
    // Two new entries of five: too many to append to the log.
    second.table('t').set('d', 'new', 'd');
    second.table('t').set('e', 'new', 'e');
    second.save((id) => id === 'live');
    const third = open(location);
    expect([third.table('t').get('a', 'live'), third.table('t').get('b', 'dead'), third.table('t').get('c', 'dead'), third.table('t').get('d', 'new')]).toEqual(['a', undefined, 'c', 'd']);
  });

  it('reads and writes nothing when the cache is disabled', () => {
    const root = tempDir();
    const cache = openFactCache<Facts>({ root, version: '1', enabled: false, location: root });
    cache.table('t').set('a', 'id', 1);
    expect(cache.table('t').get('a', 'id')).toBeUndefined();
    cache.save();
    expect(readdirSync(root)).toEqual([]);
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
    expect(existsSync(path.join(process.env.HOME, '.cache', 'tripwire', id, 'facts-1.facts'))).toBe(true);
  });
});
