/**
 * Device-command evaluation: ≥400 sentences by family over two homes of our own
 * (eval/fixtures/devices: a flat with English HA-style types, a villa with Chinese types,
 * groups and scenes). Each case expects the selected entity set (or a question with real
 * options), and where given the value (ir.value.number / text) and the condition.
 * Every 4th case of a family is the held-out slice ("held"): never looked at while tuning;
 * its failures are counted but not printed (pass --show-held to print them anyway).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadHomeFile } from '../src/core/devices/home';
import { toSimplified } from '../src/core/devices/traditional';
import { retrieve } from '../src/core/devices/retrieve';
import { emptyState, type Home, type RetrievalResult } from '../src/core/devices/types';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.join(here, 'fixtures', 'devices');

export interface EvalCase {
  home: string;
  family: string;
  utterance: string;
  ids: string[] | null;
  ask: boolean;
  value?: number;
  valueText?: string;
  cond?: { sensor: string; op: string; value: number };
  held: boolean;
}

export function loadCases(): EvalCase[] {
  const out: EvalCase[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('-cases.txt')).sort()) {
    const home = file.replace('-cases.txt', '.json');
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line.trim() || line.startsWith('#')) continue;
      const [family, utterance, expect, extras = '', flag = ''] = line.split('|').map((s) => s.trim());
      const c: EvalCase = { home, family, utterance, ids: expect === '?' ? null : expect.split(/\s+/), ask: expect === '?', held: flag === 'held' || extras === 'held' };
      for (const x of extras.split(/\s+/)) {
        const [k, v] = x.split('=');
        if (k === 'v') c.value = Number(v);
        if (k === 'vt') c.valueText = v;
        if (k === 'cond') {
          const m = v.match(/^(\w+)(>=|<=|>|<|=)(-?[\d.]+)$/);
          if (m) c.cond = { sensor: m[1], op: m[2], value: Number(m[3]) };
        }
      }
      out.push(c);
    }
  }
  return out;
}

/** Why a case failed, or null when it passed. */
export function judge(c: EvalCase, results: RetrievalResult[]): string | null {
  const got = [...new Set(results.flatMap((r) => r.selected.map((s) => s.id)))].sort();
  if (c.ask) {
    const asked = results.find((r) => r.clarification && r.clarification.options.length > 0);
    if (got.length || !asked) return `expected a question with options, got [${got.join(' ')}]${results[0]?.clarification ? ` ask(${results[0].clarification.options.length})` : ''}`;
  } else {
    const want = [...c.ids!].sort();
    if (got.join(' ') !== want.join(' ')) {
      const q = results.find((r) => r.clarification)?.clarification;
      return `got [${got.join(' ')}]${q ? ` ask「${q.question}」(${q.options.length})` : ''}`;
    }
  }
  if (c.value !== undefined && !results.some((r) => r.ir.value?.number === c.value)) return `value ${JSON.stringify(results.map((r) => r.ir.value))}`;
  if (c.valueText !== undefined && !results.some((r) => r.ir.value && toSimplified(r.ir.value.text).includes(c.valueText!))) return `value text ${JSON.stringify(results.map((r) => r.ir.value?.text))}`;
  if (c.cond && !results.some((r) => r.ir.conditions.some((k) => k.sensor === c.cond!.sensor && k.op.startsWith(c.cond!.op) && k.value === c.cond!.value)))
    return `condition ${JSON.stringify(results.map((r) => r.ir.conditions))}`;
  return null;
}

export async function runEval(): Promise<{ family: string; tuned: [number, number]; held: [number, number] }[]> {
  return (await evaluate()).rows;
}

async function evaluate() {
  const cases = loadCases();
  const homes = new Map<string, Home>();
  const failures: { c: EvalCase; why: string; r: RetrievalResult[] }[] = [];
  const byFamily = new Map<string, { tuned: [number, number]; held: [number, number] }>();
  for (const c of cases) {
    if (!homes.has(c.home)) homes.set(c.home, loadHomeFile(path.join(dir, c.home)).home);
    const results = await retrieve(c.utterance, homes.get(c.home)!, emptyState());
    const why = judge(c, results);
    const row = byFamily.get(c.family) ?? { tuned: [0, 0], held: [0, 0] };
    const slot = c.held ? row.held : row.tuned;
    slot[1]++;
    if (!why) slot[0]++;
    else failures.push({ c, why, r: results });
    byFamily.set(c.family, row);
  }
  const rows = [...byFamily].map(([family, r]) => ({ family, ...r }));
  return { rows, failures, total: cases.length };
}

const pct = ([a, b]: [number, number]) => (b ? `${((100 * a) / b).toFixed(1)}%`.padStart(7) + ` (${a}/${b})`.padEnd(9) : '      —          ');

export default async function run(args: string[] = []): Promise<void> {
  const { rows, failures, total } = await evaluate();
  const showHeld = args.includes('--show-held');
  const quiet = args.includes('--quiet');
  if (!quiet) {
    for (const f of failures) {
      if (f.c.held && !showHeld) continue;
      const cmds = f.r.map((r) => `${r.command.a}/${r.command.s ?? '-'}/${r.command.n ?? '-'}/${r.command.t ?? '-'}/${r.command.q}${r.command.v != null ? `/v=${r.command.v}` : ''}`).join(' ; ');
      console.log(`  ✗ [${f.c.family}] ${f.c.utterance} (${f.c.home}) — ${f.why}  {${cmds}}`);
    }
  }
  console.log(`\n${total} sentences, 2 homes. family: tuned | held-out`);
  const sum = (k: 'tuned' | 'held'): [number, number] => rows.reduce<[number, number]>((a, r) => [a[0] + r[k][0], a[1] + r[k][1]], [0, 0]);
  for (const r of rows) console.log(`  ${r.family.padEnd(18)} ${pct(r.tuned)} | ${pct(r.held)}`);
  console.log(`  ${'ALL'.padEnd(18)} ${pct(sum('tuned'))} | ${pct(sum('held'))}`);
}
