/** Every rule id tripwire knows, in DESIGN.md order. A rule listed here has `rules/<id>.ts` once it lands. */
export const RULE_IDS = [
  'no-paid-calls-in-free-tests',
  'touchfiles-cover-paid-tests',
  'tiers-cover-paid-tests',
  'global-touchfiles-present',
  'no-test-carve-outs',
  'no-dangling-references',
  'no-weakened-frozen-tests',
] as const;

export type RuleId = (typeof RULE_IDS)[number];
