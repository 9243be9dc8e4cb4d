import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeIdentifiers, tokenOffsets, tokenScanner } from '../../src/analysis/text-scan.js';

/** What scanning for each token in turn finds: [token index, offset], by token, then offset. */
function oneByOne(tokens: readonly string[], line: string): [number, number][] {
  return tokens.flatMap((token, index) => tokenOffsets(line, token).map((offset): [number, number] => [index, offset]));
}

// Few characters, so that tokens and lines collide often: word characters, the hyphen that
// also binds a word, separators, and case for the phrases.
const CHARS = ['a', 'b', 'A', '_', '1', '-', '.', '$', ' ', '/'];
const text = (maxLength: number) => fc.array(fc.constantFrom(...CHARS), { maxLength }).map((chars) => chars.join(''));
const token = text(6).filter((value) => value.trim() !== '' && value === value.trim());
/** Tokens, and a line made of some of them (in another case, with wider spaces) among random text. */
const tokensAndLine = fc.array(token, { minLength: 1, maxLength: 8 }).chain((tokens) => {
  const variant = fc.constantFrom(...tokens).chain((t) => fc.constantFrom(t, t.toUpperCase(), t.toLowerCase(), t.replaceAll(' ', '  ')));
  return fc.tuple(fc.constant(tokens), fc.array(fc.oneof(variant, text(3)), { maxLength: 8 }).map((parts) => parts.join('')));
});

describe('the token scanner', () => {
  it('finds exactly what a scan per token finds, for any tokens and line', () => {
    fc.assert(
      fc.property(tokensAndLine, ([tokens, line]) => {
        expect(tokenScanner(tokens)(line)).toEqual(oneByOne(tokens, line));
      }),
      { seed: 16, numRuns: 5000 },
    );
  });

  it('finds a token by its whole word among 50,000, and not inside a longer word', () => {
    const tokens = Array.from({ length: 50_000 }, (_, index) => `RETIRED_FLAG_${index}`);
    const line = 'Set RETIRED_FLAG_7 and RETIRED_FLAG_70000, not MY-RETIRED_FLAG_8 or RETIRED_FLAG_9x; then RETIRED_FLAG_49999.';
    expect(tokenScanner(tokens)(line)).toEqual([
      [7, 4],
      [49_999, 90],
    ]);
  });

  it('matches a phrase case-insensitively across any run of spaces, as a scan per token does', () => {
    const tokens = ['stipulated by the harness', 'STIPULATE_FIXTURES', '$FIXTURE_DIR'];
    const line = 'Inputs Stipulated  by THE harness; STIPULATE_FIXTURES=1 and $FIXTURE_DIR/x.';
    expect(tokenScanner(tokens)(line)).toEqual([
      [0, 7],
      [1, 35],
      [2, 60],
    ]);
  });
});

describe('the identifiers of a line of code', () => {
  const words = (line: string): string[] => codeIdentifiers(line).map(({ word }) => word);

  it('keeps a call, an import binding and a member access', () => {
    expect(words('outcome(threads, degraded)')).toEqual(['outcome', 'threads', 'degraded']);
    expect(words("import { outcome } from './digest.js';")).toEqual(['import', 'outcome', 'from']);
    expect(words('const verdict = digest.outcome([], true);')).toEqual(['const', 'verdict', 'digest', 'outcome', 'true']);
  });

  it('leaves out quoted keys and the contents of strings', () => {
    expect(words('{"outcome": "merge"}')).toEqual([]);
    expect(words("{ 'outcome': verdict }")).toEqual(['verdict']);
    expect(words('jq -r ".outcome" digest.json')).toEqual(['jq', 'r', 'digest', 'json']);
  });

  it('keeps the code of an interpolation inside a string', () => {
    expect(words('echo "verdict: ${outcome(threads)}"')).toEqual(['echo', 'outcome', 'threads']);
    expect(words('`${outcome([], true)} today`')).toEqual(['outcome', 'true']);
  });

  it('keeps what follows an apostrophe or a quote that does not close on the line', () => {
    expect(words("outcome's verdict")).toEqual(['outcome', 's', 'verdict']);
    expect(words("don't call outcome")).toEqual(['don', 't', 'call', 'outcome']);
    expect(words('"a string cut by the line, then outcome(')).toEqual(['a', 'string', 'cut', 'by', 'the', 'line', 'then', 'outcome']);
  });
});
