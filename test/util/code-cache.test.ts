import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommonJs } from '../../src/util/code-cache.js';
import { temporaryDirs } from '../support/temp.js';

// A script run from its source with the compiled code an earlier run kept
// (src/util/code-cache.ts), in this process: V8 takes the code it compiled
// itself, under the same flags. Each case has its own cache directory.

const { tempDir } = temporaryDirs('compiled');
let saved: string | undefined;
let home = '';

beforeEach(() => {
  saved = process.env.XDG_CACHE_HOME;
  home = tempDir();
  process.env.XDG_CACHE_HOME = home;
});
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
});

const compiledDir = (): string => join(home, 'tripwire', 'compiled');
const compiled = (): string[] => readdirSync(compiledDir()).sort();

/** A CommonJS script beside a module it requires, exporting what the wrapper gave it. */
function script(text = 'exports.twice = (x) => x * 2;'): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'helper.cjs'), 'module.exports = 21;\n');
  const file = join(dir, 'script.cjs');
  writeFileSync(file, `${text}\nexports.helper = require('./helper.cjs');\nexports.file = __filename;\nexports.dir = __dirname;\n`);
  return file;
}

describe('runCommonJs', () => {
  it('runs the script as require would: its exports, require beside it, __filename and __dirname', () => {
    const file = script();
    const exports = runCommonJs(file, 'probe', false).exports as { twice(x: number): number; helper: number; file: string; dir: string };
    expect(exports.twice(4)).toBe(8);
    expect(exports.helper).toBe(21);
    expect(exports.file).toBe(file);
    expect(exports.dir).toBe(join(file, '..'));
  });

  it('keeps the code once, and a later run uses it without writing it again', () => {
    const file = script();
    const first = runCommonJs(file, 'probe', true);
    expect([first.state(), first.breadth]).toEqual(['missing', -1]);
    first.keep(0);
    expect(first.state()).toBe('created');
    const [kept = ''] = compiled();
    expect(kept).toMatch(/^probe-[0-9a-f]{40}\.bin$/);
    const bytes = readFileSync(join(compiledDir(), kept));

    const second = runCommonJs(file, 'probe', true);
    expect([second.state(), second.breadth]).toEqual(['used', 0]);
    second.keep(0);
    expect(second.state()).toBe('used');
    expect(readFileSync(join(compiledDir(), kept)).equals(bytes)).toBe(true);
  });

  it('keeps the code of a broader run over that of a narrower one', () => {
    const file = script();
    runCommonJs(file, 'probe', true).keep(0);
    const broader = runCommonJs(file, 'probe', true);
    expect(broader.breadth).toBe(0);
    broader.keep(1);
    expect(broader.state()).toBe('created');
    expect(runCommonJs(file, 'probe', true).breadth).toBe(1);
    // A narrower run leaves it.
    const narrower = runCommonJs(file, 'probe', true);
    narrower.keep(0);
    expect([narrower.state(), runCommonJs(file, 'probe', true).breadth]).toEqual(['used', 1]);
  });

  it('off, reads and writes nothing', () => {
    const file = script();
    const run = runCommonJs(file, 'probe', false);
    run.keep(1);
    expect(run.state()).toBe('off');
    expect(() => compiled()).toThrow();
  });

  it('forged, its MAC fails: the script compiles from its source and the code is written again', () => {
    const file = script();
    runCommonJs(file, 'probe', true).keep(1);
    const [kept = ''] = compiled();
    const bytes = readFileSync(join(compiledDir(), kept));
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    writeFileSync(join(compiledDir(), kept), bytes);
    const forged = runCommonJs(file, 'probe', true);
    expect([forged.state(), forged.breadth]).toEqual(['missing', -1]);
    forged.keep(1);
    expect(runCommonJs(file, 'probe', true).state()).toBe('used');
  });

  it('is another file for another script: an edit (same length, V8 checks no more) compiles from the new source', () => {
    const file = script('exports.twice = (x) => x * 2;');
    runCommonJs(file, 'probe', true).keep(1);
    writeFileSync(file, readFileSync(file, 'utf8').replace('x * 2', 'x * 3'));
    // The key is the file's identity (its size, times, inode): a rebuild of the same length is another file.
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const edited = runCommonJs(file, 'probe', true);
    expect(edited.state()).toBe('missing');
    expect((edited.exports as { twice(x: number): number }).twice(4)).toBe(12);
  });

  it('keeps the four newest files of a name, whatever the other names hold', () => {
    const file = script();
    runCommonJs(file, 'other', true).keep(1);
    const old = (i: number): string => join(compiledDir(), `probe-${String(i).repeat(40)}.bin`);
    for (let i = 1; i <= 5; i++) {
      writeFileSync(old(i), 'stale');
      utimesSync(old(i), new Date(1000 * i), new Date(1000 * i));
    }
    runCommonJs(file, 'probe', true).keep(1);
    const names = compiled();
    expect(names.filter((name) => name.startsWith('other-'))).toHaveLength(1);
    const probes = names.filter((name) => name.startsWith('probe-')).map((name) => join(compiledDir(), name));
    // This run's, and the newest three of the others.
    const written = probes.filter((path) => readFileSync(path, 'latin1') !== 'stale');
    expect(written).toHaveLength(1);
    expect(probes.filter((path) => !written.includes(path))).toEqual([old(3), old(4), old(5)]);
  });
});
