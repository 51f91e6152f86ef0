// node scripts/code-shape.mjs [--list] [folder ...]: what a reader of the code has to hold, counted
// with TypeScript's own parser and checker over src/ (or the folders named):
// - one-letter parameters of functions, methods, arrows and function expressions, by where they
//   stand; a one-line callback's is kept where the letter is the habit (`_` unused, a sort's a and
//   b, an array callback's index i) or the initial of the array it iterates (rows.map((r) => ...));
// - declarations named `spec` or `specs` whose type is a DataCommandDefinition (a definition);
// - functions longer than 70 lines, with their lengths.
// --list prints each place too. It reads files and writes nothing.
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ts = createRequire(import.meta.url)("typescript");
const MAX_LINES = 70;
const ARRAY_METHODS = new Set([
  "map",
  "filter",
  "find",
  "findIndex",
  "some",
  "every",
  "flatMap",
  "forEach",
  "findLast",
]);

const args = process.argv.slice(2);
const list = args.includes("--list");
const folders = args.filter((arg) => arg !== "--list");
const files = (folders.length ? folders : ["src"]).flatMap((folder) => sources(join(root, folder)));

function sources(path) {
  if (statSync(path).isFile()) return /\.(ts|mts|mjs)$/.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => sources(join(path, name)));
}

const program = ts.createProgram(files, { allowJs: true, noEmit: true, skipLibCheck: true });
const checker = program.getTypeChecker();
const found = { letters: [], specs: [], long: [] };

for (const file of files) {
  const source = program.getSourceFile(file);
  const where = (node) =>
    `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const lines = (node) =>
    source.getLineAndCharacterOfPosition(node.getEnd()).line -
    source.getLineAndCharacterOfPosition(node.getStart(source)).line +
    1;
  const visit = (node) => {
    if (isFunction(node)) {
      if (node.body && lines(node) > MAX_LINES)
        found.long.push(`${where(node)} ${nameOf(node)} ${lines(node)}`);
      node.parameters.forEach((parameter, index) => {
        for (const name of bindingNames(parameter.name))
          if (name.text.length === 1)
            found.letters.push({
              where: where(name),
              kind: kindOf(node, parameter, index, name, lines),
              name,
            });
      });
    }
    if ((ts.isParameter(node) || ts.isVariableDeclaration(node) || ts.isBindingElement(node)) && isSpec(node))
      found.specs.push(where(node));
    ts.forEachChild(node, visit);
  };
  visit(source);
}

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node)
  );
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  if (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent))
    return node.parent.name.getText();
  return ts.isConstructorDeclaration(node) ? "constructor" : "(anonymous)";
}

function bindingNames(name) {
  if (ts.isIdentifier(name)) return [name];
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : bindingNames(element.name),
  );
}

/** Where a one-letter parameter stands, and whether it is one kept by habit. */
function kindOf(fn, parameter, index, name, lines) {
  const callback = (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isCallExpression(fn.parent);
  if (!callback) return ts.isArrowFunction(fn) ? "arrow" : ts.isMethodDeclaration(fn) ? "method" : "function";
  const callee = fn.parent.expression;
  const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  if (name.text === "_") return "kept: unused (_)";
  if (method === "sort" && fn.parameters.length === 2) return "kept: a sort's a and b";
  if (lines(fn) > 1) return "callback over several lines";
  if (ARRAY_METHODS.has(method) && index === 1 && name.text === "i" && ts.isIdentifier(parameter.name))
    return "kept: an array callback's index (i)";
  const iterated = method && ARRAY_METHODS.has(method) ? arrayName(callee.expression) : undefined;
  if (index === 0 && iterated?.[0].toLowerCase() === name.text.toLowerCase())
    return "kept: the initial of the array iterated";
  return "one-line callback";
}

/** The name of the array a callback iterates: `rows` in rows.map, [...rows].map, rows.slice(1).map. */
function arrayName(expression) {
  while (
    ts.isParenthesizedExpression(expression) ||
    ts.isNonNullExpression(expression) ||
    ts.isAsExpression(expression)
  )
    expression = expression.expression;
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  if (
    ts.isArrayLiteralExpression(expression) &&
    expression.elements.length === 1 &&
    ts.isSpreadElement(expression.elements[0])
  )
    return arrayName(expression.elements[0].expression);
  if (ts.isCallExpression(expression) && ts.isPropertyAccessExpression(expression.expression)) {
    const { name, expression: inner } = expression.expression;
    if (ts.isIdentifier(inner) && inner.text === "Object" && ["values", "keys"].includes(name.text))
      return arrayName(expression.arguments[0]);
    if (["slice", "filter", "sort", "concat", "reverse", "values", "keys"].includes(name.text))
      return arrayName(inner);
  }
  return undefined;
}

function isSpec(declaration) {
  if (!ts.isIdentifier(declaration.name) || !/^specs?$/.test(declaration.name.text)) return false;
  return checker.typeToString(checker.getTypeAtLocation(declaration.name)).includes("DataCommandDefinition");
}

const byKind = {};
for (const { kind } of found.letters) byKind[kind] = (byKind[kind] ?? 0) + 1;
const renameable = found.letters.filter(({ kind }) => !kind.startsWith("kept")).length;
console.log(`one-letter parameters: ${found.letters.length} (${renameable} not kept by habit)`);
for (const [kind, count] of Object.entries(byKind).sort()) console.log(`  ${kind}: ${count}`);
if (list)
  for (const { where, kind, name } of found.letters) console.log(`    ${where} ${name.text} (${kind})`);
console.log(`spec or specs holding a DataCommandDefinition: ${found.specs.length}`);
if (list) for (const where of found.specs) console.log(`    ${where}`);
console.log(`functions over ${MAX_LINES} lines: ${found.long.length}`);
for (const line of found.long) console.log(`  ${line}`);
