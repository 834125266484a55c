import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GRAMMAR_FILES } from '../../../src/core/devices/data';
import { loadGrammarFiles } from '../../../src/core/devices/vocab';

const root = path.resolve(__dirname, '../../..');
const devices = path.join(root, 'src/core/devices');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? tsFiles(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : []));
}

/** Han characters in a TypeScript file outside comments (line, block and JSDoc comments are trivia, never tokens). */
export function hanOutsideComments(file: string): number {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  let n = 0;
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const kids = node.getChildren(sf);
    if (kids.length) kids.forEach(visit);
    else n += node.getText(sf).match(/\p{Script=Han}/gu)?.length ?? 0;
  };
  visit(sf);
  return n;
}

describe('device vocabulary as data (issue 26)', () => {
  it('the engine code holds at most 2,000 Han characters outside comments (messages only; words live in vocab/*.json)', () => {
    const counts = tsFiles(devices).map((f) => [path.relative(root, f), hanOutsideComments(f)] as const);
    const total = counts.reduce((a, [, n]) => a + n, 0);
    // the counter sees what it should: a string and a regex literal count, comments do not
    const probe = path.join(fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'han-')), 'probe.ts');
    fs.writeFileSync(probe, "// 注释不算\n/** 文档也不算 */\nconst a = '打开'; /* 块注释 */ const b = /关闭|关掉/;\n");
    expect(hanOutsideComments(probe)).toBe(6);
    if (total > 2000) console.warn(counts.filter(([, n]) => n > 50).sort((a, b) => b[1] - a[1]));
    expect(total).toBeLessThanOrEqual(2000);
  });

  it('no file of the engine is over 500 lines', () => {
    const long = tsFiles(devices).map((f) => [path.relative(root, f), fs.readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > 500);
    expect(long).toEqual([]);
  });

  it('every pattern, table, list and map the matcher modules name exists in their data file', () => {
    const consts: Record<string, string> = { COMMON: 'common.json', QUESTIONS: 'questions.json', INTENTS: 'intents.json', TIME: 'time.json', NUMBERS: 'numbers.json', SETTINGS: 'settings.json', CONDITIONS: 'conditions.json', NAMING: 'naming.json', LIGHTS: 'lights.json', CLIMATE: 'climate.json', COVERS: 'covers.json', MEDIA: 'media.json', LOCKS: 'locks.json', VACUUM: 'vacuum.json' };
    const missing: string[] = [];
    let refs = 0;
    for (const f of tsFiles(devices)) {
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/\b([A-Z]+)\.(re|src|tables|words|maps)\.([a-z][a-z0-9_]*)/g)) {
        const file = consts[m[1]];
        if (!file) continue;
        refs++;
        const section = GRAMMAR_FILES[file][m[2] as 're'];
        try {
          if (section[m[3]] === undefined) missing.push(`${m[0]} (${path.basename(f)})`);
        } catch {
          missing.push(`${m[0]} (${path.basename(f)})`);
        }
      }
    }
    expect(refs).toBeGreaterThan(150);
    expect(missing).toEqual([]);
  });

  it('a broken grammar file stops loading with the file and the field named, in Chinese', () => {
    expect(() => loadGrammarFiles({ 'lights.json': { patterns: { colour: '(红|绿' } } })).toThrow(/词表 lights\.json 无效 — patterns\.colour: 不是有效的正则表达式/);
    expect(() => loadGrammarFiles({ 'lights.json': { patterns: { colour: '{tint}色' } } })).toThrow(/patterns\.colour: 引用了未定义的片段「tint」/);
    expect(() => loadGrammarFiles({ 'lights.json': { pattern: {} } })).toThrow(/词表 lights\.json 无效/);
    expect(() => loadGrammarFiles({ 'lights.json': { tables: { tones: [{ re: '暖', to: '' }] } } })).toThrow(/tables\.tones\.0\.to/);
    const ok = loadGrammarFiles({ 'lights.json': { patterns: { colour: '/{tint}色/g' }, words: { tint: ['红', '天蓝'] } } })['lights.json'];
    expect(ok.re.colour.flags).toBe('g');
    expect('把灯调成天蓝色'.match(ok.re.colour)?.[0]).toBe('天蓝色');
    expect(() => ok.re.tone).toThrow(/词表 lights\.json 缺少 patterns\.tone/);
  });

  it('fragments are shared between files and expand to the same expression everywhere', () => {
    const files = loadGrammarFiles({ 'numbers.json': { fragments: { n: '\\d+' } }, 'climate.json': { patterns: { degrees: '({n})度' } } });
    expect('调到26度'.match(files['climate.json'].re.degrees)?.[1]).toBe('26');
    expect(() => loadGrammarFiles({ 'a.json': { fragments: { n: 'x' } }, 'b.json': { fragments: { n: 'y' } } })).toThrow(/片段名与 a\.json 中的重复/);
  });
});
