import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/index.js';
import type { Value } from '../../src/analysis/evaluate.js';
import { Evaluator } from '../../src/analysis/evaluate.js';
import { makeGitRepo } from '../support/repo.js';

/** Plain JSON of a value, for readable expectations. */
function plain(value: Value | null): unknown {
  if (value === null) return null;
  switch (value.t) {
    case 'arr':
      return value.items.map(plain);
    case 'obj':
      return Object.fromEntries(value.entries.map((entry) => [entry.key, plain(entry.value)]));
    case 'null':
      return null;
    case 'err':
      return `<error: ${value.errors.map((e) => e.message).join('; ')}>`;
    default:
      return value.v;
  }
}

async function evaluate(files: Record<string, string>, file: string, ref: { export?: string; path?: string }) {
  const dir = makeGitRepo(files);
  const { model } = await buildModel({ cwd: dir, cache: false });
  const result = new Evaluator(model).evaluateRef(file, ref);
  return { value: plain(result.value), errors: result.errors.map((e) => `${e.file}:${e.loc.line}:${e.loc.column} ${e.message}`), files: result.files, dir };
}

describe('the static map evaluator', () => {
  it('evaluates literals, spreads, imported constants through re-exports, concatenation, templates and computed keys', async () => {
    const result = await evaluate(
      {
        'maps/index.ts': `export { REVIEW } from './review.js';\n`,
        'maps/review.ts': `import { KEY } from './keys.js';\nexport const REVIEW = { [KEY]: ['src/review/**'] } as const;\n`,
        'maps/keys.ts': `export const KEY = 'review-basic';\n`,
        'touchfiles.ts': [
          `import { REVIEW } from './maps/index.js';`,
          `const SRC = 'src';`,
          `const SHARED = ['test/helpers/run.ts'] as const;`,
          `const SEARCH: Record<string, readonly string[]> = ({ 'search-basic': [...SHARED, SRC + '/search/**'] });`,
          `export const E2E = { ...REVIEW, ...SEARCH, 'summary-basic': [\`\${SRC}/summary/**\`, 3, true] } satisfies Record<string, unknown>;`,
        ].join('\n'),
      },
      'touchfiles.ts',
      { export: 'E2E' },
    );
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual({
      'review-basic': ['src/review/**'],
      'search-basic': ['test/helpers/run.ts', 'src/search/**'],
      'summary-basic': ['src/summary/**', 3, true],
    });
    expect(result.files.sort()).toEqual(['maps/index.ts', 'maps/keys.ts', 'maps/review.ts', 'touchfiles.ts']);
  });

  it('marks a call, a let binding and an unresolved import as errors by name, and keeps the rest', async () => {
    const result = await evaluate(
      {
        'touchfiles.ts': [
          `import { GENERATED } from './missing.js';`,
          `let extra = ['src/extra/**'];`,
          `export const E2E = {`,
          `  'a': buildGlobs('a'),`,
          `  'b': extra,`,
          `  'c': GENERATED,`,
          `  'd': ['src/d/**'],`,
          `};`,
        ].join('\n'),
      },
      'touchfiles.ts',
      { export: 'E2E' },
    );
    // Each bad entry is an error for whoever reads it (the map rules report it at its location).
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual({
      a: '<error: cannot evaluate a call to buildGlobs() statically>',
      b: "<error: 'extra' is a let binding: its value can change at run time; declare it const>",
      c: "<error: 'GENERATED' is imported from './missing.js', which does not resolve: only local files are evaluated>",
      d: ['src/d/**'],
    });
  });

  it('keeps the order in which JavaScript first sets each key, and the last value, across spreads', async () => {
    const result = await evaluate(
      { 'touchfiles.ts': `const MORE = { 'a': ['more/a'], 'b': ['more/b'] };\nexport const E2E = { 'a': ['own/a'], ...MORE, 'b': ['own/b'], 'c': ['own/c'], ...{ 'c': ['last/c'] } };\n` },
      'touchfiles.ts',
      { export: 'E2E' },
    );
    expect(result.errors).toEqual([]);
    expect(Object.entries(result.value ?? {})).toEqual([
      ['a', ['more/a']],
      ['b', ['own/b']],
      ['c', ['last/c']],
    ]);
  });

  it('evaluates a map of 20,000 entries and a list of 20,000 ids in full', async () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `case-${i}`);
    const result = await evaluate(
      { 'touchfiles.ts': `export const E2E = {\n${ids.map((id, i) => `  '${id}': ['src/area-${i % 100}/**'],`).join('\n')}\n};\n` },
      'touchfiles.ts',
      { export: 'E2E' },
    );
    expect(result.errors).toEqual([]);
    const entries = Object.entries(result.value ?? {});
    expect([entries.length, entries[0], entries[19_999]]).toEqual([20_000, ['case-0', ['src/area-0/**']], ['case-19999', ['src/area-99/**']]]);
    expect((await evaluate({ 'ids.ts': `export const IDS = [${ids.map((id) => `'${id}'`).join(', ')}];\n` }, 'ids.ts', { export: 'IDS' })).value).toEqual(ids);
  });

  it('reports a duplicate key, which JavaScript would silently collapse', async () => {
    const result = await evaluate({ 'touchfiles.ts': `export const E2E = {\n  'a': ['x/**'],\n  'a': ['y/**'],\n};\n` }, 'touchfiles.ts', { export: 'E2E' });
    expect(result.errors).toEqual(["touchfiles.ts:3:3 duplicate key 'a' (first at line 2): JavaScript keeps only the last, and the earlier list is silently dropped"]);
  });

  it('reads a dot path of a JSON map with locations, and reports its duplicate keys', async () => {
    const result = await evaluate({ 'maps.json': `{\n  "evals": { "touchfiles": { "judge-tone": ["src/tone/**"], "judge-tone": ["src/x/**"] } }\n}\n` }, 'maps.json', { path: 'evals.touchfiles' });
    expect(result.value).toEqual({ 'judge-tone': ['src/x/**'] });
    expect(result.errors).toEqual(["maps.json:2:61 duplicate key 'judge-tone': only the last one counts"]);
  });

  it('reads a YAML map', async () => {
    const result = await evaluate({ 'maps.yaml': `touchfiles:\n  judge-tone:\n    - src/tone/**\n    - test/judge/**\n` }, 'maps.yaml', { path: 'touchfiles' });
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual({ 'judge-tone': ['src/tone/**', 'test/judge/**'] });
  });

  it('refuses __proto__, constructor and prototype keys in a JSON map, each at its key, and keeps the other entries', async () => {
    const result = await evaluate({ 'maps.json': `{\n  "judge-tone": ["src/tone/**"],\n  "__proto__": ["src/**"],\n  "constructor": ["src/**"]\n}\n` }, 'maps.json', {});
    expect(result.value).toEqual({ 'judge-tone': ['src/tone/**'] });
    expect(result.errors).toEqual([
      "maps.json:3:3 the key '__proto__' is refused at every level: a JSON parser gives its value to the object's prototype, where it applies unseen; remove it",
      "maps.json:4:3 the key 'constructor' is refused at every level: it shadows what every object inherits; rename or remove it",
    ]);
  });

  it('refuses a prototype key nested in a YAML map', async () => {
    const result = await evaluate({ 'maps.yaml': `touchfiles:\n  judge-tone:\n    - src/tone/**\n  prototype:\n    - src/**\n` }, 'maps.yaml', { path: 'touchfiles' });
    expect(result.value).toEqual({ 'judge-tone': ['src/tone/**'] });
    expect(result.errors).toEqual(["maps.yaml:4:3 the key 'prototype' is refused at every level: it shadows what every object inherits; rename or remove it"]);
  });

  it("refuses a '__proto__' key in a TS map, which sets the prototype rather than an entry; a 'constructor' key is an entry there", async () => {
    const result = await evaluate({ 'touchfiles.ts': `export const E2E = {\n  constructor: ['src/a/**'],\n  __proto__: ['src/**'],\n};\n` }, 'touchfiles.ts', { export: 'E2E' });
    expect(result.value).toEqual({ constructor: ['src/a/**'] });
    expect(result.errors).toEqual(["touchfiles.ts:3:3 a '__proto__' key sets the object's prototype, not an entry: rename it"]);
  });

  it('cannot evaluate a YAML map entry whose key is a list or a map, at that key, and keeps the others', async () => {
    const result = await evaluate({ 'maps.yaml': `touchfiles:\n  judge-tone:\n    - src/tone/**\n  ? [judge-a, judge-b]\n  : - src/**\n  ? {name: judge-c}\n  : - src/**\n` }, 'maps.yaml', { path: 'touchfiles' });
    expect(result.value).toEqual({ 'judge-tone': ['src/tone/**'] });
    expect(result.errors).toEqual([
      'maps.yaml:4:5 a key that is not a scalar (a list, a map or an alias used as a key): the entry cannot be evaluated; use a plain string key',
      'maps.yaml:6:5 a key that is not a scalar (a list, a map or an alias used as a key): the entry cannot be evaluated; use a plain string key',
    ]);
  });

  it('names a missing export and a missing path', async () => {
    expect((await evaluate({ 'touchfiles.ts': `export const A = {};\n` }, 'touchfiles.ts', { export: 'E2E' })).errors).toEqual(["touchfiles.ts:1:1 touchfiles.ts has no export 'E2E'"]);
    expect((await evaluate({ 'maps.json': `{ "a": {} }` }, 'maps.json', { path: 'a.touchfiles' })).errors).toEqual(["maps.json:1:8 maps.json has no 'a.touchfiles'"]);
  });

  it('cannot evaluate a const map its module assigns into after the declaration: at the declaration, naming the line', async () => {
    const result = await evaluate({ 'touchfiles.ts': `export const E2E = { basic: ['src/a/**'] };\nE2E.basic = [];\n` }, 'touchfiles.ts', { export: 'E2E' });
    expect(result.value).toBeNull();
    expect(result.errors).toEqual(["touchfiles.ts:1:14 'E2E' is mutated at line 2: `E2E.basic = …` changes it after its declaration, so its literal is not its value at run time; build the whole value in the declaration"]);
  });

  it('counts delete, Object.assign, a method that changes an array and ++ inside a function as mutations', async () => {
    const mutations = ['delete E2E.basic;', 'Object.assign(E2E, { extra: [] });', "E2E.basic.push('src/b/**');", 'function bump() { (E2E as any).count++; }', "Reflect.set(E2E, 'basic', []);"];
    const messages: string[] = [];
    for (const mutation of mutations) {
      const result = await evaluate({ 'touchfiles.ts': `export const E2E = { basic: ['src/a/**'] };\n${mutation}\n` }, 'touchfiles.ts', { export: 'E2E' });
      messages.push(...result.errors.map((error) => error.replace(/: `(.*)` changes it.*$/, ' $1')));
    }
    expect(messages).toEqual([
      "touchfiles.ts:1:14 'E2E' is mutated at line 2 delete E2E.basic",
      "touchfiles.ts:1:14 'E2E' is mutated at line 2 Object.assign(E2E, …)",
      "touchfiles.ts:1:14 'E2E' is mutated at line 2 E2E.basic.push(…)",
      "touchfiles.ts:1:14 'E2E' is mutated at line 2 (E2E as any).count++",
      "touchfiles.ts:1:14 'E2E' is mutated at line 2 Reflect.set(E2E, …)",
    ]);
  });

  it('cannot evaluate a map whose spread source, or an alias of it, is mutated: at the spread, or at the declaration', async () => {
    const spread = await evaluate({ 'touchfiles.ts': `const BASE = { basic: ['src/a/**'] };\nexport const E2E = { ...BASE };\nBASE.basic = [];\n` }, 'touchfiles.ts', { export: 'E2E' });
    expect(spread.errors).toEqual(["touchfiles.ts:2:25 'BASE' is mutated at line 3: `BASE.basic = …` changes it after its declaration, so its literal is not its value at run time; build the whole value in the declaration"]);
    const alias = await evaluate({ 'touchfiles.ts': `export const E2E = { basic: ['src/a/**'] };\nconst BASIC = E2E.basic;\nBASIC.length = 0;\n` }, 'touchfiles.ts', { export: 'E2E' });
    expect(alias.errors).toEqual(["touchfiles.ts:1:14 'E2E' is mutated at line 3 (through 'BASIC', which holds it): `BASIC.length = …` changes it after its declaration, so its literal is not its value at run time; build the whole value in the declaration"]);
  });

  it('evaluates a map whose module only writes into copies, shadowing names, or values built from it', async () => {
    const result = await evaluate(
      {
        'touchfiles.ts': [
          `export const E2E = { basic: ['src/a/**'] };`,
          `const copy = { ...E2E };`,
          `copy.basic = [];`,
          `const sorted = [...E2E.basic].sort();`,
          `function reset(E2E: Record<string, string[]>) { E2E.basic = []; }`,
          `for (const E2E of [{ x: 1 }]) E2E.x = 2;`,
          `Object.keys(E2E).slice().reverse();`,
        ].join('\n'),
      },
      'touchfiles.ts',
      { export: 'E2E' },
    );
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual({ basic: ['src/a/**'] });
  });

  it('never runs the map: a file that would write a file and exit on import is only read', async () => {
    const result = await evaluate(
      {
        'touchfiles.ts': [
          `import { writeFileSync } from 'node:fs';`,
          `writeFileSync('ran.txt', 'the map was executed');`,
          `process.exit(3);`,
          `export const E2E = { 'a': ['src/a/**'] };`,
        ].join('\n'),
      },
      'touchfiles.ts',
      { export: 'E2E' },
    );
    expect(result.value).toEqual({ a: ['src/a/**'] });
    expect(existsSync(join(result.dir, 'ran.txt'))).toBe(false);
  });
});

/** `const m0 = { 'a': [...] };`, then `const mN = link(mN-1);` up to `length`, exported as E2E. */
function chainedMap(length: number, link: (previous: string) => string): string {
  const lines = [`const m0 = { 'a': ['src/a/**'] };`];
  for (let i = 1; i <= length; i++) lines.push(`const m${i} = ${link(`m${i - 1}`)};`);
  lines.push(`export const E2E = m${length};`);
  return `${lines.join('\n')}\n`;
}

describe('a map nested deeper than the evaluator follows', () => {
  // Each reference followed costs several stack frames: ~1000 chained spreads or ~1500 chained
  // aliases exhausted the stack, and the RangeError ended the whole run.
  it('is one error at the reference where the chain is cut, for 1000 chained spreads', async () => {
    const result = await evaluate({ 'touchfiles.ts': chainedMap(1000, (previous) => `{ ...${previous} }`) }, 'touchfiles.ts', { export: 'E2E' });
    expect(result.errors).toEqual(["touchfiles.ts:903:19 'm901' is nested too deeply: a chain of more than 100 constants (aliases, spreads, imports) is not followed"]);
    expect(result.value).toEqual({});
  });

  it('is one error at the reference where the chain is cut, for 1500 chained aliases', async () => {
    const result = await evaluate({ 'touchfiles.ts': chainedMap(1500, (previous) => previous) }, 'touchfiles.ts', { export: 'E2E' });
    expect(result.errors).toEqual(["touchfiles.ts:1403:15 'm1401' is nested too deeply: a chain of more than 100 constants (aliases, spreads, imports) is not followed"]);
    expect(result.value).toBeNull();
  });

  it('evaluates a chain of 50 spreads and of 50 aliases in full', async () => {
    const spreads = await evaluate({ 'touchfiles.ts': chainedMap(50, (previous) => `{ ...${previous} }`) }, 'touchfiles.ts', { export: 'E2E' });
    const aliases = await evaluate({ 'touchfiles.ts': chainedMap(50, (previous) => previous) }, 'touchfiles.ts', { export: 'E2E' });
    expect([spreads.errors, spreads.value]).toEqual([[], { a: ['src/a/**'] }]);
    expect([aliases.errors, aliases.value]).toEqual([[], { a: ['src/a/**'] }]);
  });

  it('is one error at the file for a JSON map nested deeper than its parser goes', async () => {
    const result = await evaluate({ 'maps.json': `{ "touchfiles": ${'['.repeat(100_000)}${']'.repeat(100_000)} }\n` }, 'maps.json', { path: 'touchfiles' });
    expect(result.errors).toEqual(['maps.json:1:1 nested too deeply to evaluate (ran out of stack)']);
    expect(result.value).toBeNull();
  });
});
