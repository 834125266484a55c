import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { tempContext, tempDir } from '../../helpers';

type Chapter = { id: number; title: string; level: number; parent_id: number | null; article_count: number; first_article: string | null; last_article: string | null; page_start: number; page_end: number };

let ctx: ReturnType<typeof tempContext>;
let dir: string;
beforeAll(() => {
  ctx = tempContext();
  dir = tempDir('gridcode-chapters-');
});
afterAll(async () => {
  await ctx.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('chapter structure of a regulation with thousands of headings', () => {
  it('3,000 sections under 300 chapters, each 「一般规定」 kept apart, articles counted per section (was cubic: 469 s)', async () => {
    let md = '# 大规程\n\n';
    let article = 0;
    for (let c = 1; c <= 300; c++) {
      md += `## 第${c}章 第${c}部分\n\n`;
      for (let s = 1; s <= 10; s++) {
        // every chapter's first section has the same title: membership must follow the hierarchy
        md += `### 第${s}节 ${s === 1 ? '一般规定' : `事项${c}-${s}`}\n\n`;
        for (let a = 0; a < (s % 3) + 1; a++) md += `第${++article}条 第${c}章第${s}节的规定内容。\n\n`;
      }
    }
    const file = path.join(dir, '大规程.md');
    fs.writeFileSync(file, md);
    const [r] = (await invokeOperation(ctx, 'regulations.import', { paths: [file], id: 'big' })) as { status: string }[];
    expect(r.status).toBe('imported');
    const { chapters } = (await invokeOperation(ctx, 'regulations.chapters', { reg_id: 'big' })) as { chapters: Chapter[] };
    expect(chapters).toHaveLength(3300);
    const tops = chapters.filter((c) => c.level === 1);
    expect(tops).toHaveLength(300);
    // a chapter holds its ten sections' articles: (2+3+1)*3 + 2 = 20
    expect(tops.every((c) => c.article_count === 20)).toBe(true);
    const general = chapters.filter((c) => c.title === '第1节 一般规定');
    expect(general).toHaveLength(300);
    expect(general.every((c) => c.article_count === 2)).toBe(true);
    expect(general[41].first_article).toBe('第' + (42 * 20 - 19) + '条');
    // the same through get_chapter on a section title repeated in every chapter: the first one
    const one = (await invokeOperation(ctx, 'regulations.chapter', { reg_id: 'big', chapter: '第7章' })) as { blocks: { label: string | null }[] };
    expect(one.blocks.filter((b) => b.label?.startsWith('第')).map((b) => b.label)).toHaveLength(20);
  });
});
