import type { JSONSchema4 } from 'json-schema';
import { describe, expect, it } from 'vitest';
import tripwire from '../../src/index.js';
import { rules } from '../../rules/index.js';

// eslint-plugin-eslint-plugin checks a rule module's source; ours are generated from rules/*.ts
// (src/eslint/rules.ts), so its rule-side requirements are checked here on the generated modules.

/** Every object schema in `schema`, nested ones included. */
function objectSchemas(schema: JSONSchema4): JSONSchema4[] {
  if (schema.type !== 'object') return [];
  return [schema, ...Object.values(schema.properties ?? {}).flatMap(objectSchemas)];
}

describe.each(rules.map((rule) => [rule.id, rule] as const))('the ESLint module of %s', (id, rule) => {
  const module = tripwire.rules[id];

  it('is registered under its id', () => {
    expect(module).toBeDefined();
  });

  it('has a type, a description and the docs URL derived from its id (require-meta-type, require-meta-docs-*)', () => {
    expect(module?.meta?.type).toBe('problem');
    expect(module?.meta?.docs?.description).toBe(rule.meta.description);
    expect(module?.meta?.docs?.description).not.toMatch(/^(?:enforce|require|disallow)s? /i);
    expect(module?.meta?.docs?.url).toBe(`https://github.com/tripwire-lint/tripwire/blob/main/rules/${id}.md`);
  });

  it('declares a message for every message id and fix the rule reports, and nothing else (no-missing-message-ids, no-unused-message-ids)', () => {
    const expected = [...Object.keys(rule.meta.messages), 'suppressionWithoutReason', 'invalidConfig', ...Object.keys(rule.meta.fixes ?? {})].sort();
    expect(Object.keys(module?.meta?.messages ?? {}).sort()).toEqual(expected);
  });

  it('has suggestions exactly when the rule attaches fixes (require-meta-has-suggestions)', () => {
    expect(module?.meta?.hasSuggestions).toBe(rule.meta.fixes ? true : undefined);
  });

  it('takes one options object that rejects unknown keys and describes every key (require-meta-schema, require-meta-schema-description)', () => {
    const schema = module?.meta?.schema;
    expect(Array.isArray(schema) && schema.length === 1).toBe(true);
    const [options] = schema as JSONSchema4[];
    const objects = objectSchemas(options ?? {});
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      for (const [key, property] of Object.entries(object.properties ?? {})) expect([key, typeof property.description]).toEqual([key, 'string']);
    }
  });

  it('has no meta.defaultOptions: options given in the ESLint config replace tripwire.config.json, so a default there would hide the config', () => {
    expect(module?.meta?.defaultOptions).toBeUndefined();
  });
});
