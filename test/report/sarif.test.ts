import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import type { Log } from 'sarif';
import { describe, expect, it } from 'vitest';
import { sarif } from '../../src/report/sarif.js';
import type { CheckResult } from '../../src/types.js';
import sarifSchema from '../schemas/sarif-2.1.0.json' with { type: 'json' };
import { checkResult, reportOptions } from './check-result.js';

// Both packages are CommonJS with `exports.default`; under NodeNext the default import is `module.exports`.
// strictRequired only lints schema authoring; the official schema's `anyOf: [{ required: [...] }]` trips it.
const ajv = new AjvDraft04.default({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
ajvFormats.default(ajv);
const validate = ajv.compile(sarifSchema);

function validationErrors(document: unknown): unknown[] {
  return validate(document) ? [] : (validate.errors ?? []);
}

function parse(text: string): unknown {
  return JSON.parse(text);
}

function parseLog(text: string): Log {
  return JSON.parse(text);
}

describe('sarif', () => {
  it('validates against the SARIF 2.1.0 schema', () => {
    expect(validationErrors(parse(sarif(checkResult, reportOptions)))).toEqual([]);
  });

  it('fails validation for a broken log, so the validator is not vacuous', () => {
    const log = parseLog(sarif(checkResult, reportOptions));
    const [run] = log.runs;
    const [first, ...rest] = run?.results ?? [];
    const broken = { ...log, runs: [{ ...run, results: [{ ...first, level: 'fatal' }, ...rest] }] };
    expect(validationErrors(broken)).toContainEqual(expect.objectContaining({ keyword: 'enum', instancePath: '/runs/0/results/0/level' }));
    expect(validationErrors({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).not.toEqual([]);
  });

  it('describes the tool and every configured rule', () => {
    const log = parseLog(sarif(checkResult, reportOptions));
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.tool.driver).toMatchObject({ name: 'tripwire', version: '0.1.0' });
    expect(log.runs[0]?.tool.driver.rules).toEqual([
      {
        id: 'no-paid-calls-in-free-tests',
        shortDescription: { text: 'Free tests must not call paid LLM APIs' },
        helpUri: 'https://example.test/rules/no-paid-calls-in-free-tests',
        defaultConfiguration: { enabled: true, level: 'warning' },
      },
      {
        id: 'touchfiles-cover-paid-tests',
        shortDescription: { text: 'Every paid test is covered by a touchfile entry' },
        helpUri: 'https://example.test/rules/touchfiles-cover-paid-tests',
        defaultConfiguration: { enabled: true, level: 'error' },
        messageStrings: { missingTouchfileEntry: { text: 'A paid test id has no touchfile entry.' } },
      },
      {
        id: 'tiers-cover-paid-tests',
        shortDescription: { text: 'Every paid test belongs to a tier' },
        helpUri: 'https://example.test/rules/tiers-cover-paid-tests',
        defaultConfiguration: { enabled: true },
      },
    ]);
    expect(log.runs[0]?.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: 'file:///work/demo-repo/' } });
  });

  it('maps findings to results with regions and related locations', () => {
    const log = parseLog(sarif(checkResult, reportOptions));
    expect(log.runs[0]?.results).toMatchInlineSnapshot(`
      [
        {
          "level": "error",
          "locations": [
            {
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "test/helpers/touchfiles.ts",
                  "uriBaseId": "%SRCROOT%",
                },
                "region": {
                  "startColumn": 1,
                  "startLine": 3,
                },
              },
            },
          ],
          "message": {
            "text": "Touchfile entry "src/llm/**" matches no file",
          },
          "properties": {
            "messageId": "missingTouchfileEntry",
          },
          "ruleId": "touchfiles-cover-paid-tests",
          "ruleIndex": 1,
        },
        {
          "level": "error",
          "locations": [
            {
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "test/helpers/touchfiles.ts",
                  "uriBaseId": "%SRCROOT%",
                },
                "region": {
                  "endColumn": 19,
                  "endLine": 12,
                  "startColumn": 3,
                  "startLine": 12,
                },
              },
            },
          ],
          "message": {
            "text": "Paid test "checkout flow" is in no tier; add it to gate or periodic",
          },
          "properties": {
            "messageId": "paidIdWithoutTier",
          },
          "relatedLocations": [
            {
              "id": 0,
              "message": {
                "text": "paid test declared here",
              },
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "test/e2e/checkout.paid.test.ts",
                  "uriBaseId": "%SRCROOT%",
                },
                "region": {
                  "startColumn": 1,
                  "startLine": 4,
                },
              },
            },
            {
              "id": 1,
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "tiers.json",
                  "uriBaseId": "%SRCROOT%",
                },
                "region": {
                  "startLine": 2,
                },
              },
            },
          ],
          "ruleId": "tiers-cover-paid-tests",
          "ruleIndex": 2,
        },
        {
          "level": "warning",
          "locations": [
            {
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "test/unit/pricing.test.ts",
                  "uriBaseId": "%SRCROOT%",
                },
                "region": {
                  "endColumn": 2,
                  "endLine": 43,
                  "startColumn": 10,
                  "startLine": 41,
                },
              },
            },
          ],
          "message": {
            "text": "Calls openai.chat: 100% of runs hit a paid API
      Move the call behind the paid tag, or mock it",
          },
          "properties": {
            "messageId": "paidCall",
          },
          "ruleId": "no-paid-calls-in-free-tests",
          "ruleIndex": 0,
        },
      ]
    `);
  });

  it('stays valid for unknown lines, odd paths and unlisted rules', () => {
    const result: CheckResult = {
      findings: [
        { ruleId: 'global-touchfiles-present', messageId: 'emptyGlobals', severity: 'error', file: 'tripwire.config.json', line: 0, column: 0, message: '' },
        {
          ruleId: 'tiers-cover-paid-tests', messageId: 'paidIdWithoutTier',
          severity: 'warn',
          file: 'test/my dir/a#b:c.ts',
          line: 5,
          column: 0,
          endLine: 2,
          endColumn: 0,
          message: 'm',
          related: [
            { file: 'x.ts', line: 0 },
            { file: 'x.ts', line: 0 },
          ],
        },
      ],
      summary: { errors: 1, warnings: 1, files: 2, rules: 7, ms: 3 },
    };
    const output = sarif(result, { ...reportOptions, rules: [...reportOptions.rules, ...reportOptions.rules] });
    expect(validationErrors(parse(output))).toEqual([]);
    const log = parseLog(output);
    const [oddPath, unknownLine] = log.runs[0]?.results ?? [];
    expect(unknownLine?.ruleIndex).toBeUndefined();
    expect(unknownLine?.locations?.[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'tripwire.config.json', uriBaseId: '%SRCROOT%' },
    });
    expect(oddPath?.ruleIndex).toBe(2);
    expect(oddPath?.locations?.[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'test/my%20dir/a%23b%3Ac.ts', uriBaseId: '%SRCROOT%' },
      region: { startLine: 5 },
    });
    expect(log.runs[0]?.tool.driver.rules).toHaveLength(3);
  });
});
