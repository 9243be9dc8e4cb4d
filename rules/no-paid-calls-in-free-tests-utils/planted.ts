import type { RepoModel } from '../../src/model/model.js';
import type { Planted } from './signatures.js';

/**
 * Directories that hold tests and their support, wherever they sit in the
 * tree. Not `evals/` or `e2e/`: those hold the paid suite's own machinery
 * (runners, harnesses), which a free test exercises as it would product code.
 */
const TEST_SEGMENT = /^(?:tests?|__tests__|specs?|__mocks__|fixtures?|__fixtures__|test-?utils|test-?helpers)$/i;

export type IsTestSupport = (file: string) => boolean;

/** A test file or a file under a test directory: code that exists to run tests, not the product they test. */
export function testSupport(model: RepoModel): IsTestSupport {
  const tests = model.testFileSet();
  // Asked for every import of every free test's closure: once per file.
  const known = new Map<string, boolean>();
  return (file) => {
    let support = known.get(file);
    if (support === undefined) {
      support = tests.has(file) || file.split('/').slice(0, -1).some((dir) => TEST_SEGMENT.test(dir));
      known.set(file, support);
    }
    return support;
  };
}

/**
 * What the free test and the test-support files it imports (transitively)
 * plant in the one process they share. Product files are not followed: what a
 * product module writes is the product's business, not a test double.
 */
export function plantedBy(model: RepoModel, isTestSupport: IsTestSupport, testFile: string): Planted {
  const env = new Set<string>();
  const commands = new Set<string>();
  let path = false;
  const seen = new Set([testFile]);
  const queue = [testFile];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i] ?? '';
    const facts = model.facts(file);
    if (!facts) continue;
    for (const name of facts.plants.env) env.add(name);
    for (const name of facts.plants.files) commands.add(name);
    // `PATH` set in the process or in a spawn's `env`, to a directory the file made.
    if (facts.plants.dirs && facts.envWrites.some((write) => write.name === 'PATH')) path = true;
    for (const fact of facts.imports) {
      if (fact.typeOnly) continue;
      const target = model.resolve(file, fact.specifier);
      if (target.kind !== 'file' || seen.has(target.path) || !isTestSupport(target.path)) continue;
      seen.add(target.path);
      queue.push(target.path);
    }
  }
  return { env, commands, path };
}

/** Where builds write: an import of a file there that is absent is a build output, not a broken path. */
const BUILD_SEGMENT = /^(?:dist|build|out|lib|esm|cjs)$/;

export function isBuildOutput(specifier: string): boolean {
  return specifier.split('/').some((segment) => BUILD_SEGMENT.test(segment));
}
