import fs from 'node:fs';
import { lazyModule } from '../common/lazy';
import { z } from 'zod';
import { readUtf8File } from '../common/files';
import { GridError, isGridError } from '../common/errors';
import { jsonPath } from './home';
import { retrieve, type RetrieveOptions } from './retrieve';
import { emptyState, type Home, type RetrievalResult } from './types';

const yaml = lazyModule<typeof import('yaml')>('yaml');

/** The longest utterance the engine takes (the API's devices.retrieve cap). */
export const MAX_UTTERANCE = 500;

const expectOne = z
  .object({
    ids: z.array(z.string()).optional(),
    clarify: z.boolean().optional(),
    /** option ids the clarification must offer (as a set) */
    options: z.array(z.string()).optional(),
  })
  .strict();

export const caseSchema = z.object({
  id: z.string().optional(),
  // capped like the CLI's and the API's utterance (500 characters): a case file is input too
  utterance: z.string().min(1, '不能为空').max(MAX_UTTERANCE, `一句话最长 ${MAX_UTTERANCE} 个字`),
  /** earlier turns of the same conversation (their results feed references) */
  prior: z.array(z.string().max(MAX_UTTERANCE, `一句话最长 ${MAX_UTTERANCE} 个字`)).default([]),
  expect: z.union([expectOne, z.array(expectOne).min(1)]),
  note: z.string().optional(),
});
export const caseFileSchema = z.object({ cases: z.array(caseSchema).min(1) });
export type DeviceCase = z.output<typeof caseSchema>;

export interface CaseOutcome {
  id: string;
  utterance: string;
  pass: boolean;
  expected: z.output<typeof expectOne>[];
  got: { ids: string[]; clarification: string | null; options: string[] }[];
  reason?: string;
}

export function loadCaseFile(file: string): DeviceCase[] {
  if (!fs.existsSync(file)) throw new GridError('NOT_FOUND', `用例文件不存在：${file}`);
  let raw: unknown;
  try {
    raw = yaml().parse(readUtf8File(file, `用例文件 ${file} `));
  } catch (e) {
    if (isGridError(e)) throw e;
    // never echo the content (the YAML parser quotes the offending line): line number only
    const line = (e as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new GridError('BAD_FILE', `用例文件 ${file} 不是有效的 YAML${line ? `（第 ${line} 行）` : ''}`);
  }
  const parsed = caseFileSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new GridError('BAD_FILE', `用例文件 ${file} 无效 — ${jsonPath(i.path)}: ${i.message}`);
  }
  return parsed.data.cases;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

function check(exp: z.output<typeof expectOne>, r: RetrievalResult | undefined): string | null {
  if (!r) return '缺少对应的命令结果';
  const ids = r.selected.map((s) => s.id);
  if (exp.clarify) {
    if (!r.clarification) return `期望澄清，实际选中 [${ids.join(', ')}]`;
    if (exp.options && !sameSet(exp.options, r.clarification.options.map((o) => o.id)))
      return `澄清选项不符：期望 [${exp.options.join(', ')}]，实际 [${r.clarification.options.map((o) => o.id).join(', ')}]`;
    return null;
  }
  if (exp.ids) {
    if (r.clarification && exp.ids.length) return `期望 [${exp.ids.join(', ')}]，实际要求澄清：${r.clarification.question}`;
    if (!sameSet(exp.ids, ids)) return `期望 [${exp.ids.join(', ')}]，实际 [${ids.join(', ')}]`;
  }
  return null;
}

/** Runs a case file against a home; each case gets a fresh conversation (prior turns first). */
export async function runCases(cases: DeviceCase[], home: Home, options: RetrieveOptions = {}): Promise<{ total: number; passed: number; accuracy: number; outcomes: CaseOutcome[] }> {
  const outcomes: CaseOutcome[] = [];
  for (const [i, c] of cases.entries()) {
    const state = emptyState();
    for (const p of c.prior) await retrieve(p, home, state, options);
    const results = await retrieve(c.utterance, home, state, options);
    const expected = Array.isArray(c.expect) ? c.expect : [c.expect];
    let reason: string | null = expected.length !== results.length ? `期望 ${expected.length} 条命令，实际 ${results.length} 条` : null;
    if (!reason) for (const [k, e] of expected.entries()) reason ??= check(e, results[k]);
    outcomes.push({
      id: c.id ?? `case-${i + 1}`,
      utterance: c.utterance,
      pass: !reason,
      expected,
      got: results.map((r) => ({ ids: r.selected.map((s) => s.id), clarification: r.clarification?.question ?? null, options: r.clarification?.options.map((o) => o.id) ?? [] })),
      ...(reason ? { reason } : {}),
    });
  }
  const passed = outcomes.filter((o) => o.pass).length;
  return { total: outcomes.length, passed, accuracy: outcomes.length ? passed / outcomes.length : 0, outcomes };
}
