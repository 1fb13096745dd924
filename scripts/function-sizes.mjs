// Lists the functions of src/ over a number of lines (80 unless given), longest first: function
// declarations, methods, constructors, accessors, function expressions and arrow functions, each
// counted from its first line to its last (a function holds the functions nested in it).
//
//   node scripts/function-sizes.mjs [lines] [--json]
//
// The limits (docs/development.md: none over 120 lines, at most 8 over 80) are checked by
// test/unit/function-sizes.test.ts, which imports `functionSizes` from here.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir, out = []) {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The name a reader would search for: the declaration's own, or what the function is assigned to. */
function nameOf(node, sf) {
  if (node.name) return node.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(sf);
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(sf).slice(0, 40)})`;
  return '(anonymous)';
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
]);

/** Every function of every source under `dir` (default src/) with its length in lines. */
export function functionSizes(dir = join(ROOT, 'src')) {
  const found = [];
  for (const file of sources(dir)) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node) => {
      if (FUNCTION_KINDS.has(node.kind) && node.body) {
        const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        found.push({ file: relative(dir, file), line: first + 1, name: nameOf(node, sf), lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const over = Number(args.find((a) => /^\d+$/.test(a)) ?? 80);
  const long = functionSizes().filter((f) => f.lines > over);
  if (args.includes('--json')) console.log(JSON.stringify(long, null, 2));
  else {
    for (const f of long) console.log(`${String(f.lines).padStart(4)}  src/${f.file}:${f.line}  ${f.name}`);
    console.log(`${long.length} functions over ${over} lines, ${long.filter((f) => f.lines > 120).length} over 120`);
  }
}
