/** The configuration of a small map harness (one touchfile map, its tiers and globals in one module), for the fix tests of both surfaces. */
export const MAP_HARNESS_CONFIG = `{
  "tests": {
    "include": ["test/**/*.test.ts"],
    "paid": ["test/evals/**/*.test.ts"],
    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }],
    "selfGate": [{ "env": "EVALS_TIER" }]
  },
  "maps": {
    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },
    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS" },
    "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES", "require": ["test/helpers/run.ts"] }
  }
}
`;
