import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load.js';

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tripwire-config-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function loadError(cwd: string, configFile?: string): Promise<ConfigError> {
  const error: unknown = await loadConfig({ cwd, configFile }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error;
}

describe('loadConfig', () => {
  it('loads tripwire.config.json with comments and trailing commas', async () => {
    const cwd = repo({
      'tripwire.config.json': `{
  // paid suites live next to the free ones
  "tests": { "paid": ["test/e2e-*.test.ts",], },
  /* block comments too */
  "rules": { "no-dangling-references": "warn" },
}
`,
    });
    const loaded = await loadConfig({ cwd });
    expect(loaded.file).toBe(join(cwd, 'tripwire.config.json'));
    expect(loaded.root).toBe(cwd);
    expect(loaded.config.tests.paid).toEqual(['test/e2e-*.test.ts']);
    expect(loaded.config.rules).toEqual({ 'no-dangling-references': 'warn' });
  });

  it('loads tripwire.config.jsonc when tripwire.config.json is absent', async () => {
    const cwd = repo({ 'tripwire.config.jsonc': '{ "ignore": ["vendor/**"] }' });
    const loaded = await loadConfig({ cwd });
    expect(loaded.file).toBe(join(cwd, 'tripwire.config.jsonc'));
    expect(loaded.config.ignore).toEqual(['vendor/**']);
  });

  it('loads the "tripwire" key of package.json', async () => {
    const cwd = repo({
      'package.json': JSON.stringify({ name: 'harness', tripwire: { shipped: { include: ['skills/**/SKILL.md'] } } }),
    });
    const loaded = await loadConfig({ cwd });
    expect(loaded.file).toBe(join(cwd, 'package.json'));
    expect(loaded.config.shipped).toEqual({ include: ['skills/**/SKILL.md'], exclude: [], allow: [], illustrative: ['illustrative'], testTokens: [] });
  });

  it('prefers a config file over the package.json key', async () => {
    const cwd = repo({
      'tripwire.config.json': '{ "frozen": "from-config-file.json" }',
      'package.json': JSON.stringify({ tripwire: { frozen: 'from-package-json.json' } }),
    });
    const loaded = await loadConfig({ cwd });
    expect(loaded.config.frozen).toBe('from-config-file.json');
  });

  it('loads the configFile option relative to cwd, with its directory as root', async () => {
    const cwd = repo({
      'tripwire.config.json': '{ "frozen": "ignored-when-config-file-is-given.json" }',
      'ci/tripwire.ci.json': '{ "frozen": "ci-frozen.json" }',
    });
    const loaded = await loadConfig({ cwd, configFile: 'ci/tripwire.ci.json' });
    expect(loaded.file).toBe(join(cwd, 'ci', 'tripwire.ci.json'));
    expect(loaded.root).toBe(join(cwd, 'ci'));
    expect(loaded.config.frozen).toBe('ci-frozen.json');
  });

  it('fails when the configFile option names a missing file', async () => {
    const cwd = repo({});
    const error = await loadError(cwd, 'missing.json');
    expect(error.message).toBe('missing.json: file not found');
    expect(error.file).toBe(join(cwd, 'missing.json'));
  });

  it('applies the defaults when no configuration exists', async () => {
    const cwd = repo({ 'package.json': '{ "name": "no-tripwire-key" }' });
    const loaded = await loadConfig({ cwd });
    expect(loaded.file).toBeNull();
    expect(loaded.root).toBe(cwd);
    expect(loaded.config).toEqual({
      tests: { include: ['**/*.{test,spec}.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'], paid: [], ids: [], selfGate: [], dynamicIds: [] },
      paid: { modules: [], commands: [], hosts: [], env: [], probeFlags: [] },
      shipped: { include: [], exclude: [], allow: [], illustrative: ['illustrative'], testTokens: [] },
      removed: [],
      frozen: '.tripwire/frozen.json',
      locks: '.tripwire/locks.json',
      baseline: '.tripwire/baseline.json',
      ignore: [],
      limits: { maxFileBytes: 2_097_152 },
      preset: 'recommended',
      rules: {},
    });
  });

  it('does not search parent directories', async () => {
    const parent = repo({ 'tripwire.config.json': '{ "frozen": "parent.json" }', 'packages/app/.keep': '' });
    const loaded = await loadConfig({ cwd: join(parent, 'packages', 'app') });
    expect(loaded.file).toBeNull();
  });

  it('applies nested defaults inside a partial section', async () => {
    const cwd = repo({
      'tripwire.config.json': '{ "tests": { "ids": [{ "call": "runEval" }] }, "maps": { "tiers": { "file": "tiers.json" } } }',
    });
    const { config } = await loadConfig({ cwd });
    expect(config.tests.ids).toEqual([{ call: 'runEval', arg: 0 }]);
    expect(config.maps?.tiers).toEqual({ file: 'tiers.json', values: ['gate', 'periodic'] });
  });

  it('hashes equal configurations equally, whatever their formatting, key order and $schema', async () => {
    const compact = repo({ 'tripwire.config.json': '{"ignore":["a"],"frozen":"f.json"}' });
    const spread = repo({
      'tripwire.config.json': '{\n  "$schema": "./schema.json",\n  // same settings\n  "frozen": "f.json",\n  "ignore": ["a"],\n}\n',
    });
    const [a, b] = await Promise.all([loadConfig({ cwd: compact }), loadConfig({ cwd: spread })]);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).toBe(b.hash);
  });

  it('hashes different configurations differently', async () => {
    const a = await loadConfig({ cwd: repo({ 'tripwire.config.json': '{ "ignore": ["a"] }' }) });
    const b = await loadConfig({ cwd: repo({ 'tripwire.config.json': '{ "ignore": ["b"] }' }) });
    expect(a.hash).not.toBe(b.hash);
  });
});

describe('loadConfig errors', () => {
  it('names an unknown key with its path and the nearest known key', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "tests": { "paidd": ["test/e2e-*.test.ts"] } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe('tripwire.config.json: tests.paidd: unknown key (did you mean "paid"?)');
    expect(error.issues).toEqual([{ path: 'tests.paidd', message: 'unknown key (did you mean "paid"?)' }]);
  });

  it('lists the known keys when an unknown key is near none of them', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "shipped": { "everything": true } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe('tripwire.config.json: shipped.everything: unknown key (known: include, exclude, allow, illustrative, testTokens)');
  });

  it('names a wrong type with its path, what was expected and what was received', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "maps": { "tiers": { "file": "test/helpers/touchfiles.ts", "export": 5 } } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe('tripwire.config.json: maps.tiers.export: expected string, received number');
    expect(error.file).toBe(join(cwd, 'tripwire.config.json'));
  });

  it('shows the value of a number that should be an integer', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "tests": { "ids": [{ "call": "runEval", "arg": 1.5 }] } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe('tripwire.config.json: tests.ids[0].arg: expected integer, received 1.5');
  });

  it('names a missing required key', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "maps": { "tiers": { "export": "E2E_TIERS" } } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe('tripwire.config.json: maps.tiers.file: required (expected string)');
  });

  it('rejects a map reference with both export and path', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "maps": { "globals": { "file": "g.json", "export": "G", "path": "g" } } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe(
      'tripwire.config.json: maps.globals: set either "export" (a TS/JS binding) or "path" (a JSON/YAML dot path), not both',
    );
  });

  it('loads tests.paid as one map reference, or as a list mixing globs and references', async () => {
    const single = await loadConfig({ cwd: repo({ 'tripwire.config.json': '{ "tests": { "paid": { "file": "test/helpers/suites.ts", "export": "PAID_SUITES" } } }' }) });
    expect(single.config.tests.paid).toEqual({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' });
    const mixed = await loadConfig({ cwd: repo({ 'tripwire.config.json': '{ "tests": { "paid": ["test/extra-*.test.ts", { "file": "test/suites.json", "path": "evals.paid" }] } }' }) });
    expect(mixed.config.tests.paid).toEqual(['test/extra-*.test.ts', { file: 'test/suites.json', path: 'evals.paid' }]);
  });

  it('names a wrong type inside a tests.paid reference by its index', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "tests": { "paid": ["test/extra-*.test.ts", { "file": "test/helpers/suites.ts", "export": 5 }] } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe('tripwire.config.json: tests.paid[1].export: expected string, received number');
  });

  it('rejects a tests.paid reference with both export and path', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "tests": { "paid": { "file": "test/suites.json", "export": "PAID", "path": "evals.paid" } } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe('tripwire.config.json: tests.paid: set either "export" (a TS/JS binding) or "path" (a JSON/YAML dot path), not both');
  });

  it('says what tests.paid accepts when a value is neither a glob nor a reference', async () => {
    const bare = await loadError(repo({ 'tripwire.config.json': '{ "tests": { "paid": "test/e2e-*.test.ts" } }' }));
    expect(bare.message).toBe('tripwire.config.json: tests.paid: expected a list of globs and map references, or one map reference { "file", "export" | "path" }, received "test/e2e-*.test.ts"');
    const item = await loadError(repo({ 'tripwire.config.json': '{ "tests": { "paid": ["test/e2e-*.test.ts", 3] } }' }));
    expect(item.message).toBe('tripwire.config.json: tests.paid[1]: expected a glob string or a map reference { "file", "export" | "path" }, received 3');
  });

  it('reports the union member a selfGate entry was closest to', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "tests": { "selfGate": [{ "env": "EVALS_TIER" }, { "call": "describeTier", "arg": -1 }] } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe('tripwire.config.json: tests.selfGate[1].arg: expected a number >= 0, received -1');
  });

  it('reports every union member when a value is equally far from all of them', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "tests": { "selfGate": [{}] } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe(
      'tripwire.config.json: tests.selfGate[0]: expected { "env": string } or { "call": string, "arg"?: integer }, received {}',
    );
  });

  it('names an unknown rule id and lists the known ones', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "rules": { "no-such-rule": "error" } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe(
      'tripwire.config.json: rules.no-such-rule: unknown rule id (known: no-paid-calls-in-free-tests, touchfiles-cover-paid-tests, tiers-cover-paid-tests, global-touchfiles-present, no-test-carve-outs, no-dangling-references, no-weakened-frozen-tests, paid-ci-lanes)',
    );
  });

  it('suggests the rule id a misspelt one is closest to', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "rules": { "no-dangling-reference": "warn" } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe(
      'tripwire.config.json: rules.no-dangling-reference: unknown rule id (did you mean "no-dangling-references"?)',
    );
  });

  it('names a wrong rule severity', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "rules": { "no-test-carve-outs": "warning" } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe(
      'tripwire.config.json: rules.no-test-carve-outs: expected one of "error", "warn", "off", received "warning"',
    );
  });

  it('names a wrong severity inside a [severity, options] tuple', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "rules": { "no-test-carve-outs": ["warning", {}] } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe(
      'tripwire.config.json: rules.no-test-carve-outs[0]: expected one of "error", "warn", "off", received "warning"',
    );
  });

  it('lists every issue, one per line', async () => {
    const cwd = repo({ 'tripwire.config.json': '{ "frozen": 1, "ignore": "vendor/**", "extra": true }' });
    const error = await loadError(cwd);
    expect(error.message).toBe(
      [
        'tripwire.config.json: frozen: expected string, received number',
        'tripwire.config.json: ignore: expected array, received string',
        'tripwire.config.json: extra: unknown key (known: $schema, tests, paid, maps, shipped, removed, frozen, locks, baseline, ignore, limits, preset, rules)',
      ].join('\n'),
    );
  });

  it('prefixes key paths in package.json with the "tripwire" key', async () => {
    const cwd = repo({ 'package.json': '{ "name": "harness", "tripwire": { "tests": { "paidd": [] } } }' });
    const error = await loadError(cwd);
    expect(error.message).toBe('package.json: tripwire.tests.paidd: unknown key (did you mean "paid"?)');
  });

  it("refuses a top-level '__proto__' key, which the JSONC parser would make the prototype of the configuration", async () => {
    const cwd = repo({ 'tripwire.config.json': '{\n  "__proto__": { "rules": { "no-paid-calls-in-free-tests": "off" } }\n}\n' });
    const error = await loadError(cwd);
    expect(error.message).toBe("tripwire.config.json:2:3: __proto__: the key '__proto__' is refused at every level: a JSON parser gives its value to the object's prototype, where it applies unseen; remove it");
    expect(error.issues).toEqual([{ path: '__proto__', message: expect.stringContaining("__proto__: the key '__proto__' is refused"), line: 2, column: 3 }]);
  });

  it('refuses constructor and prototype keys at any depth, naming each key path', async () => {
    const cwd = repo({ 'tripwire.config.json': '{\n  "tests": { "ids": [{ "call": "runEval", "constructor": 1 }] },\n  "rules": { "prototype": "off" }\n}\n' });
    const error = await loadError(cwd);
    expect(error.message.split('\n')).toEqual([
      "tripwire.config.json:2:43: tests.ids[0].constructor: the key 'constructor' is refused at every level: it shadows what every object inherits; rename or remove it",
      "tripwire.config.json:3:14: rules.prototype: the key 'prototype' is refused at every level: it shadows what every object inherits; rename or remove it",
    ]);
  });

  it('refuses a __proto__ key of package.json that would lend it an inherited "tripwire" key, and one inside the "tripwire" key', async () => {
    const inherited = await loadError(repo({ 'package.json': '{ "name": "harness", "__proto__": { "tripwire": { "rules": { "no-paid-calls-in-free-tests": "off" } } } }' }));
    expect(inherited.message).toMatch(/^package\.json:1:22: __proto__: the key '__proto__' is refused/);
    const inside = await loadError(repo({ 'package.json': '{ "name": "harness", "tripwire": { "__proto__": {} } }' }));
    expect(inside.message).toMatch(/^package\.json:1:36: tripwire\.__proto__: the key '__proto__' is refused/);
  });

  it('reads a package.json whose own fields, outside the "tripwire" key, have a key named constructor', async () => {
    const cwd = repo({ 'package.json': '{ "name": "harness", "config": { "constructor": "x" }, "tripwire": { "frozen": "f.json" } }' });
    const loaded = await loadConfig({ cwd });
    expect(loaded.config.frozen).toBe('f.json');
  });

  it('names a JSONC syntax error by file, line and column', async () => {
    const cwd = repo({ 'tripwire.config.json': '{\n  "frozen": "f.json"\n  "locks": "l.json"\n}\n' });
    const error = await loadError(cwd);
    expect(error.message).toBe('tripwire.config.json:3:3: invalid JSONC: comma expected');
    expect(error.issues).toEqual([{ path: '', message: 'invalid JSONC: comma expected', line: 3, column: 3 }]);
  });

  it('names a configuration nested deeper than the parser goes, rather than crashing', async () => {
    // The JSONC parser recurses once per level: 100,000 nested arrays were an internal error with a stack.
    const cwd = repo({ 'tripwire.config.json': `{ "ignore": ${'['.repeat(100_000)}${']'.repeat(100_000)} }` });
    expect((await loadError(cwd)).message).toBe('tripwire.config.json: nested too deeply to parse');
  });
});
