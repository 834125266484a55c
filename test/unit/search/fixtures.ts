import type { Db } from '../../../src/core/store/db';
import { writeRegulation } from '../../../src/core/regulations/store';
import type { ParsedDocument } from '../../../src/core/regulations/types';
import { defaultConfig } from '../../../src/core/config';
import { afterAll, beforeAll } from 'vitest';
import { indexRegulationVectors } from '../../../src/core/regulations/search-index';
import { tempContext } from '../../helpers';
import { testModelsDir } from '../../fixtures/model';

export interface FixtureUnit {
  label: string | null;
  section: string;
  text: string;
  page?: number;
}

export interface FixtureReg {
  reg_id: string;
  title: string;
  description?: string;
  keywords?: string[];
  scope?: string;
  toc?: string[];
  units: FixtureUnit[];
}

/** The fixture as the parsers hand a document to the store: units with pages, the pages' text, a TOC. */
export function fixtureDocument(reg: FixtureReg): ParsedDocument {
  const units = reg.units.map((u, i) => ({
    page_num: u.page ?? 1 + Math.floor(i / 3),
    kind: u.label ? ('article' as const) : ('paragraph' as const),
    label: u.label,
    section_path: u.section,
    text: u.text,
  }));
  const pageNums = [...new Set(units.map((u) => u.page_num))].sort((a, b) => a - b);
  return {
    title: reg.title,
    format: 'markdown',
    pages: pageNums.map((page_num) => ({
      page_num,
      text: units
        .filter((u) => u.page_num === page_num)
        .map((u) => u.text)
        .join('\n'),
    })),
    toc: (reg.toc ?? []).map((title) => ({ level: 1, title, page_num: 1 })),
    units,
  };
}

/**
 * Writes a regulation through the store's one write path (writeRegulation: rows, metadata and the
 * search index in one transaction), so search tests run on what an import writes.
 */
export function insertRegulation(db: Db, reg: FixtureReg): void {
  writeRegulation(db, fixtureDocument(reg), {
    regId: reg.reg_id,
    sourceFile: `${reg.reg_id}.md`,
    sourcePath: `${reg.reg_id}.md`,
    sourceHash: reg.reg_id,
    chunkChars: defaultConfig().search.chunkChars,
    keep: { description: reg.description ?? null, keywords: reg.keywords ?? [], scope: reg.scope ?? null, extra: {} },
  });
}

export const ANGUI: FixtureReg = {
  reg_id: 'angui_2024',
  title: '2024年国调直调安全自动装置调度运行管理规定',
  description: '规定安全自动装置的配置、功能、投停操作及参数管理',
  keywords: ['安控装置', '稳控系统', '压板投退', '故障处理', '装置参数'],
  scope: '适用于涉及装置配置、操作规程、故障响应等问题',
  toc: ['第一章 总则', '第二章 装置投退', '第三章 故障处理'],
  units: [
    { label: '第一条', section: '第一章 总则 > 第一条', text: '为规范国调直调安全自动装置的调度运行管理，制定本规定。' },
    { label: '第五条', section: '第二章 装置投退 > 第五条', text: '安控装置压板的投入和退出应按照调度指令执行，现场运行人员不得擅自投退。' },
    { label: '第九条', section: '第三章 故障处理 > 第九条', text: '500kV母线失压时，现场运行人员应立即检查安控装置动作情况，并向值班调度员汇报。' },
    { label: '第十条', section: '第三章 故障处理 > 第十条', text: '天中直流安控装置异常时，值班调度员应按照策略表调整直流功率。' },
  ],
};

export const WENGUI: FixtureReg = {
  reg_id: 'wengui_2024',
  title: '特高压互联电网稳定及无功电压调度运行规定',
  description: '规定特高压互联电网的稳定限额、无功电压控制和调度运行要求',
  keywords: ['特高压', '稳定限额', '无功电压', '断面', '联络线'],
  scope: '适用于稳定限额、潮流控制、电压调整等问题',
  toc: ['第一章 总则', '第二章 稳定限额', '第三章 无功电压'],
  units: [
    { label: '第一条', section: '第一章 总则 > 第一条', text: '为保障特高压互联电网安全稳定运行，制定本规定。' },
    { label: '第六条', section: '第二章 稳定限额 > 第六条', text: '特高压交流联络线的稳定限额按照年度运行方式确定，值班调度员应控制断面潮流不超过稳定限额。' },
    { label: '第七条', section: '第二章 稳定限额 > 第七条', text: 'N-1故障后，220kV及以上线路潮流应控制在稳定限额以内。' },
    { label: '第十二条', section: '第三章 无功电压 > 第十二条', text: '特高压变电站应合理投切无功补偿装置，维持母线电压在规定范围内。' },
  ],
};

export const DIAODU: FixtureReg = {
  reg_id: 'diaodu_2023',
  title: '电网调度管理条例实施办法',
  description: '电网调度机构职责与调度指令管理',
  keywords: ['调度指令', '调度机构'],
  scope: '适用于调度管理一般问题',
  toc: ['第一章 总则'],
  units: [
    { label: '第三条', section: '第一章 总则 > 第三条', text: '值班调度员发布调度指令，运行人员应当执行调度指令并汇报执行情况。' },
    { label: '第四条', section: '第一章 总则 > 第四条', text: '调度机构负责编制运行方式，值班调度员按照运行方式进行调度。' },
  ],
};

/**
 * A temp context with the generated test model (random weights, real ONNX + tokenizer: mechanics, not
 * quality) holding ANGUI and WENGUI with their vectors; registers its own beforeAll / afterAll.
 */
export function hybridLibrary(): ReturnType<typeof tempContext> {
  const ctx = tempContext({ modelsDir: testModelsDir() });
  afterAll(() => ctx.cleanup());
  beforeAll(async () => {
    for (const r of [ANGUI, WENGUI]) {
      insertRegulation(ctx.db, r);
      await indexRegulationVectors(ctx, r.reg_id);
    }
  }, 120_000);
  return ctx;
}
