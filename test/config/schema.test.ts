import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderSchema } from '../../src/config/write-schema.js';

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
});
