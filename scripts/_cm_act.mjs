import fs from 'node:fs'; import path from 'node:path'; import ts from 'typescript';
const codes = JSON.parse(fs.readFileSync('src/core/devices/vocab/actions.json','utf8')).codes;
const byCode = new Map(Object.entries(codes).filter(([k]) => k !== 'unknown').map(([k, c]) => [c.code, k]));
const files = process.argv.slice(2);
for (const f of files) {
  const src = fs.readFileSync(f, 'utf8');
  const sf = ts.createSourceFile(f, src, ts.ScriptTarget.Latest, true);
  const edits = []; const skipped = [];
  const visit = (node) => {
    if (ts.isStringLiteral(node) && byCode.has(node.text)) {
      const p = node.parent;
      if (ts.isLiteralTypeNode(p) || ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || (ts.isPropertyAssignment(p) && p.name === node) || ts.isElementAccessExpression(p) && p.argumentExpression === node && false) skipped.push(node.getText(sf));
      else edits.push([node.getStart(sf), node.getEnd(), `A.${byCode.get(node.text)}`]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!edits.length) continue;
  let out = src;
  for (const [s, e, t] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, s) + t + out.slice(e);
  const rel = path.relative(path.dirname(f), 'src/core/devices/actions').replace(/^(?!\.)/, './');
  const lines = out.split('\n'); let last = -1; lines.forEach((l, i) => { if (/^import .* from '.*';$/.test(l)) last = i; });
  lines.splice(last + 1, 0, `import { A } from '${rel}';`); out = lines.join('\n');
  fs.writeFileSync(f, out);
  console.log(f, edits.length, skipped.length ? 'skipped: ' + skipped.join(' ') : '');
}
