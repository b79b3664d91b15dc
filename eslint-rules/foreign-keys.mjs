import ts from 'typescript';

/**
 * Names that come from outside (tools, servers, clients, platforms, headers…) are keys into `Map`s or
 * null-prototype records, never into plain objects: `toolPolicies[tool.name]` with a tool called
 * `constructor` read Object's constructor, and the tool ran although its server's policy was "never".
 *
 * `no-inherited-lookup` reports, with type information:
 * - `record[key]`, read or written, where `record` has a string index signature (a `Record<string, T>`,
 *   `NodeJS.ProcessEnv`, `{ [k: string]: T }`) and `key` is any string, not one of known literals;
 * - `key in record` with such a key (it finds inherited members: `'toString' in {}`).
 * A record made by `nameRecord()` (`src/shared/own.ts`, typed `NameRecord<T>`) has no prototype, and may be
 * indexed; so may a record where `Object.hasOwn(record, key)` was checked just before (`? :`, `&&`, `if`).
 * Everything else reads with `own(record, key)`, or holds a `Map`.
 *
 * What it cannot see: a plain `{}` typed as a `NameRecord` (the type says no prototype, the value has one:
 * make them with `nameRecord()`); a lookup through `any` or `unknown` cast to a record at the point of use
 * (`(x as Record<string, unknown>)[k]` is seen, `(x as any)[k]` is not), an object whose type lists its
 * keys (no index signature) indexed by a cast key, and a prototype reached by other means (`Object.assign`
 * or a spread of a parsed object carrying `__proto__` as an own key, which JSON.parse makes; those are
 * refused where the JSON is read, `forbidden-keys.ts`).
 */
/** A string key that is not one of a few known literals (a union of literals is a key we chose). */
function isOpenString(checker, type) {
  if (type.isUnion()) return type.types.some((part) => isOpenString(checker, part));
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
  if (type.flags & ts.TypeFlags.String) return true;
  if (type.flags & ts.TypeFlags.TemplateLiteral) return true;
  if (type.flags & ts.TypeFlags.StringMapping) return true;
  return false;
}

/** `NameRecord`, or an alias of it (`type FormValues = NameRecord<string>`), a few deep. */
function isNameRecordAlias(checker, symbol, depth = 0) {
  if (!symbol || depth > 4) return false;
  if (symbol.getName() === 'NameRecord') return true;
  const declaration = symbol.declarations?.find(ts.isTypeAliasDeclaration);
  const target =
    declaration && ts.isTypeReferenceNode(declaration.type) ? checker.getSymbolAtLocation(declaration.type.typeName) : undefined;
  const resolved = target && target.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(target) : target;
  return isNameRecordAlias(checker, resolved, depth + 1);
}

/** The type has a string index signature and is not an array, a tuple, a Map-like or a null-prototype NameRecord. */
function isPlainRecord(checker, type) {
  const apparent = checker.getApparentType(type);
  if (apparent.isUnion()) return apparent.types.some((part) => isPlainRecord(checker, part));
  if (checker.isArrayType(apparent) || checker.isTupleType(apparent)) return false;
  if (isNameRecordAlias(checker, type.aliasSymbol) || isNameRecordAlias(checker, apparent.aliasSymbol)) return false;
  return checker.getIndexInfoOfType(apparent, ts.IndexKind.String) !== undefined;
}

/** `Object.hasOwn(a, b)` or `….hasOwnProperty.call(a, b)`: the [a, b] it checks, as source text. */
function ownCheck(node, text) {
  if (node?.type !== 'CallExpression' || node.arguments.length !== 2) return undefined;
  const callee = node.callee;
  const isHasOwn =
    callee.type === 'MemberExpression' &&
    !callee.computed &&
    ((callee.object.type === 'Identifier' && callee.object.name === 'Object' && callee.property.name === 'hasOwn') ||
      (callee.property.name === 'call' && callee.object.type === 'MemberExpression' && callee.object.property.name === 'hasOwnProperty'));
  return isHasOwn ? [text(node.arguments[0]), text(node.arguments[1])] : undefined;
}

/** The expressions a test proves true: itself, and each side of an `&&`. */
function proven(test) {
  if (test?.type === 'LogicalExpression' && test.operator === '&&') return [...proven(test.left), ...proven(test.right)];
  return test ? [test] : [];
}

/**
 * The lookup stands where its own-ness was checked first: `Object.hasOwn(r, k) ? r[k] : …`,
 * `Object.hasOwn(r, k) && r[k]`, `if (Object.hasOwn(r, k)) … r[k]`.
 */
function guarded(node, text) {
  const wanted = `${text(node.object)}\u0000${text(node.property)}`;
  const checks = (test) => proven(test).some((part) => ownCheck(part, text)?.join('\u0000') === wanted);
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'ConditionalExpression' && parent.consequent === child && checks(parent.test)) return true;
    if (parent.type === 'IfStatement' && parent.consequent === child && checks(parent.test)) return true;
    if (parent.type === 'LogicalExpression' && parent.operator === '&&' && parent.right === child && checks(parent.left)) return true;
    if (parent.type.endsWith('FunctionExpression') || parent.type === 'FunctionDeclaration') return false;
  }
  return false;
}

export const noInheritedLookup = {
  meta: {
    type: 'problem',
    docs: { description: 'Lookups by a name from outside go through Maps, own() or null-prototype records' },
    messages: {
      index:
        'A lookup by a name that may come from outside finds inherited members ("constructor", "toString", "__proto__"): use a Map, own(record, key), or a nameRecord().',
      in: '`key in record` finds inherited members ("toString" in {}): use Object.hasOwn(record, key) or a Map.',
    },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program) throw new Error('no-inherited-lookup needs type information (parserOptions.projectService)');
    const checker = services.program.getTypeChecker();
    const typeOf = (node) => checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node));
    const text = (node) => context.sourceCode.getText(node);
    return {
      MemberExpression(node) {
        if (!node.computed || node.property.type === 'Literal') return;
        if (!isOpenString(checker, typeOf(node.property))) return;
        if (!isPlainRecord(checker, typeOf(node.object))) return;
        if (guarded(node, text)) return;
        context.report({ node, messageId: 'index' });
      },
      BinaryExpression(node) {
        if (node.operator !== 'in' || node.left.type === 'Literal' || node.left.type === 'PrivateIdentifier') return;
        if (!isOpenString(checker, typeOf(node.left))) return;
        if (!isPlainRecord(checker, typeOf(node.right))) return;
        context.report({ node, messageId: 'in' });
      },
    };
  },
};

export default { rules: { 'no-inherited-lookup': noInheritedLookup } };
