import type * as TS from 'typescript';
import type { TypeScript } from '../parse/typescript.js';
import { kindTable, type KindTable, type Visitor } from './walk.js';

/** What the visitors look names up in once the walk is over. */
export interface Declarations {
  /** Every `const` of the file (at any depth) by name, for static evaluation; null when the name is declared twice. */
  constants: Map<string, TS.Expression | null>;
  /** Every named function or class declaration (at any depth) by name; the last one wins. */
  functions: Map<string, TS.FunctionDeclaration | TS.ClassDeclaration>;
}

let kinds: KindTable | undefined;

/** A visitor of the one walk (walk.ts) that collects the file's declarations. */
export function declarationsVisitor(ts: TypeScript): Visitor & Declarations {
  const constants = new Map<string, TS.Expression | null>();
  const functions = new Map<string, TS.FunctionDeclaration | TS.ClassDeclaration>();
  kinds ??= kindTable(ts, [ts.SyntaxKind.VariableDeclaration, ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.ClassDeclaration]);
  const enter = (node: TS.Node): void => {
    if (ts.isVariableDeclaration(node)) {
      if (ts.isIdentifier(node.name) && node.initializer && ts.isVariableDeclarationList(node.parent) && (node.parent.flags & ts.NodeFlags.Const) !== 0) {
        const name = node.name.text;
        constants.set(name, constants.has(name) ? null : node.initializer);
      }
    } else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) {
      functions.set(node.name.text, node);
    }
  };
  return { kinds, enter, constants, functions };
}
