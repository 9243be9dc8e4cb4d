import { describe, expect, it } from 'vitest';
import { report, REPORTER_NAMES, shouldColor } from '../../src/report/index.js';
import { stylish } from '../../src/report/stylish.js';
import { checkResult, reportOptions } from './check-result.js';

describe('stylish', () => {
  it('groups by sorted file, aligns columns and prints related locations', () => {
    expect(stylish(checkResult, reportOptions)).toMatchInlineSnapshot(`
      "test/helpers/touchfiles.ts
         3:1  error  Touchfile entry "src/llm/**" matches no file                         touchfiles-cover-paid-tests
        12:3  error  Paid test "checkout flow" is in no tier; add it to gate or periodic  tiers-cover-paid-tests
          ↳ test/e2e/checkout.paid.test.ts:4:1 paid test declared here
          ↳ tiers.json:2

      test/unit/pricing.test.ts
        41:10  warning  Calls openai.chat: 100% of runs hit a paid API  no-paid-calls-in-free-tests
                        Move the call behind the paid tag, or mock it

      ✖ 3 problems (2 errors, 1 warning)
      "
    `);
  });

  it('prints the nothing-found line with counts and time', () => {
    const clean = { findings: [], summary: { errors: 0, warnings: 0, files: 1, rules: 7, ms: 12.4 } };
    expect(stylish(clean, reportOptions)).toMatchInlineSnapshot(`
      "✔ no problems (1 file, 7 rules, 12ms)
      "
    `);
  });

  it('says how many findings were suppressed', () => {
    const summary = { ...checkResult.summary, suppressed: 4 };
    const lastLine = stylish({ ...checkResult, summary }, reportOptions).trimEnd().split('\n').at(-1);
    expect(lastLine).toBe('✖ 3 problems (2 errors, 1 warning), 4 suppressed');
  });

  it('colors only when asked', () => {
    const colored = stylish(checkResult, { ...reportOptions, color: true });
    expect(colored).toContain('\u001b[31merror\u001b[39m');
    expect(colored).toContain('\u001b[33mwarning\u001b[39m');
    expect(stylish(checkResult, reportOptions)).not.toContain('\u001b[');
  });
});

describe('shouldColor', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };

  it('follows the stream when the environment is silent', () => {
    expect(shouldColor(tty, {})).toBe(true);
    expect(shouldColor(pipe, {})).toBe(false);
  });

  it('honours NO_COLOR only when non-empty', () => {
    expect(shouldColor(tty, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor(tty, { NO_COLOR: '' })).toBe(true);
  });

  it('lets FORCE_COLOR override the stream and NO_COLOR', () => {
    expect(shouldColor(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColor(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(shouldColor(tty, { FORCE_COLOR: '0', NO_COLOR: '' })).toBe(false);
    expect(shouldColor(tty, { FORCE_COLOR: 'false' })).toBe(false);
    expect(shouldColor(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
  });

  it('turns colors off for a dumb terminal', () => {
    expect(shouldColor(tty, { TERM: 'dumb' })).toBe(false);
  });
});

describe('report', () => {
  it('loads every reporter by name', async () => {
    for (const name of REPORTER_NAMES) {
      const output = await report(name, checkResult, reportOptions);
      expect(output.endsWith('\n'), name).toBe(true);
    }
  });

  it('returns what the named reporter returns', async () => {
    expect(await report('stylish', checkResult, reportOptions)).toBe(stylish(checkResult, reportOptions));
  });
});
