/**
 * Device-command evaluation, two sets, each printed by family (tuned | held-out):
 * - "own" (round 2, eval/fixtures/devices): 450 sentences over two homes of our own (a flat with
 *   English HA-style types, a villa with Chinese types, groups and scenes);
 * - "real" (round 3, eval/fixtures/devices-real): everyday commands in the style of public
 *   voice-assistant corpora (politeness, negation, area-only, timers, queries, Chinese numerals,
 *   units, traditional/Cantonese/Taiwanese) over those two homes and a home named the way the
 *   米家 app names devices (mihome.json). Written before the engine changes it measures.
 * - "wild" (round 4, eval/fixtures/devices-wild): families by domain (switch, fan, climate, cover,
 *   lock, vacuum, valve, humidifier, scene), floor and whole-home scope, partial names, every value
 *   slot, several slots in one clause (制热26度), untargeted media, state queries, Taiwanese and
 *   Cantonese, over the three homes above and a two-floor HA-style home (duplex.json). Written and
 *   its held-out slice fixed (every 4th case of a family per file) before any engine change.
 * - "probe3" (round 6, eval/fixtures/devices-wild/*.probe3-cases.txt, not part of "wild"): 254 fresh
 *   sentences over all four homes — other verbs and word orders, spoken filler, implicit requests
 *   (好暗/有点冷/太吵), comma-separated commands, delays, numbers written every way, white tones,
 *   locks, valves, vacuums, counting questions, Taiwanese/Cantonese, non-device requests. Written
 *   from the home files alone and committed before running; every 3rd case of a family is held out.
 *   First run on the unchanged engine (53ab009): ALL tuned 88.4% (160/181) | held-out 93.2% (68/73);
 *   lowest families tuned: timers 0/2, partial_name 0/2, media_untargeted 1/2, color 3/5, climate 4/6.
 * - "fresh4" (round 6, *.fresh4-cases.txt, not part of "wild"): 90 more sentences over the four homes,
 *   written after every round-6 change from the home files alone, committed before running; all held out.
 *   Measured once: 100% (90/90); the engine as it was before round 6 (ffcfe63) scores 97.8% (88/90).
 *   probe3 after the round-6 changes: tuned 100% (181/181) | held-out 94.5% (69/73).
 * Each case expects the selected entity set (ids; ? = a question with real options; - = nothing
 * to act on), and where given the value (ir.value.number / text), the canonical action, the
 * condition, a delay (N分钟后…) or a timer length. Lines flagged "held" are the held-out slice:
 * never looked at while tuning; their failures are counted but not printed (--show-held prints them).
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
export const EVAL_SETS = [
  { name: 'own', label: 'own set (round 2)', dir },
  { name: 'real', label: 'real-world set (round 3)', dir: path.join(here, 'fixtures', 'devices-real') },
  { name: 'wild', label: 'wild set (round 4: per-domain families, floors, multi-slot values, queries, untargeted media)', dir: path.join(here, 'fixtures', 'devices-wild'), skip: /\.(?:probe3|fresh4|fresh5)-cases\.txt$/ },
  // probe batch 3 (round 6): fresh phrasing over all four homes, committed before running; reported on its own
  { name: 'probe3', label: 'probe batch 3 (round 6: fresh phrasing, implicit requests, delays, non-device requests)', dir: path.join(here, 'fixtures', 'devices-wild'), only: /\.probe3-cases\.txt$/ },
  // fresh batch 4 (round 6): written after every round-6 change, committed before running, all held out
  { name: 'fresh4', label: 'fresh batch 4 (round 6: written after the round-6 changes, all held out)', dir: path.join(here, 'fixtures', 'devices-wild'), only: /\.fresh4-cases\.txt$/ },
  // fresh batch 5 (stop 22 review): the families added last (clock times, bare numbers, complaints, English
  // mixed in, shared tails, delays between commands), written before running, all held out
  { name: 'fresh5', label: 'fresh batch 5 (stop 22: schedules, bare numbers, complaints, English, shared tails; all held out)', dir: path.join(here, 'fixtures', 'devices-wild'), only: /\.fresh5-cases\.txt$/ },
  // batch 6 (issue 26): capability-true selection, device mode vs scene, similar rooms, counting/listing, English,
  // stray fragments, wake words — over a home of its own (family.json), committed before running; every 3rd held out
  { name: 'batch6', label: 'batch 6 (issue 26: capability, device mode, similar rooms, counting, English, fragments, wake words)', dir: path.join(here, 'fixtures', 'devices-batch6') },
  // batch 7 (issue 26, second stop): English names/units/word order, counting and listing in everyday words, wake words —
  // over family.json (batch 6's home), committed before running; every 3rd held out
  { name: 'batch7', label: 'batch 7 (issue 26 second stop: English names and units, counting/listing, wake words)', dir: path.join(here, 'fixtures', 'devices-batch7') },
];

/** Which case files of a folder a set reads. */
interface CaseFilter {
  only?: RegExp;
  skip?: RegExp;
}

/** A case file's home: beside it, else in an earlier set's folder (later sets reuse those homes). */
function homePath(caseDir: string, home: string): string {
  const near = path.join(caseDir, home);
  if (fs.existsSync(near)) return near;
  const earlier = EVAL_SETS.map((s) => path.join(s.dir, home)).find((p) => fs.existsSync(p));
  return earlier ?? path.join(dir, home);
}

export interface EvalCase {
  home: string;
  family: string;
  utterance: string;
  ids: string[] | null;
  ask: boolean;
  /** canonical action expected on some command (打开, 调温度, 回充 …) */
  action?: string;
  /** N分钟后…: the command waits this many seconds */
  delay?: number;
  /** 设一个十分钟的定时器: a timer of this many seconds, no device */
  timer?: number;
  /** 明天早上七点…: the command is scheduled for this clock time (HH:MM; "day" = a day without a time) */
  at?: string;
  value?: number;
  valueText?: string;
  cond?: { sensor: string; op: string; value: number };
  held: boolean;
}

export function loadCases(caseDir = dir, filter: CaseFilter = {}): EvalCase[] {
  const out: EvalCase[] = [];
  const wanted = (f: string) => f.endsWith('-cases.txt') && (!filter.only || filter.only.test(f)) && !filter.skip?.test(f);
  for (const file of fs.readdirSync(caseDir).filter(wanted).sort()) {
    // duplex-cases.txt and duplex.batch2-cases.txt both run on duplex.json
    const home = homePath(caseDir, file.replace(/(?:\.[\w-]+)?-cases\.txt$/, '.json'));
    for (const line of fs.readFileSync(path.join(caseDir, file), 'utf8').split('\n')) {
      if (!line.trim() || line.startsWith('#')) continue;
      const [family, utterance, expect, extras = '', flag = ''] = line.split('|').map((s) => s.trim());
      const ids = expect === '?' ? null : expect === '-' ? [] : expect.split(/\s+/);
      const c: EvalCase = { home, family, utterance, ids, ask: expect === '?', held: flag === 'held' || extras === 'held' };
      for (const x of extras.split(/\s+/)) {
        const [k, v] = x.split('=');
        if (k === 'v') c.value = Number(v);
        if (k === 'vt') c.valueText = v;
        if (k === 'a') c.action = v;
        if (k === 'delay') c.delay = Number(v);
        if (k === 'timer') c.timer = Number(v);
        if (k === 'at') c.at = v;
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
  if (c.action !== undefined && !results.some((r) => r.command.a === c.action)) return `action ${results.map((r) => r.command.a).join(',')}`;
  if (c.delay !== undefined && !results.some((r) => r.ir.delay_seconds === c.delay)) return `delay ${JSON.stringify(results.map((r) => r.ir.delay_seconds ?? null))}`;
  if (c.at !== undefined && !results.some((r) => r.ir.schedule && (r.ir.schedule.time ?? 'day') === c.at)) return `schedule ${JSON.stringify(results.map((r) => r.ir.schedule ?? null))}`;
  if (c.timer !== undefined && !results.some((r) => r.ir.timer?.seconds === c.timer)) return `timer ${JSON.stringify(results.map((r) => r.ir.timer ?? null))}`;
  if (c.value !== undefined && !results.some((r) => r.ir.value?.number === c.value)) return `value ${JSON.stringify(results.map((r) => r.ir.value))}`;
  if (c.valueText !== undefined && !results.some((r) => (r.ir.values ?? (r.ir.value ? [r.ir.value] : [])).some((v) => toSimplified(v.text).includes(c.valueText!)))) return `value text ${JSON.stringify(results.map((r) => r.ir.value?.text))}`;
  if (c.cond && !results.some((r) => r.ir.conditions.some((k) => k.sensor === c.cond!.sensor && k.op.startsWith(c.cond!.op) && k.value === c.cond!.value)))
    return `condition ${JSON.stringify(results.map((r) => r.ir.conditions))}`;
  return null;
}

export async function runEval(caseDir = dir, filter: CaseFilter = {}): Promise<{ family: string; tuned: [number, number]; held: [number, number] }[]> {
  return (await evaluate(caseDir, filter)).rows;
}

async function evaluate(caseDir: string, filter: CaseFilter = {}) {
  const cases = loadCases(caseDir, filter);
  const homes = new Map<string, Home>();
  const failures: { c: EvalCase; why: string; r: RetrievalResult[] }[] = [];
  const byFamily = new Map<string, { tuned: [number, number]; held: [number, number] }>();
  for (const c of cases) {
    if (!homes.has(c.home)) homes.set(c.home, loadHomeFile(c.home).home);
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
  return { rows, failures, total: cases.length, homes: homes.size };
}

const pct = ([a, b]: [number, number]) => (b ? `${((100 * a) / b).toFixed(1)}%`.padStart(7) + ` (${a}/${b})`.padEnd(9) : '      —          ');

export default async function run(args: string[] = []): Promise<void> {
  const showHeld = args.includes('--show-held');
  const quiet = args.includes('--quiet');
  const only = args.find((a) => a.startsWith('--set='))?.slice(6);
  for (const set of EVAL_SETS.filter((s) => !only || s.name === only)) {
    const { rows, failures, total, homes } = await evaluate(set.dir, set);
    console.log(`\n— ${set.label}: ${total} sentences, ${homes} homes —`);
    if (!quiet) {
      for (const f of failures) {
        if (f.c.held && !showHeld) continue;
        const cmds = f.r.map((r) => `${r.command.a}/${r.command.s ?? '-'}/${r.command.n ?? '-'}/${r.command.t ?? '-'}/${r.command.q}${r.command.v != null ? `/v=${r.command.v}` : ''}`).join(' ; ');
        console.log(`  ✗ [${f.c.family}] ${f.c.utterance} (${path.basename(f.c.home)}) — ${f.why}  {${cmds}}`);
      }
    }
    console.log(`family: tuned | held-out`);
    const sum = (k: 'tuned' | 'held'): [number, number] => rows.reduce<[number, number]>((a, r) => [a[0] + r[k][0], a[1] + r[k][1]], [0, 0]);
    for (const r of rows) console.log(`  ${r.family.padEnd(18)} ${pct(r.tuned)} | ${pct(r.held)}`);
    console.log(`  ${'ALL'.padEnd(18)} ${pct(sum('tuned'))} | ${pct(sum('held'))}`);
  }
}
