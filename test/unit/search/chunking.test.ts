import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invokeOperation } from '../../../src/core/api/invoke';
import { REG_CORPUS } from '../../../src/core/regulations/search-index';
import { chunkText } from '../../../src/core/search/chunk';
import { lexicalSearch } from '../../../src/core/search/lexical';
import { resolveTexts } from '../../../src/core/search/texts';
import { tempContext, tempDir } from '../../helpers';

// The chunk size comes from config.search.chunkChars alone, and each chunk text is kept once: with the
// index item when a unit is cut into chunks, only in reg_units when the unit is one chunk (the search
// engine reads it there through the corpus' text source). A non-default size must reach the lexical
// index (and the vectors, which read the same text).
const ctx = tempContext();
afterAll(() => ctx.cleanup());

describe('regulation chunking', () => {
  it('uses the configured chunk size at import and keeps each chunk text once', async () => {
    ctx.config.search.chunkChars = 40;
    const dir = tempDir();
    const long = '值班调度员应当根据电网运行方式安排检修计划，'.repeat(8);
    fs.writeFileSync(path.join(dir, '短规程.md'), `# 检修管理规定\n\n第一条 ${long}\n\n第二条 母线失压时立即汇报。\n`);
    const [res] = await invokeOperation(ctx, 'regulations.import', { paths: [path.join(dir, '短规程.md')] });
    expect(res.status).toBe('imported');
    const units = ctx.db.prepare('SELECT id, text FROM reg_units WHERE reg_id = ? ORDER BY ord').all(res.reg_id) as { id: number; text: string }[];
    const rows = ctx.db.prepare('SELECT corpus, key, parent, text FROM search_items WHERE corpus = ? AND scope = ? ORDER BY id').all(REG_CORPUS, res.reg_id) as {
      corpus: string;
      key: string;
      parent: string;
      text: string | null;
    }[];
    // stored: the chunks of the long unit; the short one's text is reg_units' alone
    const stored = rows.map((r) => ({ ...r }));
    const items = resolveTexts(ctx.db, rows);
    for (const u of units) {
      const texts = items.filter((i) => i.parent === String(u.id)).map((i) => i.text);
      expect(texts).toEqual(chunkText(u.text, 40));
      const own = stored.filter((i) => i.parent === String(u.id));
      if (own.length === 1) expect(own[0].text).toBeNull();
      else expect(own.map((i) => i.text)).toEqual(chunkText(u.text, 40));
    }
    expect(items.some((i) => i.key.includes('#'))).toBe(true);
    expect(items.every((i) => (i.text ?? '').length <= 40)).toBe(true);
    // the lexical index finds the one-chunk unit by its words
    const hits = lexicalSearch(ctx.db, { corpus: REG_CORPUS, scopes: [res.reg_id!], query: '母线失压', k: 3 }).hits;
    expect(hits[0].parent).toBe(String(units[1].id));
  });
});
