import * as z from 'zod';
import { RULE_IDS } from '../rule-ids.js';
import type { SeveritySetting } from '../types.js';

export { CONFIG_FILE_NAMES, PACKAGE_JSON_KEY } from './names.js';

export const PRESET_NAMES = ['recommended', 'strict'] as const;

export const SEVERITY_SETTINGS = ['error', 'warn', 'off'] as const satisfies readonly SeveritySetting[];

const name = () => z.string().min(1);
const strings = (description: string) => z.array(name()).default([]).meta({ description });

// One object with a refinement rather than a union of `{ file, export }` and `{ file, path }`:
// zod returns only the union member whose sole failure is an unknown key, so `"export": 5`
// would be reported as `unknown key "export"` instead of `expected string, received number`.
const mapRefShape = {
  /** @example "test/helpers/touchfiles.ts" */
  file: name().meta({ description: 'The map file (TS/JS, JSON or YAML), relative to the config file.' }),
  /** @example "E2E_TOUCHFILES" */
  export: name().optional().meta({ description: 'The exported binding that holds the map, in a TS/JS file.' }),
  /** @example "evals.touchfiles" */
  path: name()
    .optional()
    .meta({ description: 'Dot path to the map inside a JSON/YAML file; omit it for the whole document.' }),
};
const exportOrPath = (ref: { export?: string; path?: string }) => ref.export === undefined || ref.path === undefined;
const exportOrPathError = {
  message: 'set either "export" (a TS/JS binding) or "path" (a JSON/YAML dot path), not both',
};
// Editors cannot run the refinement, so schema.json says the same thing.
const exportOrPathMeta = { not: { required: ['export', 'path'] } };

const touchfilesRef = z
  .strictObject(mapRefShape)
  .refine(exportOrPath, exportOrPathError)
  .meta({ description: 'A map from paid test id to the globs of the files whose change selects it.', ...exportOrPathMeta });

const paidListRef = z
  .strictObject({
    /** @example "test/helpers/suites.ts" */
    file: name().meta({ description: 'The file that holds the list (TS/JS, JSON or YAML), relative to the config file.' }),
    /** @example "PAID_SUITES" */
    export: name().optional().meta({ description: 'The exported binding that holds the list, in a TS/JS file.' }),
    /** @example "evals.paid" */
    path: name().optional().meta({ description: 'Dot path to the list inside a JSON/YAML file; omit it for the whole document.' }),
  })
  .refine(exportOrPath, exportOrPathError)
  .meta({
    id: 'paidListRef',
    description: "The repository's own list of paid globs: an exported array of string literals (TS/JS) or a list in a JSON/YAML file, read statically.",
    ...exportOrPathMeta,
  });

const paidEntry = z.union([name(), paidListRef], {
  error: 'expected a glob string or a map reference { "file", "export" | "path" }',
});

const testIdSchema = z.strictObject({
  /** @example "runEval" */
  call: name().meta({ description: 'The function whose call declares a paid test.' }),
  /** @example 0 */
  arg: z.int().min(0).default(0).meta({ description: 'Index of the argument that holds the test id.' }),
  /** @example "name" */
  property: name()
    .optional()
    .meta({ description: 'When that argument is an object, the property that holds the id.' }),
});

const selfGateSchema = z.union(
  [
    z.strictObject({
      /** @example "EVALS_TIER" */
      env: name().meta({ description: 'Environment variable a test file compares with a tier name.' }),
    }),
    z.strictObject({
      /** @example "describeTier" */
      call: name().meta({ description: 'Helper whose call gates a test file on a tier.' }),
      /** @example 0 */
      arg: z.int().min(0).default(0).meta({ description: 'Index of the argument that names the tier.' }),
    }),
  ],
  { error: 'expected { "env": string } or { "call": string, "arg"?: integer }' },
);

const dynamicIdSchema = z.strictObject({
  /** @example "test/evals/generated-cases.test.ts" */
  file: name().meta({ description: 'Glob of the paid test files whose ids are built at run time.' }),
  /** @example "One case per row of the dataset; the whole file is selected by its touchfile registration." */
  reason: name().meta({ description: 'Why these ids cannot be constants, and how the file is selected instead; required.' }),
});

const testsSchema = z.strictObject({
  /** @example ["test/**\/*.test.ts"] */
  include: z
    .array(name())
    .default(['**/*.{test,spec}.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'])
    .meta({ description: 'Globs of every test file, relative to the config file.' }),
  /** @example ["test/e2e-*.test.ts", { "file": "test/helpers/suites.ts", "export": "PAID_SUITES" }] */
  paid: z
    .union([paidListRef, z.array(paidEntry)], {
      error: 'expected a list of globs and map references, or one map reference { "file", "export" | "path" }',
    })
    .default([])
    .meta({
      description:
        'Globs of the paid test files, or references to where the repository lists them (each evaluated statically to a list of globs); the free ones are `include` minus `paid`.',
    }),
  /** @example [{ "call": "runEval", "arg": 0, "property": "name" }, { "call": "describeIfSelected" }] */
  ids: z
    .array(testIdSchema)
    .default([])
    .meta({ description: 'How a paid test declares its id, the key of the touchfile and tier maps.' }),
  /** @example [{ "env": "EVALS_TIER" }, { "call": "describeTier", "arg": 0 }] */
  selfGate: z
    .array(selfGateSchema)
    .default([])
    .meta({ description: 'How a paid test file gates itself on a tier; it must agree with the declared tier.' }),
  /** @example [{ "file": "test/evals/generated-cases.test.ts", "reason": "one case per dataset row" }] */
  dynamicIds: z
    .array(dynamicIdSchema)
    .default([])
    .meta({ description: 'Paid test files whose ids are intentionally dynamic: a test id there that cannot be evaluated statically is not a finding. Each needs its reason.' }),
});

const paidSchema = z.strictObject({
  /** @example ["@acme/llm-sdk"] */
  modules: strings('Module specifiers whose import is a paid call (model SDKs).'),
  /** @example ["acme-cli"] */
  commands: strings('Executables whose spawn is a paid call (model CLIs).'),
  /** @example ["api.acme.ai"] */
  hosts: strings('Hosts whose request is a paid call (metered APIs).'),
  /** @example ["ACME_API_KEY"] */
  env: strings('Environment variables that grant paid access (API keys).'),
  /** @example ["--version"] */
  probeFlags: strings('Flags that make a spawn of a paid command a free probe (`--version`, `--help`).'),
});

const mapsSchema = z.strictObject({
  /** @example [{ "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" }] */
  touchfiles: z
    .union([touchfilesRef, z.array(touchfilesRef).min(1)], {
      error: 'expected a map reference { "file", "export" | "path" } or a non-empty array of them',
    })
    .optional()
    .meta({ description: 'Where the touchfile map lives; several references are merged.' }),
  /** @example { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS", "values": ["gate", "periodic"] } */
  tiers: z
    .strictObject({
      ...mapRefShape,
      /** @example ["gate", "periodic"] */
      values: z.array(name()).min(1).default(['gate', 'periodic']).meta({ description: 'The allowed tiers.' }),
      /** @example ["E2E_TOUCHFILES"] */
      covers: z
        .array(name())
        .optional()
        .meta({
          description:
            'The touchfile maps whose keys the tier map must equal, by export name (or `file#path` for JSON/YAML); default: all of them. A judge map tiered by its CI lane can be left out.',
        }),
    })
    .refine(exportOrPath, exportOrPathError)
    .optional()
    .meta({ description: 'A map from paid test id to its tier.', ...exportOrPathMeta }),
  /** @example { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES", "require": ["test/helpers/run.ts"] } */
  globals: z
    .strictObject({
      ...mapRefShape,
      /** @example ["test/helpers/run.ts", "test/helpers/store.ts"] */
      require: strings('Files the global list must name (the shared runner, the result store).'),
      /** @example "map-diff" */
      selfReference: z
        .enum(['listed', 'map-diff'])
        .default('listed')
        .meta({
          description:
            '"listed": the global list names the selection map itself, so any edit to the map selects every paid test. "map-diff": the map stays out of the list on purpose; `tripwire select` diffs the map at the merge base against the map now, key by key, and an edit selects only the keys whose entries (globs or tier) changed.',
        }),
    })
    .refine(exportOrPath, exportOrPathError)
    .optional()
    .meta({
      description: 'The global touchfile list: a change to any of these files selects every paid test.',
      ...exportOrPathMeta,
    }),
  /** @example ["dist/**", "test/fixtures/generated/**"] */
  generated: strings('Globs of paths the build creates before tests run: a touchfile glob that matches only such paths is not dead.'),
});

const shippedAllowSchema = z.strictObject({
  /** @example "EXAMPLE_FIXTURE_DIR" */
  token: name().meta({ description: 'The env var, path, word or runner probe a finding names, as the finding quotes it.' }),
  /** @example ["skills/testing-guide/SKILL.md"] */
  files: z
    .array(name())
    .optional()
    .meta({ description: 'Globs of the files where the token is allowed; default: every shipped file.' }),
  /** @example "The testing guide teaches readers how the harness stubs the forge." */
  reason: name().meta({ description: 'Why this reference is deliberate and safe; required.' }),
});

const shippedSchema = z.strictObject({
  /** @example ["skills/**\/SKILL.md", "src/**\/*.ts"] */
  include: strings('Globs of the shipped artifacts (skill text, prompts, source) checked for test-only seams.'),
  /** @example ["src/**\/*.generated.ts"] */
  exclude: strings('Globs removed from `include`.'),
  /** @example [{ "token": "EXAMPLE_FIXTURE_DIR", "files": ["skills/testing-guide/SKILL.md"], "reason": "…" }] */
  allow: z
    .array(shippedAllowSchema)
    .default([])
    .meta({ description: 'Deliberate, documented exceptions to no-test-carve-outs and no-dangling-references, each with its reason.' }),
  /** @example ["illustrative", "example"] */
  illustrative: z
    .array(name())
    .default(['illustrative'])
    .meta({
      description:
        'Info-string words that mark a fenced block as an example (```sh illustrative), or globs of Markdown files whose blocks all are: their paths need not exist. Test seams are still reported.',
    }),
  /** @example ["stipulated by the harness"] */
  testTokens: strings('Extra words or phrases that exist only for tests; a shipped artifact naming one is a finding.'),
});

const removedSchema = z.strictObject({
  /** @example "harness-stipulation" */
  id: name().meta({ description: 'A name for the removed mechanism, shown in findings.' }),
  /** @example ["STIPULATE_FIXTURES"] */
  tokens: z
    .array(name())
    .min(1)
    .meta({ description: 'Identifiers, env vars or words that only the removed mechanism used.' }),
  /** @example "Completion criteria no longer accept harness stipulations." */
  why: name().meta({ description: 'Why it was removed; printed with each finding.' }),
  /** @example ["docs/migrations/**"] */
  allow: strings('Globs of files that may still name the tokens (a migration note); CHANGELOGs and the config itself always may.'),
});

/**
 * 2 MiB: twice the largest hand-written file tripwire reads in the seven
 * corpus harnesses (a 0.96 MB test of vercel/ai). A check of a repository
 * holding one TS file just under it takes 2.4 s and 260 MiB; a 50 MB
 * generated file took 44 s and 3.2 GiB (README, Adversarial sizes).
 */
export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

const limitsSchema = z.strictObject({
  /** @example 8388608 */
  maxFileBytes: z
    .int()
    .min(1)
    .default(DEFAULT_MAX_FILE_BYTES)
    .meta({
      description:
        'Files larger than this many bytes are not read or parsed, and each one tripwire needs is one read-error finding (fileTooLarge); default 2 MiB. Raise it for a large hand-written file, or list a generated one in `ignore`.',
    }),
});

const ruleSettingSchema = z.union(
  [z.enum(SEVERITY_SETTINGS), z.tuple([z.enum(SEVERITY_SETTINGS), z.record(z.string(), z.unknown())])],
  { error: 'expected "error", "warn", "off" or [severity, { ...options }]' },
).meta({ id: 'ruleSetting', description: 'A severity, or [severity, options].' });

/** Exported so that schema.json can list each rule id as a property editors complete. */
export const rulesSchema = z.partialRecord(z.enum(RULE_IDS), ruleSettingSchema);

export const configSchema = z
  .strictObject({
    /** @example "./node_modules/eslint-plugin-tripwire/schema.json" */
    $schema: z.string().optional().meta({ description: 'The JSON Schema of this file, for editor completion.' }),
    /** @example { "include": ["test/**\/*.test.ts"], "paid": ["test/e2e-*.test.ts"] } */
    tests: testsSchema.prefault({}).meta({ description: 'Where the tests are and how paid tests are declared.' }),
    /** @example { "modules": ["@acme/llm-sdk"], "hosts": ["api.acme.ai"] } */
    paid: paidSchema.prefault({}).meta({ description: 'Paid-call signatures, added to the built-in ones.' }),
    /** @example { "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" } } */
    maps: mapsSchema.optional().meta({ description: 'Where the selection maps live; they are read statically, never run.' }),
    /** @example { "include": ["skills/**\/SKILL.md"] } */
    shipped: shippedSchema.prefault({}).meta({ description: 'Artifacts that ship and must carry no seam meant for tests.' }),
    /** @example [{ "id": "harness-stipulation", "tokens": ["STIPULATE_FIXTURES"], "why": "…" }] */
    removed: z
      .array(removedSchema)
      .default([])
      .meta({ description: 'Mechanisms that are gone; text still naming their tokens is a dangling reference.' }),
    /** @example ".tripwire/frozen.json" */
    frozen: name()
      .default('.tripwire/frozen.json')
      .meta({ description: 'The human-owned freeze manifest, relative to the config file.' }),
    /** @example ".tripwire/locks.json" */
    locks: name()
      .default('.tripwire/locks.json')
      .meta({ description: 'The SHA-256 manifest of locked fixture and oracle files, relative to the config file.' }),
    /** @example ".tripwire/baseline.json" */
    baseline: name()
      .default('.tripwire/baseline.json')
      .meta({ description: 'Known findings for gradual adoption (written by `tripwire check --update-baseline`); they are not reported, and the file only shrinks.' }),
    /** @example ["vendor/**"] */
    ignore: strings('Globs excluded from every check.'),
    /** @example { "maxFileBytes": 8388608 } */
    limits: limitsSchema.prefault({}).meta({ description: 'Bounds on what one file may cost: beyond them a file is reported, not read.' }),
    /** @example "strict" */
    preset: z
      .enum(PRESET_NAMES)
      .default('recommended')
      .meta({ description: 'How findings that rest on a name or a prose mention are reported: as warnings (recommended) or at their rule\'s severity (strict).' }),
    /** @example { "no-dangling-references": "warn", "tiers-cover-paid-tests": ["error", {}] } */
    rules: rulesSchema
      .default({})
      .meta({ description: 'Severity, or [severity, options], per rule id; unlisted rules keep their preset severity.' }),
  })
  .meta({ description: 'Configuration of tripwire, the static tripwire for test harnesses that mix free and paid tests.' });

/** The configuration as written by the user. */
export type ConfigInput = z.input<typeof configSchema>;
/** The configuration with defaults applied. */
export type Config = z.output<typeof configSchema>;
export type MapRef = z.output<typeof touchfilesRef>;
export type PaidListRef = z.output<typeof paidListRef>;
export type RuleSetting = z.output<typeof ruleSettingSchema>;
export type PresetName = (typeof PRESET_NAMES)[number];
