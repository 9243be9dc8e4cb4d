import type * as TS from 'typescript';
import { loadTypeScript, parseScript, type TypeScript } from '../parse/typescript.js';
import { bodyHasher, type BodyHasher } from './test-hash.js';
import type { DeclarationFact } from './types.js';

// What a test means beyond its body: the top-level declarations of its file that it reads (an allowlist, an
// expected table, a threshold, a helper function), each pinned by its own hash, transitively.

/** The names the top of a file declares: variables, functions, classes, enums, and import bindings. */
export function topLevelNames(ts: TypeScript, sourceFile: TS.SourceFile): Set<string> {
  const names = new Set<string>();
  const bind = (name: TS.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of sourceFile.statements) {
    if (ts.isVariableStatement(statement)) for (const declaration of statement.declarationList.declarations) bind(declaration.name);
    else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) names.add(statement.name.text);
    else if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) names.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.add(element.name.text);
    } else if (ts.isImportEqualsDeclaration(statement)) names.add(statement.name.text);
  }
  return names;
}

/**
 * The top-level names `node` reads, sorted: identifiers that are not a
 * property name, an object key or a name the node declares itself (a local
 * `const`, a parameter, an inner function), which shadows the top-level one.
 */
export function readsOf(ts: TypeScript, node: TS.Node, names: ReadonlySet<string>): string[] {
  const local = new Set<string>();
  const used = new Set<string>();
  const declare = (name: TS.BindingName | undefined): void => {
    if (!name) return;
    if (ts.isIdentifier(name)) local.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) declare(element.name);
  };
  const visit = (child: TS.Node): void => {
    if (ts.isVariableDeclaration(child) || ts.isParameter(child) || ts.isBindingElement(child)) declare(child.name);
    else if ((ts.isFunctionDeclaration(child) || ts.isClassDeclaration(child) || ts.isFunctionExpression(child)) && child.name) local.add(child.name.text);
    if (ts.isIdentifier(child) && names.has(child.text) && !isNameSlot(ts, child)) used.add(child.text);
    ts.forEachChild(child, visit);
  };
  visit(node);
  return [...used].filter((name) => !local.has(name)).sort();
}

/** An identifier that names a member or a key rather than reading a binding: `a.NAME`, `{ NAME: … }`, a method name. */
function isNameSlot(ts: TypeScript, node: TS.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return true;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent)) && parent.name === node) return true;
  if (ts.isTypeReferenceNode(parent) || ts.isQualifiedName(parent)) return true;
  return false;
}

/** Each top-level declaration of the file with a name: its hash (its syntax tree, as a test body is hashed) and the top-level names it reads. */
export function declarationFacts(ts: TypeScript, sourceFile: TS.SourceFile, hasher: BodyHasher, names: ReadonlySet<string>): DeclarationFact[] {
  const facts: DeclarationFact[] = [];
  const add = (name: string, node: TS.Node): void => {
    facts.push({ name, hash: hasher.hash(node), reads: readsOf(ts, node, names).filter((read) => read !== name) });
  };
  for (const statement of sourceFile.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) add(declaration.name.text, declaration);
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      add(statement.name.text, statement);
    }
  }
  return facts;
}

/** The declarations of a helper module a frozen test imports, parsed on demand (a module without tests carries none in its facts). */
export function extractDeclarations(path: string, text: string): DeclarationFact[] {
  const ts = loadTypeScript();
  try {
    const sourceFile = parseScript(path, text);
    return declarationFacts(ts, sourceFile, bodyHasher(ts, sourceFile), topLevelNames(ts, sourceFile));
  } catch {
    // A module too deep to parse pins nothing; its own parse error is reported where it is checked.
    return [];
  }
}
