import { describe, expect, it } from 'vitest';
import { json } from '../../src/report/json.js';
import type { CheckResult } from '../../src/types.js';
import { checkResult } from './check-result.js';

describe('json', () => {
  it('prints findings and summary in the contract key order', () => {
    expect(json(checkResult)).toMatchInlineSnapshot(`
      "{
        "findings": [
          {
            "ruleId": "touchfiles-cover-paid-tests",
            "messageId": "missingTouchfileEntry",
            "severity": "error",
            "file": "test/helpers/touchfiles.ts",
            "line": 3,
            "column": 1,
            "message": "Touchfile entry \\"src/llm/**\\" matches no file"
          },
          {
            "ruleId": "tiers-cover-paid-tests",
            "messageId": "paidIdWithoutTier",
            "severity": "error",
            "file": "test/helpers/touchfiles.ts",
            "line": 12,
            "column": 3,
            "endLine": 12,
            "endColumn": 19,
            "message": "Paid test \\"checkout flow\\" is in no tier; add it to gate or periodic",
            "related": [
              {
                "file": "test/e2e/checkout.paid.test.ts",
                "line": 4,
                "column": 1,
                "message": "paid test declared here"
              },
              {
                "file": "tiers.json",
                "line": 2
              }
            ]
          },
          {
            "ruleId": "no-paid-calls-in-free-tests",
            "messageId": "paidCall",
            "severity": "warn",
            "file": "test/unit/pricing.test.ts",
            "line": 41,
            "column": 10,
            "endLine": 43,
            "endColumn": 2,
            "message": "Calls openai.chat: 100% of runs hit a paid API\\nMove the call behind the paid tag, or mock it"
          }
        ],
        "summary": {
          "errors": 2,
          "warnings": 1,
          "files": 312,
          "rules": 7,
          "ms": 184
        }
      }
      "
    `);
  });

  it('is one JSON document that round-trips the findings', () => {
    const parsed: unknown = JSON.parse(json(checkResult));
    expect(parsed).toEqual({
      findings: expect.arrayContaining(checkResult.findings),
      summary: checkResult.summary,
    });
  });

  it('keeps the key order whatever order the producer used', () => {
    const shuffled: CheckResult = {
      findings: [{ message: 'm', column: 2, line: 1, file: 'a.ts', severity: 'warn', messageId: 'k', ruleId: 'r' }],
      summary: { ms: 1, rules: 1, files: 1, warnings: 1, errors: 0, suppressed: 0 },
    };
    const output = json(shuffled);
    expect(output.indexOf('"ruleId"')).toBeLessThan(output.indexOf('"severity"'));
    expect(output.indexOf('"column"')).toBeLessThan(output.indexOf('"message"'));
    expect(output.indexOf('"errors"')).toBeLessThan(output.indexOf('"suppressed"'));
  });

  it('prints neither the chain nor the maps coverage that the markdown report draws: the output contract has no such keys', () => {
    const withExtras: CheckResult = {
      findings: [
        {
          ruleId: 'no-paid-calls-in-free-tests',
          messageId: 'paidImport',
          severity: 'error',
          file: 'test/unit/a.test.ts',
          line: 1,
          column: 1,
          message: 'm',
          chain: [{ label: 'test/unit/a.test.ts', file: 'test/unit/a.test.ts', line: 1 }, { label: 'openai', file: 'test/unit/a.test.ts' }],
        },
      ],
      summary: { errors: 1, warnings: 0, files: 1, rules: 7, ms: 1 },
      coverage: { touchfileMaps: ['E2E_TOUCHFILES'], tierMap: 'E2E_TIERS', ids: [{ id: 'x', file: 't.ts', line: 1, touchfile: true, hasTier: true, tier: 'gate' }] },
    };
    const parsed = JSON.parse(json(withExtras)) as { findings: Record<string, unknown>[] };
    expect(Object.keys(parsed)).toEqual(['findings', 'summary']);
    expect(Object.keys(parsed.findings[0] ?? {})).toEqual(['ruleId', 'messageId', 'severity', 'file', 'line', 'column', 'message']);
  });
});
