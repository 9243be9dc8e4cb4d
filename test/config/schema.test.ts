import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderSchema } from '../../src/config/json-schema.js';

describe('schema.json', () => {
  it('equals the schema generated from configSchema', () => {
    const file = fileURLToPath(new URL('../../schema.json', import.meta.url));
    const onDisk = existsSync(file) ? readFileSync(file, 'utf8') : '';
    expect(onDisk, 'schema.json is stale: run `npm run schema` and commit the result').toBe(renderSchema());
  });

  it('offers each rule id as a property, for editor completion', () => {
    const schema: unknown = JSON.parse(renderSchema());
    expect(schema).toMatchObject({
      properties: {
        rules: {
          properties: { 'no-dangling-references': { $ref: '#/$defs/ruleSetting' } },
          additionalProperties: false,
        },
      },
    });
  });

  it('accepts each form of tests.paid, and rejects a reference with both export and path', () => {
    const validate = new Ajv2020.default({ strict: false }).compile(JSON.parse(renderSchema()));
    const accepts = (paid: unknown): boolean => validate({ tests: { paid } });
    expect(accepts(['test/e2e-*.test.ts'])).toBe(true);
    expect(accepts({ file: 'test/helpers/suites.ts', export: 'PAID_SUITES' })).toBe(true);
    expect(accepts({ file: 'test/suites.json', path: 'evals.paid' })).toBe(true);
    expect(accepts(['test/extra-*.test.ts', { file: 'test/helpers/suites.ts', export: 'PAID_SUITES' }])).toBe(true);
    expect(accepts({ file: 'test/suites.json', export: 'PAID', path: 'evals.paid' })).toBe(false);
    expect(accepts(['test/e2e-*.test.ts', { file: 'test/helpers/suites.ts', exprt: 'PAID_SUITES' }])).toBe(false);
    expect(accepts('test/e2e-*.test.ts')).toBe(false);
  });
});
