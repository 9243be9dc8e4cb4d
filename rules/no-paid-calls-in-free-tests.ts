import { posix } from 'node:path';
import * as z from 'zod';
import type { FileFacts, ImportFact, Site } from '../src/facts/types.js';
import type { RepoModel } from '../src/model/model.js';
import { packageName } from '../src/model/resolve.js';
import { isScriptFile } from '../src/util/file-kinds.js';
import { SymbolGraph, type ChainStep, type Unresolved } from '../src/analysis/symbols.js';
import { createRule, type MessageKind, type RuleFinding } from '../src/rule.js';
import { isBuildOutput, plantedBy, testSupport, type IsTestSupport } from './no-paid-calls-in-free-tests-utils/planted.js';
import { paidSignatures, type PaidSignatures, type Planted } from './no-paid-calls-in-free-tests-utils/signatures.js';
import { freeTestFiles } from '../src/analysis/paid-list.js';

const messages = {
  paidCall: { description: 'A free test file itself spawns a model CLI, requests a metered API host or reads an API key.' },
  paidImport: { description: 'A free test file imports a model SDK (not `import type`, not mocked).' },
  transitivePaidCall: { description: "A free test file reaches a paid call through the local modules it imports, and the call or the SDK import is in the test's own code or a test helper; the chain is listed." },
  sdkThroughProduct: {
    description: 'A free test file reaches a model SDK only through product code that imports it: whether a request is made depends on the client the test runs with.',
    heuristic: 'off',
  },
  callThroughProduct: {
    description: 'A free test file reaches a spawn, a metered request or a key read that lies in product code: whether it runs depends on values the test passes (a fake transport, an absent key, an early error).',
    heuristic: 'off',
  },
  wrappedSdkImport: {
    description: 'A free test file imports a model SDK that the package under test itself imports (or that is a package of this repository): a test of the wrapper, whose requests depend on the client it builds.',
    heuristic: 'off',
  },
  unresolvedImport: { description: 'An import on the way from a free test does not resolve, so what it names was not checked for paid calls (reported once per file and specifier).' },
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
  check(model, _options, units) {
    const shared = sharedOf(model);
    // Each free test is a unit: its findings depend only on its own file, what it plants and mocks, and what its imports reach.
    return freeTestFiles(model).flatMap((file) => units.of(file, () => fileFindings(model, file, shared)));
  },
  resume(model) {
    const shared = sharedOf(model);
    return (file) => fileFindings(model, file, shared);
  },
});

/** What the free tests' checks share: the signatures, what counts as test support, the wrapped SDKs, the graphs built so far. */
function sharedOf(model: RepoModel): Shared {
  const signatures = paidSignatures(model.config);
  const isTestSupport = testSupport(model);
  return { signatures, isTestSupport, wrapped: wrappedSdks(model, isTestSupport), graphs: new Map() };
}

interface Shared {
  signatures: PaidSignatures;
  isTestSupport: IsTestSupport;
  wrapped: (file: string, sdk: string) => boolean;
  graphs: Map<string, Graphs>;
}

function fileFindings(model: RepoModel, file: string, { signatures, isTestSupport, wrapped, graphs }: Shared): RuleFinding<MessageIds>[] {
  const facts = model.facts(file);
  if (!facts) return [];
  const findings: RuleFinding<MessageIds>[] = [];
  const pending: Pending[] = [];
  const mocked = new Set(facts.mocks.map((mock) => resolvedKey(model, file, mock.specifier)));
  const planted = plantedBy(model, isTestSupport, file);
  const pair = graphsFor(graphs, model, signatures, isTestSupport, planted, mocked);

  for (const unit of facts.units) {
    for (const site of unit.sites) {
      const label = signatures.site(site, planted);
      if (label !== null) findings.push({ messageId: 'paidCall', file, loc: site.loc, message: `free test ${label}. Move the call under a paid test root or replace it with a fake.`, chain: [{ label: file, file, line: site.loc.line }, { label, file, line: site.loc.line }] });
    }
  }

  for (const fact of facts.imports) {
    if (fact.typeOnly || mocked.has(resolvedKey(model, file, fact.specifier))) continue;
    const target = model.resolve(file, fact.specifier);
    if (target.kind === 'package') {
      if (!isClientImport(signatures, target.name, fact.specifier)) continue;
      if (wrapped(file, target.name) && !callsClient(model.text(file) ?? '', fact.bindings.map((binding) => binding.local))) {
        findings.push({ messageId: 'wrappedSdkImport', file, loc: fact.loc, message: `free test imports the model SDK '${target.name}', which the package under test imports too: whether a request is made depends on the client the test builds (a heuristic). Build it with a fake transport, mock the module, or move the test under a paid test root.` });
      } else {
        findings.push({ messageId: 'paidImport', file, loc: fact.loc, message: `free test imports the model SDK '${target.name}': ${file} → ${target.name}. Move it under a paid test root, use \`import type\`, or mock the module.`, chain: [{ label: file, file, line: fact.loc.line }, { label: target.name, file }] });
      }
      continue;
    }
    const used = fact.bindings.filter((binding) => !binding.typeOnly).flatMap((binding) => (binding.imported === '*' && binding.local !== '' ? namespaceMembers(facts, binding.local) : [binding.imported]));
    const names = fact.kind === 'side-effect' ? ['<init>'] : used.length > 0 ? used : ['*'];
    for (const name of names) {
      const start = pair.strict.importTarget(file, fact.specifier, name);
      if (start !== null) pending.push({ file, fact, name, start, pair });
    }
  }

  const rest = pending.map((item) => ({ item, start: pair.all.importTarget(item.file, item.fact.specifier, item.name) }));
  findings.push(...chainFindings(pending, rest, isTestSupport));
  const strict = pair.strict.reach(pending.map((item) => item.start));
  const all = pair.all.reach(rest.flatMap(({ start }) => start ?? []));
  // The graphs are shared with the tests checked before this one: what this test's chains rest on is charged to it here.
  for (const reached of new Set([...strict.files, ...all.files])) model.facts(reached);
  return [...findings, ...unresolvedFindings(model, strict.unresolved)];
}

/**
 * `strict` counts a paid call or an SDK import only where a test or a test
 * helper makes it; `all` counts it in product code too. A unit test of
 * product code reaches every call the product can make, and whether one runs
 * depends on values the graph cannot see (the client or transport the test
 * injects, a key it removed, an early error it provokes): a chain that ends in
 * product code is a finding of its own, heuristic kind; one that ends in the
 * harness's own test code is the error.
 */
interface Graphs {
  strict: SymbolGraph;
  all: SymbolGraph;
}

interface Pending {
  file: string;
  fact: ImportFact;
  name: string;
  start: string;
  pair: Graphs;
}

/**
 * One pair of graphs per set of plants and mocks: what a spawn or a key read
 * reaches depends on what the test put in its process first, and a module it
 * mocks is mocked for every module it loads (`vi.mock('./llm')` then
 * `await import('./summarize')`). Most tests do neither and share one pair.
 */
/**
 * An SDK's entry point, which exports its client; a subpath (`openai/helpers/zod`,
 * `@anthropic-ai/sdk/resources`) holds its types and helpers, which make no request.
 */
function isClientImport(signatures: PaidSignatures, name: string, specifier: string): boolean {
  return signatures.module(name) && (specifier === name || !specifier.startsWith(`${name}/`));
}

function graphsFor(graphs: Map<string, Graphs>, model: RepoModel, signatures: PaidSignatures, isTestSupport: IsTestSupport, planted: Planted, mocked: ReadonlySet<string>): Graphs {
  const key = [[...planted.env].sort().join(','), [...planted.commands].sort().join(','), planted.path, [...mocked].sort().join(',')].join('|');
  let pair = graphs.get(key);
  if (!pair) {
    const site = (found: Site) => signatures.site(found, planted);
    pair = {
      strict: new SymbolGraph(model, { site: (found, file) => (isTestSupport(file) ? site(found) : null), package: (name, file, specifier) => (isTestSupport(file) && isClientImport(signatures, name, specifier) ? name : null) }, mocked),
      all: new SymbolGraph(model, { site, package: (name, _file, specifier) => (isClientImport(signatures, name, specifier) ? name : null) }, mocked),
    };
    graphs.set(key, pair);
  }
  return pair;
}

/**
 * One finding per import: a chain in `strict` (the paid call is the harness's
 * own), else a chain into product code that runs through a test helper (the
 * helper's choice of what to call), else the heuristic kind of the
 * product-code sink it reaches. Each
 * graph is built before it is solved: solving after every new start would be
 * quadratic.
 */
function chainFindings(pending: Pending[], rest: { item: Pending; start: string | null }[], isTestSupport: IsTestSupport): RuleFinding<MessageIds>[] {
  const findings: RuleFinding<MessageIds>[] = [];
  const reported = new Set<ImportFact>();
  for (const item of pending) {
    const chain = reported.has(item.fact) ? null : item.pair.strict.chain(item.start);
    if (!chain) continue;
    reported.add(item.fact);
    findings.push(paidFinding(item, chain));
  }
  // A test helper that calls into product code chose to make that call for the test: still the harness's own.
  for (const { item, start } of rest) {
    const chain = start === null || reported.has(item.fact) || !item.pair.all.mayChainThrough(start, isTestSupport) ? null : item.pair.all.chainThrough(start, (file) => file !== item.file && isTestSupport(file));
    if (!chain) continue;
    reported.add(item.fact);
    findings.push(paidFinding(item, chain));
  }
  for (const { item, start } of rest) {
    const chain = start === null || reported.has(item.fact) ? null : item.pair.all.chain(start);
    if (!chain) continue;
    reported.add(item.fact);
    findings.push(productFinding(item, chain));
  }
  return findings;
}

function productFinding({ file, fact }: Pending, chain: ChainStep[]): RuleFinding<MessageIds> {
  const sink = chain.at(-1);
  const call = sink !== undefined && /^(?:spawns|requests|reads) /.test(sink.label);
  return call
    ? {
        messageId: 'callThroughProduct',
        file,
        loc: fact.loc,
        message: `free test reaches a paid call in product code: ${renderChain(file, chain)}. This is a heuristic: whether it runs depends on what the test passes in. Pass a fake transport or client, mock the module, or move the test under a paid test root.`,
        related: relatedSteps(chain),
        chain: chainLinks(file, fact, chain),
      }
    : {
        messageId: 'sdkThroughProduct',
        file,
        loc: fact.loc,
        message: `free test reaches the model SDK '${sink?.label ?? ''}' only through product code: ${renderChain(file, chain)}. This is a heuristic: the product imports the SDK, and whether this test makes a request depends on the client it runs with. Pass a fake client or transport, mock the module, or move the test under a paid test root.`,
        related: relatedSteps(chain),
        chain: chainLinks(file, fact, chain),
      };
}

/**
 * Whether a free test's direct SDK import is of an SDK its own package's
 * product code imports, or of a package of this repository: a test of the
 * wrapper, not a paid call of its own. Asked only for a free test that
 * imports an SDK itself, so the package's product files are read only then,
 * once per package.
 */
function wrappedSdks(model: RepoModel, isTestSupport: IsTestSupport): (file: string, sdk: string) => boolean {
  const rootOf = (file: string): string => {
    for (let dir = posix.dirname(file); ; dir = posix.dirname(dir)) {
      if (dir === '.' || model.fileSet.has(`${dir}/package.json`)) return dir;
    }
  };
  const importedUnder = (root: string): Set<string> => {
    const names = new Set<string>();
    for (const file of model.files) {
      if (isTestSupport(file) || !isScriptFile(file) || rootOf(file) !== root) continue;
      for (const fact of model.facts(file)?.imports ?? []) if (!fact.typeOnly && !fact.specifier.startsWith('.')) names.add(packageName(fact.specifier));
    }
    return names;
  };
  // Through the model's memo: each free test that asks is charged with the manifests and product files read for it.
  return (file, sdk) => {
    const own = model.memo(OWN_PACKAGES, () => new Set(model.files.filter((path) => posix.basename(path) === 'package.json').flatMap((manifest) => manifestName(model.text(manifest)) ?? [])));
    if (own.has(sdk)) return true;
    const root = rootOf(file);
    return model.memoFor(IMPORTED_UNDER, root, () => importedUnder(root)).has(sdk);
  };
}

/** Memo keys: the names of this repository's packages, and the packages imported by product code under a package root. */
const OWN_PACKAGES = {};
const IMPORTED_UNDER = {};

/** `.resource.method(` or deeper (`.chat.completions.create(`). */
const MEMBER_CALL = '(?:\\s*\\.\\s*\\w+){2,}\\s*\\(';

/**
 * Whether the test itself sends a request with a client it builds from the
 * SDK: `new Client(…).resource.method(…)`, or `resource.method(…)` on a const
 * bound to `new Client(…)`: the request shape every vendor SDK shares. A test
 * that only builds a client to hand it on, or uses the SDK's types and
 * helpers, tests the wrapper.
 */
function callsClient(text: string, locals: readonly string[]): boolean {
  for (const local of locals.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name))) {
    const built = `new\\s+${local.replace(/\$/g, '\\$')}\\s*\\(`;
    if (new RegExp(`${built}[^;]*?\\)${MEMBER_CALL}`).test(text)) return true;
    for (const match of text.matchAll(new RegExp(`\\bconst\\s+([A-Za-z_$][\\w$]*)\\s*=\\s*${built}`, 'g'))) {
      if (new RegExp(`(?<![\\w$])${(match[1] ?? '').replace(/\$/g, '\\$')}${MEMBER_CALL}`).test(text)) return true;
    }
  }
  return false;
}

function manifestName(text: string | null): string | null {
  try {
    const name: unknown = text === null ? null : (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

function paidFinding({ file, fact }: Pending, chain: ChainStep[]): RuleFinding<MessageIds> {
  return {
    messageId: 'transitivePaidCall',
    file,
    loc: fact.loc,
    message: `free test reaches a paid call through '${fact.specifier}': ${renderChain(file, chain)}. Import only what makes no paid call, mock the module, or move the test under a paid test root.`,
    related: relatedSteps(chain),
    chain: chainLinks(file, fact, chain),
  };
}

/** An import on the way from a free test that cannot be followed, once per file and specifier; a missing build output is not one. */
function unresolvedFindings(model: RepoModel, unresolved: readonly Unresolved[]): RuleFinding<MessageIds>[] {
  const findings: RuleFinding<MessageIds>[] = [];
  const seen = new Set<string>();
  for (const { file, specifier } of unresolved) {
    const key = `${file}\0${specifier}`;
    if (seen.has(key) || isBuildOutput(specifier)) continue;
    seen.add(key);
    const fact = model.facts(file)?.imports.find((candidate) => candidate.specifier === specifier);
    if (!fact) continue;
    const resolution = model.resolve(file, specifier);
    const why = resolution.kind === 'missing' ? resolution.why : undefined;
    const message =
      why === undefined
        ? `cannot resolve '${specifier}' from ${file}: what it imports was not checked for paid calls. Fix the path, or add the module it names to the repository.`
        : `cannot resolve '${specifier}' from ${file}: ${why}. What it imports was not checked for paid calls. Fix the package's entry (exports, main), or add its sources to the repository.`;
    findings.push({ messageId: 'unresolvedImport', file, loc: fact.loc, message });
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

function relatedSteps(chain: ChainStep[]): RuleFinding<MessageIds>['related'] {
  return chain.filter((step) => step.loc).map((step) => ({ file: step.file, line: step.loc?.line ?? 1, column: step.loc?.column ?? 1, message: step.label }));
}

/** The chain as findings carry it: the free test (at its import) first, every step after it, positioned or not. */
function chainLinks(file: string, fact: ImportFact, chain: ChainStep[]): NonNullable<RuleFinding<MessageIds>['chain']> {
  return [{ label: file, file, line: fact.loc.line }, ...chain.map((step) => ({ label: step.label, file: step.file, ...(step.loc && { line: step.loc.line }) }))];
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
