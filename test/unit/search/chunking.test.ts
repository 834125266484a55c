import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { REG_CORPUS } from '../../../src/core/regulations/search-index';
import { chunkText } from '../../../src/core/search/chunk';
import { tempContext, tempDir } from '../../helpers';

// The chunk size comes from config.search.chunkChars alone, and the chunk text is stored once with the
// index item: a non-default size must reach the lexical index (and the vectors, which read the same row).
const ctx = tempContext();
afterAll(() => ctx.cleanup());

describe('regulation chunking', () => {
  it('uses the configured chunk size at import and stores each chunk text with its item', async () => {
    ctx.config.search.chunkChars = 40;
    const dir = tempDir();
    const long = '值班调度员应当根据电网运行方式安排检修计划，'.repeat(8);
    fs.writeFileSync(path.join(dir, '短规程.md'), `# 检修管理规定\n\n第一条 ${long}\n\n第二条 母线失压时立即汇报。\n`);
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [path.join(dir, '短规程.md')] });
    expect(res.status).toBe('imported');
    const units = ctx.db.prepare('SELECT id, text FROM reg_units WHERE reg_id = ? ORDER BY ord').all(res.reg_id) as { id: number; text: string }[];
    const items = ctx.db.prepare('SELECT key, parent, text FROM search_items WHERE corpus = ? AND scope = ? ORDER BY id').all(REG_CORPUS, res.reg_id) as {
      key: string;
      parent: string;
      text: string | null;
    }[];
    for (const u of units) {
      const stored = items.filter((i) => i.parent === String(u.id)).map((i) => i.text);
      expect(stored).toEqual(chunkText(u.text, 40));
    }
    expect(items.some((i) => i.key.includes('#'))).toBe(true);
    expect(items.every((i) => (i.text ?? '').length <= 40)).toBe(true);
  });
});
