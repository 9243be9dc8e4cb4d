import * as z from 'zod';
import type { FileFacts, ImportFact, Site } from '../src/facts/types.js';
import type { RepoModel } from '../src/model/model.js';
import { SymbolGraph, type ChainStep } from '../src/model/symbols.js';
import { createRule, type RuleFinding } from '../src/rule.js';
import { isBuildOutput, plantedBy, testSupport, type IsTestSupport } from './no-paid-calls-in-free-tests-utils/planted.js';
import { paidSignatures, type PaidSignatures, type Planted } from './no-paid-calls-in-free-tests-utils/signatures.js';

export default createRule({
  id: 'no-paid-calls-in-free-tests',
  meta: {
    description: 'Free test files must not reach a paid call (model SDK, model CLI, metered API host, API key), directly or through local imports.',
    languages: ['js/js'],
    recommended: true,
  },
  options: z.strictObject({}),
  check(model) {
    const signatures = paidSignatures(model.config);
    const isTestSupport = testSupport(model);
    const graphs = new Map<string, SymbolGraph>();
    const findings: RuleFinding[] = [];
    const pending: { file: string; fact: ImportFact; start: string; graph: SymbolGraph }[] = [];

    for (const file of model.freeTestFiles()) {
      const facts = model.facts(file);
      if (!facts) continue;
      const mocked = new Set(facts.mocks.map((mock) => resolvedKey(model, file, mock.specifier)));
      const planted = plantedBy(model, isTestSupport, file);
      const graph = graphFor(graphs, model, signatures, isTestSupport, planted, mocked);

      for (const unit of facts.units) {
        for (const site of unit.sites) {
          const label = signatures.site(site, planted);
          if (label !== null) findings.push({ file, loc: site.loc, message: `free test ${label}. Move the call under a paid test root or replace it with a fake.` });
        }
      }

      for (const fact of facts.imports) {
        if (fact.typeOnly || mocked.has(resolvedKey(model, file, fact.specifier))) continue;
        const target = model.resolve(file, fact.specifier);
        if (target.kind === 'package') {
          if (signatures.module(target.name)) {
            findings.push({ file, loc: fact.loc, message: `free test imports the model SDK '${target.name}': ${file} → ${target.name}. Move it under a paid test root, use \`import type\`, or mock the module.` });
          }
          continue;
        }
        const used = fact.bindings.filter((binding) => !binding.typeOnly).flatMap((binding) => (binding.imported === '*' && binding.local !== '' ? namespaceMembers(facts, binding.local) : [binding.imported]));
        const names = fact.kind === 'side-effect' ? ['<init>'] : used.length > 0 ? used : ['*'];
        for (const name of names) {
          const start = graph.importTarget(file, fact.specifier, name);
          if (start !== null) pending.push({ file, fact, start, graph });
        }
      }
    }

    const reported = new Set<ImportFact>();
    for (const { file, fact, start, graph } of pending) {
      if (reported.has(fact)) continue;
      const chain = graph.chain(start);
      if (!chain) continue;
      reported.add(fact);
      findings.push({
        file,
        loc: fact.loc,
        message: `free test reaches a paid call through '${fact.specifier}': ${renderChain(file, chain)}. Import only what makes no paid call, mock the module, or move the test under a paid test root.`,
        related: chain.filter((step) => step.loc).map((step) => ({ file: step.file, line: step.loc?.line ?? 1, column: step.loc?.column ?? 1, message: step.label })),
      });
    }
    return [...findings, ...unresolvedFindings(model, graphs, pending)];
  },
});

/**
 * One graph per set of plants and mocks: what a spawn or a key read reaches
 * depends on what the test put in its process first, and a module it mocks is
 * mocked for every module it loads (`vi.mock('./llm')` then
 * `await import('./summarize')`). Most tests do neither and share one graph.
 * An SDK imported by product code is not a sink: a unit test of a package that
 * wraps a vendor SDK reaches it through every module, and whether a request is
 * made depends on the client or transport the test injects, which the graph
 * cannot see. An SDK imported by a test helper is the test's own choice.
 */
function graphFor(graphs: Map<string, SymbolGraph>, model: RepoModel, signatures: PaidSignatures, isTestSupport: IsTestSupport, planted: Planted, mocked: ReadonlySet<string>): SymbolGraph {
  const key = [[...planted.env].sort().join(','), [...planted.commands].sort().join(','), planted.path, [...mocked].sort().join(',')].join('|');
  let graph = graphs.get(key);
  if (!graph) {
    const sinks = {
      site: (site: Site) => signatures.site(site, planted),
      package: (name: string, file: string) => (isTestSupport(file) && signatures.module(name) ? name : null),
    };
    graph = new SymbolGraph(model, sinks, mocked);
    graphs.set(key, graph);
  }
  return graph;
}

/** An import on the way from a free test that cannot be followed, once per file and specifier; a missing build output is not one. */
function unresolvedFindings(model: RepoModel, graphs: Map<string, SymbolGraph>, pending: { start: string; graph: SymbolGraph }[]): RuleFinding[] {
  const findings: RuleFinding[] = [];
  const seen = new Set<string>();
  for (const graph of graphs.values()) {
    const starts = pending.filter((item) => item.graph === graph).map((item) => item.start);
    for (const { file, specifier } of graph.unresolved(starts)) {
      const key = `${file}\0${specifier}`;
      if (seen.has(key) || isBuildOutput(specifier)) continue;
      seen.add(key);
      const fact = model.facts(file)?.imports.find((candidate) => candidate.specifier === specifier);
      if (!fact) continue;
      findings.push({ file, loc: fact.loc, message: `cannot resolve '${specifier}' from ${file}: what it imports was not checked for paid calls. Fix the path, or add the module it names to the repository.` });
    }
  }
  return findings;
}

/** The members a namespace import is used through (`judge.parseVerdict`); `*` when it is used whole. */
function namespaceMembers(facts: FileFacts, local: string): string[] {
  const members = new Set<string>();
  for (const unit of facts.units) {
    for (const ref of unit.refs) {
      if (ref.name === local) members.add(ref.member ?? '*');
    }
  }
  // Imported but never used still loads the module.
  return members.has('*') ? ['*'] : members.size === 0 ? ['<init>'] : [...members];
}

function renderChain(file: string, chain: ChainStep[]): string {
  return [file, ...chain.map((step) => step.label)].join(' → ');
}

/** Mocks and imports match by what they resolve to: `vi.mock('../x')` mocks `import '../x.js'`. */
function resolvedKey(model: RepoModel, file: string, specifier: string): string {
  const target = model.resolve(file, specifier);
  if (target.kind === 'file') return `file:${target.path}`;
  if (target.kind === 'package') return `package:${specifier}`;
  return `missing:${specifier}`;
}
