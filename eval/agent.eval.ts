/**
 * Multi-hop agent sequences (`npm run eval -- agent [--verbose]`).
 *
 * A fresh data dir with the shipped demo library (regulations.demo_load), our MCP server in process
 * (the SDK's in-memory transport, the same tools/list and tools/call an agent sees), and the sequences of
 * eval/fixtures/agent/sequences.json: what an agent written for RegReader does — search, then a table,
 * its note, the reference it makes; a hit's block with its context and page; TOC tree, chapter, compare;
 * similar content — all with RegReader's argument names. Each step's arguments may take values from earlier
 * answers (${N.path}). A step answers when the tool returns no error, a non-empty answer, and the words
 * it `expect`s. Reported per family, tuned | held-out: steps answered and sequences answered end to end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createAppContext } from '../src/core/context';
import { invokeOperation } from '../src/core/api/invoke';
import { projectRoot } from '../src/core/common/paths';
import { createMcpServer } from '../src/mcp/server';

interface Step {
  tool: string;
  args: Record<string, unknown>;
  expect?: string;
}
interface Sequence {
  id: string;
  family: string;
  held_out: boolean;
  steps: Step[];
}

/** "${2.results[0].table.table_id}" -> that value of step 2's answer (a whole-string placeholder keeps its type). */
function fill(value: unknown, answers: unknown[]): unknown {
  if (typeof value !== 'string') return value;
  const whole = /^\$\{(\d+)\.([^}]+)\}$/.exec(value);
  const lookup = (step: string, p: string) =>
    p
      .replace(/\[(\d+)\]/g, '.$1')
      .split('.')
      .reduce<unknown>((o, k) => (o === null || o === undefined ? undefined : (o as Record<string, unknown>)[k]), answers[Number(step)]);
  if (whole) return lookup(whole[1], whole[2]);
  return value.replace(/\$\{(\d+)\.([^}]+)\}/g, (_m, s: string, p: string) => String(lookup(s, p)));
}

/** An answer is empty when its list of findings is: results, rows, notes, pages, tree, blocks, chapters. */
function emptyAnswer(body: unknown): string | null {
  if (Array.isArray(body)) return body.length ? null : '空列表';
  const o = body as Record<string, unknown>;
  for (const key of ['results', 'rows', 'notes', 'pages', 'tree', 'blocks', 'chapters', 'active_chapters']) {
    if (Array.isArray(o[key]) && (o[key] as unknown[]).length === 0) return `${key} 为空`;
  }
  if (o.resolved === false) return '引用未解析';
  if (o.found === false) return '注释未找到';
  return null;
}

export default async function run(args: string[]): Promise<void> {
  const verbose = args.includes('--verbose');
  const file = path.join(projectRoot(), 'eval', 'fixtures', 'agent', 'sequences.json');
  const { sequences } = JSON.parse(fs.readFileSync(file, 'utf8')) as { sequences: Sequence[] };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcode-eval-agent-'));
  const ctx = createAppContext({ dataDir: dir });
  const client = new Client({ name: 'eval-agent', version: '1.0.0' });
  try {
    await invokeOperation(ctx, 'regulations.demo_load', {});
    const server = await createMcpServer(ctx);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await client.connect(b);

    type Row = { steps: [number, number]; seqs: [number, number] };
    const tally = new Map<string, { tuned: Row; held: Row }>();
    const failures: string[] = [];
    for (const seq of sequences) {
      const row = tally.get(seq.family) ?? { tuned: { steps: [0, 0], seqs: [0, 0] }, held: { steps: [0, 0], seqs: [0, 0] } };
      tally.set(seq.family, row);
      const slot = seq.held_out ? row.held : row.tuned;
      const answers: unknown[] = [];
      let all = true;
      for (const [i, step] of seq.steps.entries()) {
        const input = Object.fromEntries(Object.entries(step.args).map(([k, v]) => [k, fill(v, answers)]));
        let problem: string | null = null;
        let body: unknown = null;
        try {
          const r = (await client.callTool({ name: step.tool, arguments: input })) as { content: { text: string }[]; isError?: boolean };
          const text = r.content[0].text;
          // the SDK reports arguments its schema rejects as plain text, not JSON
          body = r.isError && !text.startsWith('{') ? null : JSON.parse(text);
          if (r.isError) problem = `错误：${(body as { error?: { message?: string } } | null)?.error?.message ?? text.slice(0, 200)}`;
          else problem = emptyAnswer(body) ?? (step.expect && !r.content[0].text.includes(step.expect) ? `答案中没有「${step.expect}」` : null);
        } catch (e) {
          problem = `调用失败：${(e as Error).message}`;
        }
        answers.push(body);
        slot.steps[1] += 1;
        if (problem) {
          all = false;
          failures.push(`${seq.id} 第 ${i + 1} 步 ${step.tool}(${JSON.stringify(input)})：${problem}`);
        } else slot.steps[0] += 1;
        if (verbose) console.log(`  ${problem ? '✗' : '✓'} ${seq.id} ${i + 1}. ${step.tool} ${JSON.stringify(input)}${problem ? ` — ${problem}` : ''}`);
      }
      slot.seqs[1] += 1;
      if (all) slot.seqs[0] += 1;
    }

    const pct = ([x, n]: [number, number]) => (n ? `${((100 * x) / n).toFixed(1)}% (${x}/${n})` : '—');
    console.log(`${sequences.length} sequences, ${sequences.reduce((s, q) => s + q.steps.length, 0)} tool calls, demo library (${(await invokeOperation(ctx, 'regulations.list', {})).length} regulations)`);
    console.log('family                          | steps answered: tuned | held-out        | sequences end to end: tuned | held-out');
    const total: { tuned: Row; held: Row } = { tuned: { steps: [0, 0], seqs: [0, 0] }, held: { steps: [0, 0], seqs: [0, 0] } };
    for (const [family, r] of tally) {
      console.log(`${family.padEnd(31)} | ${pct(r.tuned.steps).padEnd(14)} | ${pct(r.held.steps).padEnd(15)} | ${pct(r.tuned.seqs).padEnd(14)} | ${pct(r.held.seqs)}`);
      for (const k of ['tuned', 'held'] as const) {
        total[k].steps[0] += r[k].steps[0];
        total[k].steps[1] += r[k].steps[1];
        total[k].seqs[0] += r[k].seqs[0];
        total[k].seqs[1] += r[k].seqs[1];
      }
    }
    console.log(`${'all'.padEnd(31)} | ${pct(total.tuned.steps).padEnd(14)} | ${pct(total.held.steps).padEnd(15)} | ${pct(total.tuned.seqs).padEnd(14)} | ${pct(total.held.seqs)}`);
    for (const f of failures) console.log(`  ✗ ${f}`);
    if (failures.length) process.exitCode = 1;
  } finally {
    await client.close().catch(() => {});
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
