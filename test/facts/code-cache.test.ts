import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceText } from '../../src/util/code-cache.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { temporaryDirs } from '../support/temp.js';

// The compiler's compiled code is kept between runs (src/parse/typescript.ts,
// useCodeCache) in the user's cache directory, sealed with the user's key like
// every cache: compiled code is code. Each case loads the compiler in a fresh
// process (once loaded, it stays), with its own XDG_CACHE_HOME.

const { tempDir: xdg } = temporaryDirs('code-cache');

/** Loads the built compiler in a new process, parses one file, and says what became of the compiled code. */
function load(home: string, on = true): { state: string; statements: number } {
  const script = `
    import { codeCache, parseScript, useCodeCache } from ${JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'dist/src/parse/typescript.js')).href)};
    useCodeCache(${on});
    const file = parseScript('a.ts', 'export const a = 1;\\nexport function b() { return a; }\\n');
    console.log(JSON.stringify({ state: codeCache(), statements: file.statements.length }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: home } })) as { state: string; statements: number };
}

const compiled = (home: string): string[] => readdirSync(join(home, 'tripwire', 'compiled')).map((name) => join(home, 'tripwire', 'compiled', name));

describe('the compiled compiler', () => {
  it('is written by the first run that parses and used by the next', () => {
    const home = xdg();
    expect(load(home)).toEqual({ state: 'created', statements: 2 });
    expect(compiled(home)).toHaveLength(1);
    expect(load(home)).toEqual({ state: 'used', statements: 2 });
  });

  it('forged or cut short, its MAC fails: the compiler compiles from its source and the file is written again', () => {
    const home = xdg();
    load(home);
    const [file = ''] = compiled(home);
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
    writeFileSync(file, bytes);
    expect(load(home)).toEqual({ state: 'created', statements: 2 });
    expect(readFileSync(file).equals(bytes)).toBe(false);
    writeFileSync(file, bytes.subarray(0, 1000));
    expect(load(home)).toEqual({ state: 'created', statements: 2 });
    expect(load(home)).toEqual({ state: 'used', statements: 2 });
  });

  it('off (--no-cache), nothing is read or written', () => {
    const home = xdg();
    expect(load(home, false)).toEqual({ state: 'off', statements: 2 });
    expect(() => compiled(home)).toThrow();
  });

  it('is compiled from its source read as the text it holds: ASCII as Latin-1 (the same text), other bytes as UTF-8', () => {
    const ascii = Buffer.from('const a = "x";\n');
    expect(sourceText(ascii)).toBe('const a = "x";\n');
    // Read as Latin-1, the two bytes of é would be two characters.
    const accented = Buffer.from('const café = "ü";\n', 'utf8');
    expect(sourceText(accented)).toBe('const café = "ü";\n');
    expect(sourceText(accented)).not.toBe(accented.toString('latin1'));
  });
});
