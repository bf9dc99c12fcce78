/**
 * `object[name]` where `object` is a plain object used as a dictionary (a string index signature,
 * such as `Record<string, T>`) and `name` is any string: a name from outside (a URL, a body, a
 * file) such as `constructor`, `toString` or `__proto__` reaches Object.prototype instead of
 * missing. Use a Map, or narrow the name first to the object's own keys (a type guard built on
 * Object.hasOwn), so the key's type is a union of literals (docs/security.md, "Lookups by name").
 * Arrays, tuples, typed arrays and strings indexed by number are not dictionaries and pass.
 */
import ts from 'typescript';

function isStringLike(type) {
  if (type.isUnion()) return type.types.some(isStringLike);
  // A union of string literals is a closed set of names the compiler checked; `string` is not.
  return (type.flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) !== 0;
}

function isDictionary(checker, type) {
  if (type.isUnion()) return type.types.some((member) => isDictionary(checker, member));
  if (checker.isArrayType(type) || checker.isTupleType(type)) return false;
  return checker.getIndexInfoOfType(type, ts.IndexKind.String) !== undefined;
}

export const noPlainObjectLookup = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow looking up a string key on a plain-object dictionary' },
    messages: {
      lookup:
        'A string looked up on a plain object can reach Object.prototype ("constructor", "__proto__"): use a Map, or narrow the key with Object.hasOwn first.',
    },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program)
      throw new Error('no-plain-object-lookup needs type information (parserOptions.projectService)');
    const checker = services.program.getTypeChecker();
    const typeOf = (node) => checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node));
    return {
      MemberExpression(node) {
        if (!node.computed || node.property.type === 'Literal') return;
        if (!isStringLike(typeOf(node.property))) return;
        if (!isDictionary(checker, typeOf(node.object))) return;
        context.report({ node, messageId: 'lookup' });
      },
    };
  },
};

export default { rules: { 'no-plain-object-lookup': noPlainObjectLookup } };
