import fs from 'node:fs'; import path from 'node:path'; import ts from 'typescript';
const files = []; (function walk(d){ for (const f of fs.readdirSync(d,{withFileTypes:true})) { const p=path.join(d,f.name); if (f.isDirectory()) walk(p); else if (p.endsWith('.ts')) files.push(p);} })('src/core/devices');
let total=0; const rows=[];
for (const f of files) { const sf = ts.createSourceFile(f, fs.readFileSync(f,'utf8'), ts.ScriptTarget.Latest, true); let n=0;
  const visit = (node) => { if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return; const kids = node.getChildren(sf); if (!kids.length) { const m = node.getText(sf).match(/\p{Script=Han}/gu); if (m) n+=m.length; } else kids.forEach(visit); };
  visit(sf); total+=n; rows.push([n,f]); }
rows.sort((a,b)=>b[0]-a[0]); for (const r of rows) if (r[0]) console.log(r[0], r[1]); console.log('TOTAL', total);
