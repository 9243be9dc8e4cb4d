import * as z from 'zod';
import type { FileFacts, ImportFact } from '../src/facts/types.js';
import type { RepoModel } from '../src/model/model.js';
import { SymbolGraph, type ChainStep } from '../src/model/symbols.js';
import { createRule, type MessageKind, type RuleFinding } from '../src/rule.js';
import { paidSignatures } from './no-paid-calls-in-free-tests-utils/signatures.js';

const messages = {
  paidCall: { description: 'A free test file itself spawns a model CLI, requests a metered API host or reads an API key.' },
  paidImport: { description: 'A free test file imports a model SDK (not `import type`, not mocked).' },
  transitivePaidCall: { description: 'A free test file reaches a paid call through the local modules it imports; the chain is listed.' },
} satisfies Record<string, MessageKind>;

export type MessageIds = keyof typeof messages;

export default createRule({
  id: 'no-paid-calls-in-free-tests',
  meta: {
    description: 'Free test files must not reach a paid call (model SDK, model CLI, metered API host, API key), directly or through local imports.',
    languages: ['js/js'],
    recommended: true,
    messages,
  },
  options: z.strictObject({}),
  check(model) {
    const signatures = paidSignatures(model.config);
    const graph = new SymbolGraph(model, {
      site: (site) => signatures.site(site),
      package: (name) => (signatures.module(name) ? name : null),
    });
    const findings: RuleFinding<MessageIds>[] = [];
    const pending: { file: string; fact: ImportFact; start: string }[] = [];

    for (const file of model.freeTestFiles()) {
      const facts = model.facts(file);
      if (!facts) continue;
      const mocked = new Set(facts.mocks.map((mock) => resolvedKey(model, file, mock.specifier)));

      for (const unit of facts.units) {
        for (const site of unit.sites) {
          const label = signatures.site(site);
          if (label !== null) findings.push({ messageId: 'paidCall', file, loc: site.loc, message: `free test ${label}. Move the call under a paid test root or replace it with a fake.` });
        }
      }

      for (const fact of facts.imports) {
        if (fact.typeOnly || mocked.has(resolvedKey(model, file, fact.specifier))) continue;
        const target = model.resolve(file, fact.specifier);
        if (target.kind === 'package') {
          if (signatures.module(target.name)) {
            findings.push({ messageId: 'paidImport', file, loc: fact.loc, message: `free test imports the model SDK '${target.name}': ${file} → ${target.name}. Move it under a paid test root, use \`import type\`, or mock the module.` });
          }
          continue;
        }
        const used = fact.bindings.filter((binding) => !binding.typeOnly).flatMap((binding) => (binding.imported === '*' && binding.local !== '' ? namespaceMembers(facts, binding.local) : [binding.imported]));
        const names = fact.kind === 'side-effect' ? ['<init>'] : used.length > 0 ? used : ['*'];
        for (const name of names) {
          const start = graph.importTarget(file, fact.specifier, name);
          if (start !== null) pending.push({ file, fact, start });
        }
      }
    }

    const reported = new Set<ImportFact>();
    for (const { file, fact, start } of pending) {
      if (reported.has(fact)) continue;
      const chain = graph.chain(start);
      if (!chain) continue;
      reported.add(fact);
      findings.push({
        messageId: 'transitivePaidCall',
        file,
        loc: fact.loc,
        message: `free test reaches a paid call through '${fact.specifier}': ${renderChain(file, chain)}. Import only what makes no paid call, mock the module, or move the test under a paid test root.`,
        related: chain.filter((step) => step.loc).map((step) => ({ file: step.file, line: step.loc?.line ?? 1, column: step.loc?.column ?? 1, message: step.label })),
      });
    }
    return findings;
  },
});

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
