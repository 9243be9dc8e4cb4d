import type * as TS from 'typescript';
import { loadTypeScript, outOfStack, parseScript, syntaxErrors, type TypeScript } from '../parse/typescript.js';
import type { Loc } from '../types.js';
import { valuesVisitor } from './extract-values.js';
import { testsVisitor } from './extract-tests.js';
import { declarationsVisitor, type Declarations } from './declarations.js';
import { calleeName, commentStartsAt, isEnvObject } from './ast.js';
import { seamsVisitor } from './extract-seams.js';
import { expandCommand, splitShell, UNKNOWN } from './shell.js';
import type { ExportFact, FileFacts, ImportBinding, PinnedFacts, ImportFact, MockFact, Ref, Site, Suppression, Unit, Word } from './types.js';
import { kindTable, walkScript, type KindTable, type ScopedVisitor } from './walk.js';
import { declarationFacts } from './test-reads.js';
import { bodyHasher } from './test-hash.js';

type EnvSite = Extract<Site, { kind: 'env' }>;

const CHILD_PROCESS_FUNCTIONS = new Set(['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']);
const SHELL_STRING_FUNCTIONS = new Set(['exec', 'execSync', 'execaCommand', 'execaCommandSync']);
const EXECA_FUNCTIONS = new Set(['execa', 'execaSync', 'execaNode', 'execaCommand', 'execaCommandSync']);
const SHELL_TAG_MODULES = new Set(['zx', 'execa', 'bun', 'zx/core']);
const LOOKUP_FUNCTIONS = new Set(['which', 'whichSync']);
const HTTP_CLIENT_MODULES = new Set(['axios', 'got', 'ky', 'undici', 'node-fetch', 'ofetch', 'cross-fetch', 'isomorphic-fetch', 'superagent', 'needle']);
const NODE_HTTP_MODULES = new Set(['http', 'https', 'node:http', 'node:https', 'http2', 'node:http2']);
const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'request', 'fetch', 'stream', 'connect']);
const MOCK_CALLS = new Set(['vi.mock', 'vi.doMock', 'jest.mock', 'jest.doMock', 'jest.unstable_mockModule', 'mock.module', 'td.replace', 'td.replaceEsm']);
const FS_MODULES = new Set(['fs', 'fs/promises', 'fs.promises', 'fs-extra']);
const FILE_WRITES = new Set(['writeFile', 'writeFileSync', 'outputFile', 'outputFileSync']);
/** Functions whose second argument is the file they create: `copyFileSync(stub, join(bin, 'claude'))`. */
const FILE_COPIES = new Set(['copyFile', 'copyFileSync', 'symlink', 'symlinkSync', 'link', 'linkSync']);
const DIR_MAKERS = new Set(['mkdtemp', 'mkdtempSync', 'mkdir', 'mkdirSync', 'ensureDir', 'ensureDirSync', 'mkdirp', 'mkdirpSync']);
const ENTRY_SELF = /import\.meta\.(?:url|filename)|__filename/;
const ENTRY_ARGV = /process\.argv\[1\]|Bun\.main/;

export interface ExtractOptions {
  /** Callee names whose calls are recorded with their arguments (test-id and self-gate helpers). */
  calls?: readonly string[];
}

export function extractScriptFacts(path: string, text: string, options: ExtractOptions = {}): FileFacts {
  return extract(path, text, options, false);
}

/** The facts with what the frozen layer pins of each test (PinnedFacts): the same walk, with each test body hashed and read. */
export function extractPinnedFacts(path: string, text: string, options: ExtractOptions = {}): PinnedFacts {
  return extract(path, text, options, true) as PinnedFacts;
}

function extract(path: string, text: string, options: ExtractOptions, pinned: boolean): FileFacts {
  const ts = loadTypeScript();
  try {
    // The one walk sets the parent pointers (walk.ts); no fact reads a JSDoc comment's structure.
    const sourceFile = parseScript(path, text, { parents: false, jsDoc: false });
    return new ScriptExtractor(ts, sourceFile, new Set(options.calls ?? []), pinned).run();
  } catch (error) {
    // One file the parser cannot hold is a parse error at that file, not the run lost.
    const reason = outOfStack(error);
    if (reason === null) throw error;
    return unparsedFacts(reason);
  }
}

/** The facts of a file that could not be parsed at all: nothing but the reason, never cached. */
function unparsedFacts(reason: string): FileFacts {
  return {
    kind: 'script',
    imports: [],
    exports: [],
    mocks: [],
    units: [],
    suppressions: [],
    constants: [],
    calls: [],
    envCompares: [],
    mutations: [],
    parseErrors: [{ message: reason, loc: { line: 1, column: 1, endLine: 1, endColumn: 1 } }],
    tests: [],
    envWrites: [],
    testProbes: [],
    strings: [],
    flags: [],
    plants: { env: [], files: [], dirs: false },
    outOfStack: true,
  };
}

/** The units visitor's kind tables (walk.ts), built once the compiler is loaded. */
interface UnitTables {
  /** The kinds it acts on: names, calls, env accesses, declarations, and the types, in which it stops. */
  kinds: KindTable;
  /** What `ts.isTypeNode` accepts but `ExpressionWithTypeArguments` (`extends Base()` runs) and the keyword types, which have no children; the declarations of types; and the JSDoc kinds the walk meets (`?string` parses in a TS file). */
  types: KindTable;
  /** Where a child's scope can differ from its parent's: a top-level statement, and inside what `ts.isFunctionLike` or `ts.isClassLike` accepts. */
  scopes: KindTable;
  /** The parents in which a name can be declared or be a label (`declares`): elsewhere it is a reference. */
  declaring: KindTable;
}

let unitTables: UnitTables | undefined;

function buildUnitTables(ts: TypeScript): UnitTables {
  const k = ts.SyntaxKind;
  const types: TS.SyntaxKind[] = [k.InterfaceDeclaration, k.TypeAliasDeclaration];
  for (let kind = k.FirstTypeNode; kind <= k.LastTypeNode; kind++) types.push(kind);
  for (let kind = k.FirstJSDocNode; kind <= k.LastJSDocNode; kind++) types.push(kind);
  const acts = [k.Identifier, k.CallExpression, k.NewExpression, k.TaggedTemplateExpression, k.PropertyAccessExpression, k.ElementAccessExpression, k.VariableDeclaration];
  const functionLike = [k.FunctionDeclaration, k.MethodDeclaration, k.Constructor, k.GetAccessor, k.SetAccessor, k.FunctionExpression, k.ArrowFunction, k.MethodSignature, k.CallSignature, k.ConstructSignature, k.IndexSignature, k.FunctionType, k.ConstructorType, k.JSDocFunctionType, k.JSDocSignature];
  return {
    kinds: kindTable(ts, [...types, ...acts]),
    types: kindTable(ts, types),
    scopes: kindTable(ts, [k.SourceFile, k.ClassDeclaration, k.ClassExpression, ...functionLike]),
    declaring: kindTable(ts, [
      k.PropertyAssignment,
      k.MethodDeclaration,
      k.PropertyDeclaration,
      k.GetAccessor,
      k.SetAccessor,
      k.EnumMember,
      k.VariableDeclaration,
      k.Parameter,
      k.FunctionDeclaration,
      k.ClassDeclaration,
      k.FunctionExpression,
      k.ClassExpression,
      k.BindingElement,
      k.LabeledStatement,
      k.BreakStatement,
      k.ContinueStatement,
      k.ImportSpecifier,
      k.ExportSpecifier,
      k.ImportClause,
      k.NamespaceImport,
      k.JsxAttribute,
    ]),
  };
}

interface Context {
  unit: Unit;
  unitName: string;
  eager: boolean;
}

/** A node the units visitor acts on, and whether it runs when its top-level statement does (no function or class body between them). */
interface UnitEvent {
  node: TS.Node;
  eager: boolean;
}

/** Where the walk is for the units visitor: the events of the top-level statement it is in. */
interface UnitScope {
  events: UnitEvent[];
  eager: boolean;
  deferred: UnitScope | null;
}

/**
 * The modules, units, references and call sites of a script. A scoped visitor
 * of the one walk (walk.ts): the walk records, per top-level statement, the
 * nodes these facts come from (names of this file, calls, env accesses,
 * declarations), and `run` then reads them statement by statement, in the
 * walk's order, once every `const` of the file is known.
 */
class ScriptExtractor implements ScopedVisitor<UnitScope | null> {
  private readonly imports: ImportFact[] = [];
  private readonly exports: ExportFact[] = [];
  private readonly mocks: MockFact[] = [];
  private readonly units: Unit[] = [];
  /** Per unit, the references recorded: by name (and member), which of `eagerCall` false (1) and true (2) have been. */
  private readonly refKeys = new Map<Unit, Map<string, number>>();
  private readonly topLevelNames = new Set<string>();
  /** Local name → where it comes from, for import bindings. */
  private readonly importedFrom = new Map<string, { specifier: string; imported: string }>();
  /** Every `const` in the file by name, for static evaluation; null when declared twice. */
  private constants: Declarations['constants'] = new Map();
  /** A bare top-level statement runs on load even when it names nothing of this file (`expect.extend(…)`). */
  private bareStatements = 0;
  private readonly plantedEnv = new Set<string>();
  private readonly plantedFiles = new Set<string>();
  private makesDirs = false;
  /** Env reads kept in a variable or asserted: saves when the file also writes the variable. */
  private readonly keptEnvReads: EnvSite[] = [];
  /** What the walk recorded under each top-level statement, in its order. */
  private readonly statementEvents = new Map<TS.Node, UnitEvent[]>();
  private readonly tables: UnitTables;
  readonly kinds: KindTable;
  readonly scopes: KindTable;

  constructor(
    private readonly ts: TypeScript,
    private readonly sourceFile: TS.SourceFile,
    private readonly callNames: ReadonlySet<string>,
    private readonly pinned: boolean,
  ) {
    this.tables = unitTables ??= buildUnitTables(ts);
    this.kinds = this.tables.kinds;
    this.scopes = this.tables.scopes;
  }

  run(): FileFacts {
    const { ts, sourceFile } = this;
    const loc = (node: TS.Node): Loc => this.loc(node);
    const declarations = declarationsVisitor(ts);
    const values = valuesVisitor(ts, sourceFile, this.callNames, loc);
    const seams = seamsVisitor(ts, sourceFile, loc);
    const tests = testsVisitor(ts, sourceFile, loc, declarations, this.pinned);
    // The names of this file, which the walk records references to, come from its top-level statements.
    for (const statement of sourceFile.statements) this.declareTopLevel(statement);
    walkScript(ts, sourceFile, [declarations, values, seams], this, null, tests, tests.top);
    this.constants = declarations.constants;
    const init: Unit = { names: ['<init>'], loc: this.loc(sourceFile), refs: [], sites: [] };
    for (const statement of sourceFile.statements) this.visitTopLevel(statement, init);
    for (const site of this.keptEnvReads) if (this.plantedEnv.has(site.name)) site.access = 'save';
    if (init.refs.length > 0 || init.sites.length > 0 || this.bareStatements > 0) this.units.push(init);
    const testFacts = tests.facts();
    const { constants, calls, envCompares, mutations } = values.facts();
    const { envWrites, testProbes, strings, flags } = seams.facts;
    // Named one by one: a literal that opens with spreads of objects is built key by key on V8's slow path (about 12 µs a file).
    return {
      constants,
      calls,
      envCompares,
      mutations,
      envWrites,
      testProbes,
      strings,
      flags,
      tests: testFacts,
      // What a frozen test of this file may read besides its body (no-weakened-frozen-tests).
      ...(this.pinned && testFacts.length > 0 && { declarations: declarationFacts(ts, sourceFile, bodyHasher(ts, sourceFile), tests.topNames()) }),
      kind: 'script',
      imports: this.imports,
      exports: this.exports,
      mocks: this.mocks,
      units: this.units,
      plants: { env: [...this.plantedEnv].sort(), files: [...this.plantedFiles].sort(), dirs: this.makesDirs },
      suppressions: extractSuppressions(sourceFile.text, (offset) => this.position(offset), (offset) => commentStartsAt(ts, sourceFile, offset)),
      parseErrors: syntaxErrors(sourceFile).map((d) => ({
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
        loc: this.locOfRange(d.start, d.start + d.length),
      })),
    };
  }

  // ---- positions

  private position(offset: number): { line: number; column: number } {
    const { line, character } = this.sourceFile.getLineAndCharacterOfPosition(offset);
    return { line: line + 1, column: character + 1 };
  }

  private locOfRange(start: number, end: number): Loc {
    const a = this.position(start);
    const b = this.position(end);
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }

  private loc(node: TS.Node): Loc {
    return this.locOfRange(node.getStart(this.sourceFile), node.getEnd());
  }

  // ---- declarations

  private declareTopLevel(statement: TS.Statement): void {
    const { ts } = this;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (!clause || !ts.isStringLiteral(statement.moduleSpecifier)) return;
      const specifier = statement.moduleSpecifier.text;
      const typeOnly = clause.phaseModifier === ts.SyntaxKind.TypeKeyword;
      if (clause.name) this.bindImport(clause.name.text, specifier, 'default');
      const named = clause.namedBindings;
      if (named && ts.isNamespaceImport(named)) this.bindImport(named.name.text, specifier, '*');
      if (named && ts.isNamedImports(named)) {
        for (const element of named.elements) {
          if (!typeOnly && !element.isTypeOnly) this.bindImport(element.name.text, specifier, (element.propertyName ?? element.name).text);
        }
      }
      if (typeOnly) for (const name of this.bindingNames(clause)) this.importedFrom.delete(name);
      return;
    }
    if (ts.isImportEqualsDeclaration(statement)) {
      this.topLevelNames.add(statement.name.text);
      const ref = statement.moduleReference;
      if (ts.isExternalModuleReference(ref) && ts.isStringLiteral(ref.expression)) {
        this.importedFrom.set(statement.name.text, { specifier: ref.expression.text, imported: '*' });
      }
      return;
    }
    for (const name of this.declaredNames(statement)) this.topLevelNames.add(name);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const required = this.requireBindings(declaration);
        for (const binding of required?.bindings ?? []) {
          if (binding.local && required) this.importedFrom.set(binding.local, { specifier: required.specifier, imported: binding.imported });
        }
      }
    }
  }

  private bindingNames(clause: TS.ImportClause): string[] {
    const { ts } = this;
    const names: string[] = [];
    if (clause.name) names.push(clause.name.text);
    const named = clause.namedBindings;
    if (named && ts.isNamespaceImport(named)) names.push(named.name.text);
    if (named && ts.isNamedImports(named)) for (const e of named.elements) names.push(e.name.text);
    return names;
  }

  private bindImport(local: string, specifier: string, imported: string): void {
    this.topLevelNames.add(local);
    this.importedFrom.set(local, { specifier, imported });
  }

  private declaredNames(statement: TS.Statement): string[] {
    const { ts } = this;
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
      return [statement.name?.text ?? 'default'];
    }
    if (ts.isEnumDeclaration(statement)) return [statement.name.text];
    if (ts.isModuleDeclaration(statement) && ts.isIdentifier(statement.name)) return [statement.name.text];
    if (ts.isVariableStatement(statement)) {
      return statement.declarationList.declarations.flatMap((d) => this.bindingPatternNames(d.name));
    }
    return [];
  }

  private bindingPatternNames(name: TS.BindingName): string[] {
    const { ts } = this;
    if (ts.isIdentifier(name)) return [name.text];
    return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : this.bindingPatternNames(element.name)));
  }

  private hasModifier(node: TS.Node, kind: TS.SyntaxKind): boolean {
    const { ts } = this;
    return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === kind) ?? false);
  }

  // ---- top-level statements

  private visitTopLevel(statement: TS.Statement, init: Unit): void {
    const { ts } = this;
    if (ts.isImportDeclaration(statement)) return this.recordImport(statement);
    if (ts.isImportEqualsDeclaration(statement)) {
      const ref = statement.moduleReference;
      if (ts.isExternalModuleReference(ref) && ts.isStringLiteral(ref.expression)) {
        this.imports.push({
          specifier: ref.expression.text,
          kind: 'require',
          typeOnly: statement.isTypeOnly,
          bindings: [{ imported: '*', local: statement.name.text, typeOnly: statement.isTypeOnly }],
          loc: this.loc(statement),
          unit: '<init>',
          eager: true,
        });
      }
      return;
    }
    if (ts.isExportDeclaration(statement)) return this.recordExportDeclaration(statement);
    if (ts.isExportAssignment(statement)) {
      if (statement.isExportEquals) {
        this.exports.push({ kind: 'commonjs', loc: this.loc(statement) });
        this.bareStatements++;
        this.visitUnit(statement.expression, init, '<init>', true);
        return;
      }
      if (ts.isIdentifier(statement.expression)) {
        this.exports.push({ kind: 'local', name: 'default', local: statement.expression.text, loc: this.loc(statement) });
        return;
      }
      const unit = this.newUnit(['default'], statement);
      this.visitUnit(statement.expression, unit, 'default', !this.isDeferredInitializer(statement.expression));
      this.exports.push({ kind: 'local', name: 'default', local: 'default', loc: this.loc(statement) });
      return;
    }
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      // It runs nothing, but an import of its name is an import of something the module exports, not of an unknown name.
      if (this.hasModifier(statement, ts.SyntaxKind.ExportKeyword)) this.exports.push({ kind: 'type', name: statement.name.text, loc: this.loc(statement) });
      return;
    }
    if (this.hasModifier(statement, ts.SyntaxKind.DeclareKeyword)) return;

    const exported = this.hasModifier(statement, ts.SyntaxKind.ExportKeyword);
    const isDefault = this.hasModifier(statement, ts.SyntaxKind.DefaultKeyword);

    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
      if (ts.isFunctionDeclaration(statement) && !statement.body) return;
      const name = statement.name?.text ?? 'default';
      const unit = this.newUnit([name], statement);
      // Decorators and static initializers of a class run on load; everything else when called.
      this.visitUnit(statement, unit, name, false);
      if (exported) this.exports.push({ kind: 'local', name: isDefault ? 'default' : name, local: name, loc: this.loc(statement) });
      return;
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const names = this.bindingPatternNames(declaration.name);
        const unit = this.newUnit(names, declaration);
        if (declaration.initializer) {
          const eager = !this.isDeferredInitializer(declaration.initializer);
          this.recordRequireBinding(declaration, names[0] ?? '<init>', eager);
          this.recordEnvDestructuring(declaration, unit, eager);
          this.visitUnit(declaration.initializer, unit, names[0] ?? '<init>', eager);
        }
        if (exported) for (const name of names) this.exports.push({ kind: 'local', name, local: name, loc: this.loc(declaration) });
      }
      return;
    }
    if (ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) {
      const names = this.declaredNames(statement);
      const unit = this.newUnit(names, statement);
      this.visitUnit(statement, unit, names[0] ?? '<init>', true);
      if (exported) for (const name of names) this.exports.push({ kind: 'local', name, local: name, loc: this.loc(statement) });
      return;
    }
    if (ts.isEmptyStatement(statement) || (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression))) return;
    if (ts.isIfStatement(statement) && this.isEntryGuard(statement.expression)) {
      // `if (import.meta.main) main()` runs when the file is executed, never when it is imported.
      this.visitUnit(statement.expression, init, '<init>', true);
      this.visitUnit(statement.thenStatement, this.newUnit(['<main>'], statement.thenStatement), '<main>', false);
      if (statement.elseStatement) this.visitUnit(statement.elseStatement, init, '<init>', true);
      return;
    }
    this.bareStatements++;
    this.visitUnit(statement, init, '<init>', true);
  }

  /** `import.meta.main`, `require.main === module`, `process.argv[1] === fileURLToPath(import.meta.url)`, alone or in a conjunction. */
  private isEntryGuard(expression: TS.Expression): boolean {
    const { ts } = this;
    let node = expression;
    while (ts.isParenthesizedExpression(node)) node = node.expression;
    if (ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression)) return node.name.text === 'main';
    if (!ts.isBinaryExpression(node)) return false;
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return this.isEntryGuard(node.left) || this.isEntryGuard(node.right);
    if (op !== ts.SyntaxKind.EqualsEqualsEqualsToken && op !== ts.SyntaxKind.EqualsEqualsToken) return false;
    const [left, right] = [node.left, node.right].map((side) => side.getText(this.sourceFile).replace(/\s+/g, ''));
    if (left === undefined || right === undefined) return false;
    if ((left === 'require.main' && right === 'module') || (left === 'module' && right === 'require.main')) return true;
    return (ENTRY_SELF.test(left) && ENTRY_ARGV.test(right)) || (ENTRY_SELF.test(right) && ENTRY_ARGV.test(left));
  }

  private isDeferredInitializer(expression: TS.Expression): boolean {
    const { ts } = this;
    let node: TS.Expression = expression;
    while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) node = node.expression;
    return ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isClassExpression(node);
  }

  private newUnit(names: string[], node: TS.Node): Unit {
    const unit: Unit = { names, loc: this.loc(node), refs: [], sites: [] };
    this.units.push(unit);
    return unit;
  }

  private recordImport(statement: TS.ImportDeclaration): void {
    const { ts } = this;
    if (!ts.isStringLiteral(statement.moduleSpecifier)) return;
    const clause = statement.importClause;
    const loc = this.loc(statement);
    if (!clause) {
      this.imports.push({ specifier: statement.moduleSpecifier.text, kind: 'side-effect', typeOnly: false, bindings: [], loc });
      return;
    }
    const typeOnly = clause.phaseModifier === ts.SyntaxKind.TypeKeyword;
    const bindings: ImportBinding[] = [];
    if (clause.name) bindings.push({ imported: 'default', local: clause.name.text, typeOnly });
    const named = clause.namedBindings;
    if (named && ts.isNamespaceImport(named)) bindings.push({ imported: '*', local: named.name.text, typeOnly });
    if (named && ts.isNamedImports(named)) {
      for (const element of named.elements) {
        bindings.push({ imported: (element.propertyName ?? element.name).text, local: element.name.text, typeOnly: typeOnly || element.isTypeOnly });
      }
    }
    const allTypes = typeOnly || (bindings.length > 0 && bindings.every((b) => b.typeOnly));
    this.imports.push({ specifier: statement.moduleSpecifier.text, kind: 'static', typeOnly: allTypes, bindings, loc });
  }

  private recordExportDeclaration(statement: TS.ExportDeclaration): void {
    const { ts } = this;
    const loc = this.loc(statement);
    const clause = statement.exportClause;
    if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const specifier = statement.moduleSpecifier.text;
      const bindings: ImportBinding[] = [];
      if (!clause) {
        this.exports.push({ kind: 'star', specifier, loc });
      } else if (ts.isNamespaceExport(clause)) {
        this.exports.push({ kind: 'reexport', name: clause.name.text, specifier, imported: '*', loc });
        bindings.push({ imported: '*', local: clause.name.text, typeOnly: statement.isTypeOnly });
      } else {
        for (const element of clause.elements) {
          const typeOnly = statement.isTypeOnly || element.isTypeOnly;
          const imported = (element.propertyName ?? element.name).text;
          bindings.push({ imported, local: element.name.text, typeOnly });
          this.exports.push(typeOnly ? { kind: 'type', name: element.name.text, loc } : { kind: 'reexport', name: element.name.text, specifier, imported, loc });
        }
      }
      this.imports.push({ specifier, kind: 'reexport', typeOnly: statement.isTypeOnly, bindings, loc });
      return;
    }
    if (clause && ts.isNamedExports(clause)) {
      for (const element of clause.elements) {
        if (statement.isTypeOnly || element.isTypeOnly) {
          this.exports.push({ kind: 'type', name: element.name.text, loc });
          continue;
        }
        const local = (element.propertyName ?? element.name).text;
        const origin = this.importedFrom.get(local);
        // `import { a } from './x'; export { a }` is a re-export for resolution purposes.
        if (origin) this.exports.push({ kind: 'reexport', name: element.name.text, specifier: origin.specifier, imported: origin.imported, loc });
        else this.exports.push({ kind: 'local', name: element.name.text, local, loc });
      }
    }
  }

  // ---- the walk

  enter(node: TS.Node, scope: UnitScope | null): UnitScope | null {
    if (scope === null) return null;
    const { ts } = this;
    // Types run nothing and name nothing that runs.
    if (this.tables.types[node.kind] === 1) return null;
    const acts = ts.isIdentifier(node)
      ? this.topLevelNames.has(node.text)
      : ts.isCallExpression(node) ||
        ts.isNewExpression(node) ||
        ts.isTaggedTemplateExpression(node) ||
        ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && isEnvObject(ts, node.expression)) ||
        (ts.isVariableDeclaration(node) && node.initializer !== undefined);
    if (acts) scope.events.push({ node, eager: scope.eager });
    return scope;
  }

  scopeOf(parent: TS.Node, child: TS.Node, inner: UnitScope | null): UnitScope | null {
    const { ts } = this;
    if (inner === null && parent !== this.sourceFile) return null;
    if (parent === this.sourceFile) {
      const events: UnitEvent[] = [];
      this.statementEvents.set(child, events);
      return { events, eager: true, deferred: null };
    }
    if (inner === null || !inner.eager || !(ts.isFunctionLike(parent) || ts.isClassLike(parent))) return inner;
    // A class's decorators, computed keys and static members run on load.
    const eagerChild = ts.isClassLike(parent) && (ts.isDecorator(child) || (ts.isPropertyDeclaration(child) && this.hasModifier(child, ts.SyntaxKind.StaticKeyword)) || ts.isClassStaticBlockDeclaration(child));
    if (eagerChild) return inner;
    inner.deferred ??= { events: inner.events, eager: false, deferred: null };
    return inner.deferred;
  }

  // ---- unit bodies

  /** Reads what the walk recorded under `root` (a top-level statement or a part of one) into `unit`. */
  private visitUnit(root: TS.Node, unit: Unit, unitName: string, eager: boolean): void {
    let statement = root;
    while (statement.parent !== this.sourceFile) statement = statement.parent;
    const context: Context = { unit, unitName, eager };
    const deferred: Context = { ...context, eager: false };
    for (const event of this.statementEvents.get(statement) ?? []) {
      if (root !== statement && !isWithin(event.node, root, statement)) continue;
      this.visit(event.node, event.eager ? context : deferred);
    }
  }

  private visit(node: TS.Node, context: Context): void {
    const { ts } = this;
    if (ts.isIdentifier(node)) this.recordRef(node, context);
    else if (ts.isCallExpression(node)) this.recordCall(node, context);
    else if (ts.isNewExpression(node)) this.recordNew(node, context);
    else if (ts.isTaggedTemplateExpression(node)) this.recordTaggedTemplate(node, context);
    else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) this.recordEnvAccess(node, context);
    else if (ts.isVariableDeclaration(node) && node.initializer) {
      this.recordEnvDestructuring(node, context.unit, context.eager);
      this.recordRequireBinding(node, context.unitName, context.eager);
    }
  }

  private recordRef(node: TS.Identifier, context: Context): void {
    const { ts } = this;
    const name = node.text;
    if (!this.topLevelNames.has(name)) return;
    const parent = node.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.name === node) return;
    if (this.tables.declaring[parent.kind] === 1 && this.declares(parent, node)) return;

    let member: string | undefined;
    let callee: TS.Node = node;
    if (ts.isPropertyAccessExpression(parent) && parent.expression === node && this.importedFrom.get(name)?.imported === '*') {
      member = parent.name.text;
      callee = parent;
    }
    const call = callee.parent;
    const isCallee = (ts.isCallExpression(call) || ts.isNewExpression(call)) && call.expression === callee;
    const isTag = ts.isTaggedTemplateExpression(call) && call.tag === callee;
    const ref: Ref = { name, eagerCall: context.eager && (isCallee || isTag) };
    if (member !== undefined) ref.member = member;
    // The graph needs each distinct reference once; a name used twenty times is one edge.
    let seen = this.refKeys.get(context.unit);
    if (!seen) {
      seen = new Map();
      this.refKeys.set(context.unit, seen);
    }
    const key = member ? `${name}\0${member}` : name;
    const bit = ref.eagerCall ? 2 : 1;
    const bits = seen.get(key) ?? 0;
    if ((bits & bit) !== 0) return;
    seen.set(key, bits | bit);
    context.unit.refs.push(ref);
  }

  /** Whether `node`, in a parent of a `declaring` kind, is a name declared there or a label rather than a reference. */
  private declares(parent: TS.Node, node: TS.Identifier): boolean {
    const { ts } = this;
    if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent) || ts.isEnumMember(parent)) && parent.name === node) return true;
    if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionDeclaration(parent) || ts.isClassDeclaration(parent) || ts.isFunctionExpression(parent) || ts.isClassExpression(parent)) && parent.name === node) return true;
    if (ts.isBindingElement(parent) && (parent.name === node || parent.propertyName === node)) return true;
    return ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent) || ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent) || ts.isJsxAttribute(parent);
  }

  // ---- static evaluation

  /** Evaluates an expression to a string; unknown parts are UNKNOWN; null when nothing is known. */
  evaluate(node: TS.Expression | undefined, depth = 0): string | null {
    const { ts } = this;
    if (!node || depth > 20) return null;
    if (ts.isStringLiteralLike(node)) return node.text;
    if (ts.isNumericLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) {
      let text = node.head.text;
      for (const span of node.templateSpans) {
        const value = this.evaluate(span.expression, depth + 1);
        text += (value ?? UNKNOWN) + span.literal.text;
      }
      return text;
    }
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node) || ts.isTypeAssertionExpression(node)) {
      return this.evaluate(node.expression, depth + 1);
    }
    if (ts.isIdentifier(node)) {
      const initializer = this.constants.get(node.text);
      return initializer ? this.evaluate(initializer, depth + 1) : null;
    }
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if (op === ts.SyntaxKind.PlusToken) {
        const left = this.evaluate(node.left, depth + 1);
        const right = this.evaluate(node.right, depth + 1);
        if (left === null && right === null) return null;
        return (left ?? UNKNOWN) + (right ?? UNKNOWN);
      }
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
        const left = this.evaluate(node.left, depth + 1);
        return left !== null && !left.includes(UNKNOWN) ? left : this.evaluate(node.right, depth + 1);
      }
      return null;
    }
    if (ts.isConditionalExpression(node)) {
      return this.evaluate(node.whenTrue, depth + 1) ?? this.evaluate(node.whenFalse, depth + 1);
    }
    if (ts.isAwaitExpression(node)) return this.evaluate(node.expression, depth + 1);
    if (ts.isCallExpression(node)) {
      const name = calleeName(ts, node.expression);
      const last = name?.split('.').pop() ?? '';
      // A CLI path from a lookup (`Bun.which('claude')`, `which('codex')`) stands for that CLI.
      if (LOOKUP_FUNCTIONS.has(last) || name === 'Bun.which') return this.evaluate(node.arguments[0], depth + 1);
      if (name === 'path.join' || name === 'path.resolve' || name === 'join' || name === 'resolve' || name === 'path.posix.join') {
        const parts = node.arguments.map((a) => this.evaluate(a, depth + 1) ?? UNKNOWN);
        return parts.join('/').replace(/\/+/g, '/');
      }
      if (name?.endsWith('.trim') && ts.isPropertyAccessExpression(node.expression)) return this.evaluate(node.expression.expression, depth + 1);
      return null;
    }
    return null;
  }

  private evaluateWords(node: TS.Expression | undefined): Word[] | null {
    const { ts } = this;
    if (!node) return [];
    let target: TS.Expression = node;
    if (ts.isIdentifier(target)) {
      const initializer = this.constants.get(target.text);
      if (initializer) target = initializer;
    }
    while (ts.isParenthesizedExpression(target) || ts.isAsExpression(target) || ts.isSatisfiesExpression(target)) target = target.expression;
    if (!ts.isArrayLiteralExpression(target)) return null;
    return target.elements.map((element) => {
      if (ts.isSpreadElement(element)) return null;
      const value = this.evaluate(element);
      return value === null || value.includes(UNKNOWN) ? null : value;
    });
  }

  private word(node: TS.Expression | undefined): Word {
    const value = this.evaluate(node);
    return value === null || value.includes(UNKNOWN) ? null : value;
  }

  private objectProperty(node: TS.Expression | undefined, key: string): TS.Expression | undefined {
    const { ts } = this;
    if (!node) return undefined;
    let target: TS.Expression = node;
    if (ts.isIdentifier(target)) target = this.constants.get(target.text) ?? target;
    if (!ts.isObjectLiteralExpression(target)) return undefined;
    for (const property of target.properties) {
      if (ts.isPropertyAssignment(property) && propertyKey(ts, property.name) === key) return property.initializer;
      if (ts.isShorthandPropertyAssignment(property) && property.name.text === key) return property.name;
    }
    return undefined;
  }

  private isTrue(node: TS.Expression | undefined): boolean {
    return node !== undefined && node.kind === this.ts.SyntaxKind.TrueKeyword;
  }

  // ---- calls

  /** What a callee, by its dotted name, refers to: `child_process.spawn`, `execa`, `Bun.spawn`, `fetch`, `axios.post`… */
  private canonicalCallee(name: string | null): string | null {
    if (!name) return null;
    const dot = name.indexOf('.');
    const head = dot === -1 ? name : name.slice(0, dot);
    const rest = dot === -1 ? '' : name.slice(dot);
    const origin = this.importedFrom.get(head);
    if (origin) {
      const module = origin.specifier.replace(/^node:/, '');
      const base = origin.imported === '*' || origin.imported === 'default' ? module : `${module}.${origin.imported}`;
      return base + rest;
    }
    const required = this.requireOrigin(head);
    if (required) return required + rest;
    return name;
  }

  /** `const cp = require('child_process')` / `const { spawn } = require('node:child_process')`. */
  private requireOrigin(local: string): string | null {
    const { ts } = this;
    const initializer = this.constants.get(local);
    if (!initializer) return null;
    const required = requireSpecifier(ts, initializer);
    if (required) return required.replace(/^node:/, '');
    if (ts.isPropertyAccessExpression(initializer)) {
      const inner = requireSpecifier(ts, initializer.expression);
      if (inner) return `${inner.replace(/^node:/, '')}.${initializer.name.text}`;
    }
    return null;
  }

  private recordCall(node: TS.CallExpression, context: Context): void {
    const { ts } = this;
    const args = node.arguments;

    if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      this.recordDynamicImport(node, context);
      return;
    }
    if (ts.isIdentifier(node.expression) && node.expression.text === 'require' && args.length === 1) {
      const specifier = this.word(args[0]);
      if (specifier !== null && !this.isRequireBindingCall(node)) {
        this.imports.push({ specifier, kind: 'require', typeOnly: false, bindings: [{ imported: '*', local: '', typeOnly: false }], loc: this.loc(node), unit: context.unitName, eager: context.eager });
      }
      return;
    }

    const rawName = calleeName(ts, node.expression);
    if (rawName === 'vi.stubEnv' || rawName === 'Object.assign') this.recordEnvPlant(rawName, args);
    if (rawName && MOCK_CALLS.has(rawName)) {
      const first = args[0];
      let specifier = this.word(first);
      if (specifier === null && first && ts.isCallExpression(first) && first.expression.kind === ts.SyntaxKind.ImportKeyword) specifier = this.word(first.arguments[0]);
      if (specifier !== null) this.mocks.push({ specifier, via: rawName, loc: this.loc(node) });
      return;
    }

    const callee = this.canonicalCallee(rawName);
    if (!callee) return;
    const [module = '', fn = ''] = splitCallee(callee);

    if (FS_MODULES.has(module) || callee === 'Bun.write') {
      this.recordFilePlant(callee === 'Bun.write' ? 'writeFile' : fn, args);
      return;
    }
    if (module === 'child_process') {
      if (!CHILD_PROCESS_FUNCTIONS.has(fn)) return;
      this.spawnSite(context, callee, node, this.childProcessCommands(fn, args));
      return;
    }
    if (module === 'cross-spawn') {
      this.spawnSite(context, callee, node, this.argvCommands(args[0], args[1], args[2]));
      return;
    }
    if (module === 'execa' || module === 'tinyexec' || module === 'nano-spawn') {
      if (SHELL_STRING_FUNCTIONS.has(fn)) this.spawnSite(context, callee, node, this.shellCommands(args[0]));
      else if (EXECA_FUNCTIONS.has(fn) || fn === 'x' || fn === '') this.spawnSite(context, callee, node, this.argvCommands(args[0], args[1], args[2]));
      return;
    }
    if (callee === 'Bun.spawn' || callee === 'Bun.spawnSync') {
      const first = args[0];
      const cmd = this.objectProperty(first, 'cmd');
      const argv = this.evaluateWords(cmd ?? first);
      this.spawnSite(context, callee, node, argv ? expandCommand(argv) : [[null]]);
      return;
    }
    if (callee === 'Deno.Command' || callee === 'Deno.run') return;

    const request = this.requestCallee(callee, module, fn);
    if (request) {
      this.requestSite(context, callee, node, request === 'config' ? this.objectProperty(args[0], 'url') ?? this.objectProperty(args[0], 'baseURL') : args[0]);
    }
  }

  /** `vi.stubEnv('X', …)`, `Object.assign(process.env, { X })`. */
  private recordEnvPlant(name: string, args: TS.NodeArray<TS.Expression>): void {
    const { ts } = this;
    const [first, second] = args;
    if (name === 'vi.stubEnv') {
      const key = this.word(first);
      if (key !== null) this.plantedEnv.add(key);
      return;
    }
    if (!first || !isEnvObject(ts, first) || !second || !ts.isObjectLiteralExpression(second)) return;
    for (const property of second.properties) {
      const key = property.name ? propertyKey(ts, property.name) : null;
      if (key !== null) this.plantedEnv.add(key);
    }
  }

  /** A file written (its base name, when static) or a directory created: where a test plants a stub executable. */
  private recordFilePlant(fn: string, args: TS.NodeArray<TS.Expression>): void {
    if (DIR_MAKERS.has(fn)) this.makesDirs = true;
    const pathNode = FILE_WRITES.has(fn) ? args[0] : FILE_COPIES.has(fn) ? args[1] : undefined;
    if (!pathNode) return;
    const path = this.evaluate(pathNode);
    const name = path?.slice(path.lastIndexOf('/') + 1) ?? '';
    if (name !== '' && !name.includes(UNKNOWN)) this.plantedFiles.add(name);
  }

  private requestCallee(callee: string, module: string, fn: string): 'url' | 'config' | null {
    if (callee === 'fetch' || callee === 'globalThis.fetch' || callee === '$fetch' || callee === 'ofetch') return 'url';
    if (NODE_HTTP_MODULES.has(module)) return fn === 'request' || fn === 'get' ? 'url' : null;
    if (HTTP_CLIENT_MODULES.has(module)) {
      if (fn === '' || fn === 'default') return 'url';
      if (HTTP_METHODS.has(fn)) return 'url';
      return null;
    }
    return null;
  }

  private recordNew(node: TS.NewExpression, context: Context): void {
    const { ts } = this;
    const name = calleeName(ts, node.expression);
    if (name === 'WebSocket' || name === 'EventSource') this.requestSite(context, name, node, node.arguments?.[0]);
    if (name === 'Deno.Command') {
      const args = node.arguments ?? [];
      const program = this.word(args[0]);
      const rest = this.evaluateWords(this.objectProperty(args[1], 'args')) ?? [];
      this.spawnSite(context, name, node, expandCommand([program, ...rest]));
    }
  }

  private recordTaggedTemplate(node: TS.TaggedTemplateExpression, context: Context): void {
    const { ts } = this;
    const name = calleeName(ts, node.tag);
    if (!name) return;
    const head = name.split('.')[0] ?? '';
    const origin = this.importedFrom.get(head);
    const fromShellModule = origin !== undefined && SHELL_TAG_MODULES.has(origin.specifier);
    const isShellTag = name === 'Bun.$' || fromShellModule || (name === '$' && !this.topLevelNames.has('$'));
    if (!isShellTag) return;
    const text = this.evaluate(node.template);
    this.spawnSite(context, name, node, text === null ? [[null]] : splitShell(text));
  }

  private childProcessCommands(fn: string, args: TS.NodeArray<TS.Expression>): Word[][] {
    if (fn === 'exec' || fn === 'execSync') return this.shellCommands(args[0]);
    if (fn === 'fork') return [['node', this.word(args[0])]];
    return this.argvCommands(args[0], args[1], args[2]);
  }

  private argvCommands(program: TS.Expression | undefined, argsNode: TS.Expression | undefined, options: TS.Expression | undefined): Word[][] {
    const { ts } = this;
    // `spawn(cmd, options)` without an args array.
    const argsIsOptions = argsNode !== undefined && (ts.isObjectLiteralExpression(argsNode));
    const opts = argsIsOptions ? argsNode : options;
    const rest = argsIsOptions ? [] : (this.evaluateWords(argsNode) ?? (argsNode ? [null] : []));
    if (this.isTrue(this.objectProperty(opts, 'shell'))) {
      const line = [this.evaluate(program) ?? UNKNOWN, ...rest.map((w) => w ?? UNKNOWN)].join(' ');
      return splitShell(line);
    }
    return expandCommand([this.word(program), ...rest]);
  }

  private shellCommands(node: TS.Expression | undefined): Word[][] {
    const text = this.evaluate(node);
    return text === null ? [[null]] : splitShell(text);
  }

  private spawnSite(context: Context, via: string, node: TS.Node, commands: Word[][]): void {
    const site: Site = { kind: 'spawn', via, commands, eager: context.eager, loc: this.loc(node) };
    context.unit.sites.push(site);
  }

  private requestSite(context: Context, via: string, node: TS.Node, urlNode: TS.Expression | undefined): void {
    const { ts } = this;
    let target = urlNode;
    let host: string | null = null;
    if (target && ts.isNewExpression(target) && calleeName(ts, target.expression) === 'URL') {
      const [path, base] = target.arguments ?? [];
      target = this.evaluate(base) !== null ? base : path;
    }
    // Option objects: `axios({ url })`, `https.request({ hostname })`, `got({ prefixUrl })`.
    const options = this.objectProperty(target, 'url') ?? this.objectProperty(target, 'baseURL') ?? this.objectProperty(target, 'prefixUrl');
    const hostNode = this.objectProperty(target, 'hostname') ?? this.objectProperty(target, 'host');
    if (options) target = options;
    else if (hostNode) {
      host = this.word(hostNode)?.toLowerCase() ?? null;
      target = undefined;
    }
    const url = this.evaluate(target);
    if (url !== null) host = hostOf(url);
    const site: Site = { kind: 'request', via, host, url, eager: context.eager, loc: this.loc(node) };
    context.unit.sites.push(site);
  }

  private isRequireBindingCall(node: TS.CallExpression): boolean {
    const { ts } = this;
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent) && parent.initializer === node) return true;
    return ts.isPropertyAccessExpression(parent) && ts.isVariableDeclaration(parent.parent) && parent.parent.initializer === parent;
  }

  private recordDynamicImport(node: TS.CallExpression, context: Context): void {
    const { ts } = this;
    const specifier = this.word(node.arguments[0]);
    if (specifier === null) return;
    let bindings: ImportBinding[] = [{ imported: '*', local: '', typeOnly: false }];
    let parent: TS.Node = node.parent;
    if (ts.isAwaitExpression(parent)) parent = parent.parent;
    if (ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name)) bindings = this.patternBindings(parent.name);
    this.imports.push({ specifier, kind: 'dynamic', typeOnly: false, bindings, loc: this.loc(node), unit: context.unitName, eager: context.eager });
  }

  private patternBindings(pattern: TS.ObjectBindingPattern): ImportBinding[] {
    const { ts } = this;
    return pattern.elements.map((element) => {
      const local = ts.isIdentifier(element.name) ? element.name.text : '';
      const key = element.propertyName ? propertyKey(ts, element.propertyName) : local;
      return element.dotDotDotToken ? { imported: '*', local, typeOnly: false } : { imported: key ?? '*', local, typeOnly: false };
    });
  }

  /** `const x = require('y')`, `const { a } = require('y')`, `const b = require('y').b`. */
  private requireBindings(declaration: TS.VariableDeclaration): { specifier: string; bindings: ImportBinding[] } | null {
    const { ts } = this;
    const initializer = declaration.initializer;
    if (!initializer) return null;
    let call: TS.Expression = initializer;
    let member: string | null = null;
    if (ts.isPropertyAccessExpression(call)) {
      member = call.name.text;
      call = call.expression;
    }
    const specifier = requireSpecifier(ts, call);
    if (specifier === null) return null;
    let bindings: ImportBinding[];
    if (ts.isObjectBindingPattern(declaration.name)) bindings = this.patternBindings(declaration.name);
    else if (ts.isIdentifier(declaration.name)) bindings = [{ imported: member ?? '*', local: declaration.name.text, typeOnly: false }];
    else bindings = [{ imported: '*', local: '', typeOnly: false }];
    return { specifier, bindings };
  }

  private recordRequireBinding(declaration: TS.VariableDeclaration, unitName: string, eager: boolean): void {
    const required = this.requireBindings(declaration);
    if (!required) return;
    const { specifier, bindings } = required;
    this.imports.push({ specifier, kind: 'require', typeOnly: false, bindings, loc: this.loc(declaration), unit: unitName, eager });
    for (const binding of bindings) if (binding.local) this.importedFrom.set(binding.local, { specifier, imported: binding.imported });
  }

  // ---- env reads

  private recordEnvAccess(node: TS.PropertyAccessExpression | TS.ElementAccessExpression, context: Context): void {
    const { ts } = this;
    if (!isEnvObject(ts, node.expression)) return;
    const name = ts.isPropertyAccessExpression(node) ? node.name.text : this.word(node.argumentExpression);
    if (name === null) return;
    const site: EnvSite = { kind: 'env', name, eager: context.eager, loc: this.loc(node) };
    const access = this.envAccess(node);
    if (access === 'write') {
      site.access = 'write';
      this.plantedEnv.add(name);
    } else if (access === 'kept') {
      this.keptEnvReads.push(site);
    }
    context.unit.sites.push(site);
  }

  /** How an env member is used: set or deleted; kept in a variable or asserted (`const saved = process.env.X`); or read into an expression. */
  private envAccess(node: TS.Expression): 'write' | 'kept' | 'read' {
    const { ts } = this;
    let child: TS.Node = node;
    let parent = node.parent;
    while (ts.isParenthesizedExpression(parent) || ts.isNonNullExpression(parent) || ts.isAsExpression(parent)) {
      child = parent;
      parent = parent.parent;
    }
    if (ts.isDeleteExpression(parent)) return 'write';
    if (ts.isBinaryExpression(parent)) {
      const op = parent.operatorToken.kind;
      if (op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment && parent.left === child) return 'write';
      if (op === ts.SyntaxKind.EqualsToken && ts.isIdentifier(parent.left)) return 'kept';
    }
    if (ts.isVariableDeclaration(parent) && parent.initializer === child && ts.isIdentifier(parent.name)) return 'kept';
    if (ts.isCallExpression(parent) && parent.arguments.some((arg) => arg === child)) {
      const head = calleeName(ts, parent.expression)?.split('.')[0];
      if (head === 'expect' || head === 'assert') return 'kept';
    }
    return 'read';
  }

  private recordEnvDestructuring(declaration: TS.VariableDeclaration, unit: Unit, eager: boolean): void {
    const { ts } = this;
    if (!declaration.initializer || !ts.isObjectBindingPattern(declaration.name) || !isEnvObject(ts, declaration.initializer)) return;
    for (const element of declaration.name.elements) {
      const key = element.propertyName ? propertyKey(ts, element.propertyName) : ts.isIdentifier(element.name) ? element.name.text : null;
      if (key) unit.sites.push({ kind: 'env', name: key, eager, loc: this.loc(element) });
    }
  }
}

/** Whether `node` is `root` or inside it; `statement`, the top-level statement holding `root`, bounds the search. */
function isWithin(node: TS.Node, root: TS.Node, statement: TS.Node): boolean {
  for (let current: TS.Node = node; current !== statement; current = current.parent) if (current === root) return true;
  return false;
}

function splitCallee(callee: string): [string, string] {
  const dot = callee.lastIndexOf('.');
  if (dot === -1) return [callee, ''];
  return [callee.slice(0, dot), callee.slice(dot + 1)];
}

function propertyKey(ts: TypeScript, name: TS.PropertyName): string | null {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
  return null;
}

function requireSpecifier(ts: TypeScript, node: TS.Expression): string | null {
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments.length === 1) {
    const arg = node.arguments[0];
    if (arg && ts.isStringLiteralLike(arg)) return arg.text;
  }
  return null;
}

export function hostOf(url: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  if (!match) return null;
  const authority = match[1] ?? '';
  const host = authority.replace(/^.*@/, '').replace(/:\d*$/, '').toLowerCase();
  return host === '' || host.includes(UNKNOWN) ? null : host;
}

const SUPPRESSION = /(\/\/|\/\*)\s*tripwire-disable(-next-line|-line)\b([^\n]*)/g;

/**
 * `tripwire-disable-line` / `-next-line` comments. Like ESLint's directives, a
 * suppression is a comment that starts with it (`isComment` says where a
 * comment starts): the same words in a string, a template or in the middle of
 * another comment (documentation showing the syntax) suppress nothing.
 */
export function extractSuppressions(text: string, position: (offset: number) => { line: number; column: number }, isComment: (offset: number) => boolean = () => true): Suppression[] {
  const suppressions: Suppression[] = [];
  for (const match of text.matchAll(SUPPRESSION)) {
    if (!isComment(match.index)) continue;
    let body = match[3] ?? '';
    if (match[1] === '/*') body = body.replace(/\*\/.*$/, '');
    const [rulesPart = '', ...reasonParts] = body.split(/\s--\s?|^--\s?/);
    const reason = reasonParts.join(' -- ').trim();
    const rules = rulesPart.split(/[\s,]+/).filter(Boolean);
    const start = match.index;
    const end = start + match[0].length;
    const a = position(start);
    const b = position(end);
    suppressions.push({
      scope: match[2] === '-line' ? 'line' : 'next-line',
      rules,
      reason: reason === '' ? null : reason,
      loc: { line: a.line, column: a.column, endLine: b.line, endColumn: b.column },
    });
  }
  return suppressions;
}
