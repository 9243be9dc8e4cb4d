/** Every rule id tripwire knows, in DESIGN.md order. Each has `rules/<id>.ts` and `rules/<id>.md`; kept out of `rules/`, which holds only rules, so that `src/` (the config schema) does not depend on it. */
export const RULE_IDS = [
  'no-paid-calls-in-free-tests',
  'touchfiles-cover-paid-tests',
  'tiers-cover-paid-tests',
  'global-touchfiles-present',
  'no-test-carve-outs',
  'no-dangling-references',
  'no-weakened-frozen-tests',
  'paid-ci-lanes',
] as const;

export type RuleId = (typeof RULE_IDS)[number];
