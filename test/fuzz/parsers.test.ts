import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applyBaseline } from '../../src/engine/baseline.js';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfigSync } from '../../src/config/load.js';
import { EMPTY_FROZEN, frozenManifestSchema, parseManifest } from '../../src/config/manifest.js';
import { configSchema } from '../../src/config/schema.js';
import { openFactCache } from '../../src/facts/cache.js';
import { extractMarkdownFacts } from '../../src/facts/extract-markdown.js';
import { extractScriptFacts } from '../../src/facts/extract-script.js';
import { Evaluator } from '../../src/analysis/evaluate.js';
import { RepoModel } from '../../src/model/model.js';

// Issue 16, item 1: every parser-facing part over random and mutated input. The invariant is the same everywhere: a result (a
// finding, a parse error, a value that cannot be evaluated) or the loader's own ConfigError naming the file; never another
// exception. A fixed seed makes a CI failure reproducible; FUZZ_RUNS scales every property (FUZZ_RUNS=10 runs ten times as many
// cases), and FUZZ_SEED replays another seed.
const SCALE = Number(process.env.FUZZ_RUNS ?? '1');
const SEED = Number(process.env.FUZZ_SEED ?? '20261202');
const runs = (n: number): fc.Parameters<unknown> => ({ seed: SEED, numRuns: Math.max(1, Math.round(n * SCALE)), endOnFailure: true });

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Pieces that break tokenizers: unterminated quotes and templates, comment starts, BOM, CRLF, NUL, lone surrogates, control bytes. */
const HOSTILE = ['`', '${', '"', "'", '/*', '*/', '//', '\\', '\uFEFF', '\r\n', '\r', '\0', '\uD800', '\uDFFF', '\u2028', '\x1b', '<', '</', '{', '}', '(', ')', '[', ']', '=>', '@', '#!', '\n- ', '```', '---\n', '> ', '|', '&&'];

const SCRIPT_SEEDS = [
  "import { describe, it, expect } from 'vitest';\nimport OpenAI from 'openai';\ndescribe('x', () => {\n  it.skipIf(!process.env.OPENAI_API_KEY)(`a ${1}`, async () => {\n    expect(await new OpenAI().responses.create({ model: 'm', input: 'x' })).toBeTruthy();\n  });\n});\n",
  "export const MAP = { 'a-b': ['src/**', ...OTHER], [`k${x}`]: [] };\nexport const TIERS = { a: 'gate' } as const satisfies Record<string, string>;\n",
  "const tag = String.raw`\\u{zz}`;\nclass A { @dec() m<T>(x: T): T { return x; } }\nexport default function () { return <div attr={`${1}`}>{/* c */}</div>; }\n",
  "spawnSync('claude', ['-p', prompt], { env: { ...process.env, ANTHROPIC_API_KEY: key } });\nawait fetch(`https://api.openai.com/v1/${path}`);\n",
];

const MARKDOWN_SEEDS = [
  '---\nname: skill\ndescription: "x"\n---\n# Title\n\nRun `npm test` with `EVALS=1`.\n\n```sh\nEVALS=1 bun test test/e2e\n```\n\n[link](../docs/x.md#anchor)\n',
  '- a\n  - b\n    - c\n\n> quote\n> > nested\n\n| a | b |\n|---|---|\n| `x` | [y](z) |\n\n<!-- comment --> <a name="anchor"></a>\n',
];

/** A seed with random hostile pieces inserted, and random spans deleted. */
function mutated(seeds: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(...seeds),
      fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 8, unit: 'binary' }))), { maxLength: 12 }),
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 20 })), { maxLength: 4 }),
    )
    .map(([seed, inserts, deletes]) => {
      let text = seed;
      for (const [at, piece] of inserts) {
        const i = at % (text.length + 1);
        text = text.slice(0, i) + piece + text.slice(i);
      }
      for (const [at, length] of deletes) {
        const i = at % (text.length + 1);
        text = text.slice(0, i) + text.slice(i + length);
      }
      return text;
    });
}

/** Deep nesting of one bracket kind, or one prefix repeated (`- ` for lists, `> ` for quotes). */
function deep(open: readonly string[], close: readonly string[], max: number): fc.Arbitrary<string> {
  return fc.tuple(fc.nat({ max: open.length - 1 }), fc.integer({ min: 1, max })).map(([kind, depth]) => `const x = ${(open[kind] ?? '').repeat(depth)}1${(close[kind] ?? '').repeat(depth)};\n`);
}

function scriptInputs(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: mutated(SCRIPT_SEEDS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 400, unit: 'binary' }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200, unit: 'grapheme-composite' }) },
    { weight: 1, arbitrary: deep(['(', '[', '{a:', '`${'], [')', ']', '}', '}`'], 3000) },
  );
}

describe('fuzz: the script fact extractor', () => {
  it('returns facts for any text, in any script dialect, never throws', () => {
    fc.assert(
      fc.property(scriptInputs(), fc.constantFrom('a.ts', 'b.tsx', 'c.js', 'd.mjs', 'e.cts'), (text, path) => {
        const facts = extractScriptFacts(path, text);
        expect(facts.kind).toBe('script');
        for (const error of facts.parseErrors) expect(error.loc.line).toBeGreaterThanOrEqual(1);
      }),
      runs(3000),
    );
  });
});

describe('fuzz: the Markdown fact extractor', () => {
  it('returns facts for any text, nesting included, never throws', () => {
    const nested = fc.tuple(fc.constantFrom('- ', '> ', '1. ', '  '), fc.integer({ min: 1, max: 400 }), fc.string({ maxLength: 40 })).map(([prefix, depth, tail]) => `${prefix.repeat(depth)}x\n\n${tail}\n`);
    fc.assert(
      fc.property(fc.oneof(mutated(MARKDOWN_SEEDS), fc.string({ maxLength: 400, unit: 'binary' }), nested), (text) => {
        const facts = extractMarkdownFacts(text);
        expect(facts.kind).toBe('markdown');
      }),
      runs(2000),
    );
  });
});

/** Map modules made of the shapes a static evaluator must refuse or follow: spreads, getters, calls, computed keys, cycles. */
const entry = fc.oneof(
  fc.constant("'k': ['src/**']"),
  fc.constant('...OTHER'),
  fc.constant('...MAP'),
  fc.constant('get k() { return []; }'),
  fc.constant('[key]: []'),
  fc.constant('k: make()'),
  fc.constant('k: require("x")'),
  fc.constant('k: eval("[]")'),
  fc.constant('k: new Proxy({}, {})'),
  fc.constant('k: ALIAS'),
  fc.string({ maxLength: 12 }).map((key) => `${JSON.stringify(key)}: [${JSON.stringify(key)}]`),
);

describe('fuzz: the static map evaluator', () => {
  it('evaluates or refuses any map module, cycles and aliases included, never throws', () => {
    const module = fc.tuple(fc.array(entry, { maxLength: 20 }), fc.array(entry, { maxLength: 5 }), fc.integer({ min: 0, max: 400 })).map(
      ([own, other, aliases]) =>
        `const OTHER = { ${other.join(', ')} };\nconst key = 'k';\nconst ALIAS0 = MAP;\n${Array.from({ length: aliases }, (_, i) => `const ALIAS${i + 1} = ALIAS${i};`).join('\n')}\nconst ALIAS = ALIAS${aliases};\nexport const MAP = { ${own.join(', ')} };\n`,
    );
    fc.assert(
      fc.property(module, (text) => {
        const model = new RepoModel({ root: '/nonexistent-fuzz-root', config: configSchema.parse({}), configFile: null, files: ['maps.ts'], overlays: new Map([['maps.ts', text]]), cache: openFactCache({ root: '/nonexistent-fuzz-root', version: 'fuzz', enabled: false }) });
        const result = new Evaluator(model).evaluateRef('maps.ts', { export: 'MAP' });
        expect(result.value !== null || result.errors.length > 0).toBe(true);
      }),
      runs(1500),
    );
  });
});

/** JSONC that is random, or almost a config: prototype keys, wrong types, pathological globs, comments, trailing commas. */
function configTexts(): fc.Arbitrary<string> {
  const key = fc.constantFrom('tests', 'include', 'paid', 'rules', 'maps', '__proto__', 'constructor', 'prototype', 'shipped', 'removed', 'frozen', 'preset', 'x');
  const leaf = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constant('test/?*?*?*?*?*?*x'), fc.constant('**/*.{ts,'));
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
  })).node;
  return fc.oneof(
    value.map((data) => JSON.stringify(data)),
    mutated(['{\n  // c\n  "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/e2e-*.test.ts"], },\n  "rules": { "no-paid-calls-in-free-tests": "warn" }\n}\n']),
    fc.string({ maxLength: 200, unit: 'binary' }),
  );
}

describe('fuzz: the configuration loader', () => {
  it('loads or rejects with ConfigError naming the file, for any tripwire.config.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tripwire-fuzz-config-'));
    temps.push(dir);
    fc.assert(
      fc.property(configTexts(), (text) => {
        writeFileSync(join(dir, 'tripwire.config.json'), text);
        try {
          loadConfigSync({ cwd: dir });
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as ConfigError).message).toContain('tripwire.config.json');
        }
      }),
      runs(1500),
    );
  });
});

describe('fuzz: the freeze manifest and the baseline loaders', () => {
  it('read or reject with ConfigError any manifest text', () => {
    fc.assert(
      fc.property(fc.oneof(configTexts(), mutated(['{\n  "version": 1,\n  "tests": {\n    "test/a.test.ts::x": { "hash": "sha256:00", "assertions": 1, "status": "frozen", "reason": "r", "owner": "o" }\n  }\n}\n'])), (text) => {
        try {
          parseManifest(frozenManifestSchema, '/r', '.tripwire/frozen.json', text, EMPTY_FROZEN);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
        }
      }),
      runs(1500),
    );
  });

  it('applies or rejects with ConfigError any baseline file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tripwire-fuzz-baseline-'));
    temps.push(dir);
    const model = new RepoModel({ root: dir, config: configSchema.parse({}), configFile: null, files: [], cache: openFactCache({ root: dir, version: 'fuzz', enabled: false }) });
    const finding = { ruleId: 'no-paid-calls-in-free-tests', messageId: 'paidImport', file: 'test/a.test.ts', line: 1, column: 1, severity: 'error' as const, message: 'm' };
    fc.assert(
      fc.property(fc.oneof(configTexts(), mutated(['{"version":2,"findings":[{"ruleId":"r","messageId":"m","file":"f","print":"p","count":1}]}'])), (text) => {
        writeFileSync(join(dir, 'baseline.json'), text);
        try {
          applyBaseline(model, [finding], 'baseline.json');
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
        }
      }),
      runs(500),
    );
  });
});
