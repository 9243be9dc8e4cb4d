import { describe, expect, it } from 'vitest';
import { github } from '../../src/report/github.js';
import type { CheckResult } from '../../src/types.js';
import { checkResult } from './check-result.js';

const summary = { errors: 1, warnings: 0, files: 1, rules: 1, ms: 1 };

describe('github', () => {
  it('prints one workflow command per finding', () => {
    expect(github(checkResult)).toMatchInlineSnapshot(`
      "::error file=test/helpers/touchfiles.ts,line=3,col=1,title=touchfiles-cover-paid-tests::Touchfile entry "src/llm/**" matches no file
      ::error file=test/helpers/touchfiles.ts,line=12,col=3,endLine=12,endColumn=19,title=tiers-cover-paid-tests::Paid test "checkout flow" is in no tier; add it to gate or periodic%0A↳ test/e2e/checkout.paid.test.ts:4:1 paid test declared here%0A↳ tiers.json:2
      ::warning file=test/unit/pricing.test.ts,line=41,endLine=43,title=no-paid-calls-in-free-tests::Calls openai.chat: 100%25 of runs hit a paid API%0AMove the call behind the paid tag, or mock it
      "
    `);
  });

  it('escapes `:` and `,` in properties but not in the message', () => {
    const result: CheckResult = {
      findings: [{ ruleId: 'r', messageId: 'm', severity: 'error', file: 'test/a,b:c%.ts', line: 1, column: 1, message: 'x: y, z' }],
      summary,
    };
    expect(github(result)).toBe('::error file=test/a%2Cb%3Ac%25.ts,line=1,col=1,title=r::x: y, z\n');
  });

  it('annotates the whole file when the line is unknown', () => {
    const result: CheckResult = {
      findings: [{ ruleId: 'r', messageId: 'm', severity: 'error', file: 'tiers.json', line: 0, column: 0, message: 'm' }],
      summary,
    };
    expect(github(result)).toBe('::error file=tiers.json,title=r::m\n');
  });

  it('prints nothing when there is nothing to annotate', () => {
    expect(github({ findings: [], summary })).toBe('');
  });
});
