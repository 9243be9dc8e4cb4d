// The layers of ../shared/DESIGN.md ("Architecture"), enforced by `npm run lint`
// (dependency-cruiser 17, the last line that runs on Node 20).
//
//   facts/   ← parse, vocab, util            model/ ← facts, repo, config, util
//   rules/   ← model, analysis, vocab, frozen, rules/shared, the rule's own -utils/
//   surfaces (cli/, eslint/, api.ts, index.ts) ← engine, report, frozen, init
//   everyone ← types.ts, errors.ts, version.ts, util/ (plain data and leaf helpers); no import cycle.
const SHARED = '^src/(types|errors|version)\\.ts$|^src/util/';
/** Modules of types only: the shape of the configuration and of the facts. */
const PLAIN_DATA = '^src/config/schema\\.ts$|^src/facts/types\\.ts$';

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'No import cycle, type-only imports included.', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'vocab-is-a-leaf',
      comment: 'src/vocab/ holds word lists: it imports nothing of the project.',
      severity: 'error',
      from: { path: '^src/vocab/' },
      to: { path: '^(src|rules|presets)/', pathNot: '^src/vocab/' },
    },
    {
      name: 'facts-layer',
      comment: 'facts/ may import only parse, vocab and util.',
      severity: 'error',
      from: { path: '^src/facts/' },
      to: { path: '^(src|rules|presets)/', pathNot: `^src/(facts|parse|vocab)/|${SHARED}` },
    },
    {
      name: 'model-layer',
      comment: 'model/ may import only facts, repo, config and util.',
      severity: 'error',
      from: { path: '^src/model/' },
      to: { path: '^(src|rules|presets)/', pathNot: `^src/(model|facts|repo|config)/|${SHARED}` },
    },
    {
      name: 'rules-layer',
      comment: 'A rule may import only the model, the analyses, vocab, frozen and rules/shared (and its own -utils/ folder).',
      severity: 'error',
      from: { path: '^rules/(?!index\\.ts$)' },
      to: { path: '^(src|rules|presets)/', pathNot: `^src/(model|analysis|vocab|frozen)/|^src/rule\\.ts$|^rules/shared/|${SHARED}|^rules/[^/]+-utils/|${PLAIN_DATA}` },
    },
    {
      name: 'rules-read-only-the-shapes-of-config-and-facts',
      comment: 'A rule may name the types of the configuration and of the facts (plain data it receives), never run their code.',
      severity: 'error',
      from: { path: '^rules/' },
      to: { path: PLAIN_DATA, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-rule-imports-another-rule',
      comment: "A rule never imports another rule or another rule's helpers: what two rules share lives in rules/shared/.",
      severity: 'error',
      from: { path: '^rules/([^/]+?)(?:-utils/[^/]+|)\\.ts$', pathNot: '^rules/(index|shared/)' },
      to: { path: '^rules/[^/]+', pathNot: ['^rules/shared/', '^rules/$1(?:-utils/[^/]+|)\\.ts$'] },
    },
    {
      name: 'surfaces-layer',
      comment: "The CLI, the ESLint adapter and the API reach the work through the engine, the reporters, frozen and init (and the rule contract, src/rule.ts, which the ESLint surface adapts; the config file names, a public contract the help text states); never a rule's helpers or the model's insides.",
      severity: 'error',
      from: { path: '^src/(cli|eslint)/|^src/(api|index)\\.ts$' },
      to: { path: '^(src|rules|presets)/', pathNot: `^src/(cli|eslint|engine|report|frozen|init)/|^src/(api|index|rule-ids|rule)\\.ts$|^src/config/names\\.ts$|^rules/index\\.ts$|^presets/|${SHARED}` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '^(test|bench|fixtures|dist)/' },
  },
};
