import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AppContext } from '../context';
import { parseJsonText, readUtf8File } from '../common/files';
import { GridError, toErrorPayload } from '../common/errors';
import { allUnits, findRegulation, firstPages, getRegulation, getToc, listRegulations, updateInfo } from './store';
import { infoJsonSchema, type InfoJson, type RegulationInfo } from './types';
import { isValidRegId } from './slug';

const require = createRequire(import.meta.url);

type JiebaModule = typeof import('@node-rs/jieba');
let keywordTools: { jieba: InstanceType<JiebaModule['Jieba']>; tfidf: InstanceType<JiebaModule['TfIdf']> } | undefined;

/** jieba + its IDF table, loaded once per process (the dictionary load is the slow part). */
function tools() {
  if (!keywordTools) {
    const { Jieba, TfIdf } = require('@node-rs/jieba') as JiebaModule;
    const { dict, idf } = require('@node-rs/jieba/dict') as { dict: Uint8Array; idf: Uint8Array };
    const jieba = Jieba.withDict(dict);
    // grid-dispatch vocabulary the general dictionary splits apart (稳控系统 -> 稳 / 控系统)
    jieba.loadDict(Buffer.from(DOMAIN_TERMS.map((t) => `${t} 200000 n`).join('\n')));
    const tfidf = TfIdf.withDict(idf);
    tfidf.loadDict(Buffer.from(DOMAIN_TERMS.map((t) => `${t} 11.0`).join('\n')));
    keywordTools = { jieba, tfidf };
  }
  return keywordTools;
}

const DOMAIN_TERMS = [
  '安控装置', '安全自动装置', '稳控系统', '安控系统', '稳控装置', '压板投退', '出口压板', '功能压板', '母线失压', '特高压', '稳定限额', '无功电压',
  '天中直流', '换流站', '切负荷', '低频减载', '低压减载', '失步解列', '断面潮流', '电压曲线', '调度指令', '值班调度员', '定值单',
  '直流闭锁', '换相失败', '无功补偿', '进相运行', '调相机', '故障处理', '控制策略', '输电断面', '安全稳定', '继电保护',
];

/** Words every regulation uses: they say nothing about what this one is about. */
const STOP_WORDS = new Set(
  '规定 本规定 办法 本办法 条例 本条例 细则 规程 规则 制度 有关 相关 应当 按照 根据 依照 进行 工作 管理 单位 部门 人员 执行 要求 情况 负责 必要 可以 以及 其他 包括 第一 第二 第三 附录 附件 附表 章节 总则 附则 目录 演示 本法 国家 人民 中华人民共和国 省级 县级 以上 以下 不得 及其 实施 施行 日起 之日 修正 修订 通过 会议'.split(
    ' ',
  ),
);

const PURPOSE_RE = /为(?:了)?([^。；]{4,200}?)[，,]\s*(?:(?:根据|依据|依照|按照|结合)[^。；]*?[，,]\s*)*制定本(?:规定|办法|条例|法|细则|规程|标准|规则|制度|规范|准则|决定)/;
const SCOPE_RE = /本(?:规定|办法|条例|法|细则|规程|标准|规则|制度|规范|准则)适用于([^。]{2,160})。/;
const SCOPE_RE2 = /([^。；]{4,160}?)[，,]\s*适用本(?:规定|办法|条例|法|细则|规程|标准|规则|制度|规范|准则)/;

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max - 1).join('') + '…';
}

export interface MetadataSuggestion {
  description: string | null;
  keywords: string[];
  scope: string | null;
}

/**
 * Offline metadata from the regulation's own words: the purpose article (为了……制定本规定) gives the
 * description, the scope article (本规定适用于……) the scope, jieba TF-IDF over title + TOC + first
 * pages the keywords.
 */
export function suggestMetadata(ctx: AppContext, regId: string): MetadataSuggestion {
  const info = getRegulation(ctx.db, regId);
  const toc = getToc(ctx.db, regId);
  const pages = firstPages(ctx.db, regId, 5);
  const units = allUnits(ctx.db, regId).slice(0, 80);
  // articles are the regulation's own prose; appendix tables would drown the keywords
  const articles = units.filter((u) => u.kind === 'article' || u.kind === 'clause');
  const opening = (articles.length >= 5 ? articles.map((u) => u.text) : [...units.map((u) => u.text), ...pages.map((p) => p.text)]).join('\n');

  let description: string | null = null;
  const purpose = PURPOSE_RE.exec(opening);
  if (purpose) {
    // whole clauses while they fit in 50 characters; drop "（以下简称……）"
    const clauses = purpose[1].replace(/（以下简称[^）]*）|\(以下简称[^)]*\)/g, '').replace(/\s+/g, '').split(/[，,]/).filter(Boolean);
    let aim = clauses[0] ?? '';
    for (const c of clauses.slice(1)) {
      if ([...aim].length + 1 + [...c].length > 50) break;
      aim += `，${c}`;
    }
    description = clip(aim, 50);
  } else {
    const chapters = toc.filter((t) => t.level === 1).map((t) => t.title.replace(/^第[^\s]+[章节编]\s*/, '')).filter(Boolean);
    if (chapters.length) description = clip(`${info.title}，包括${chapters.slice(0, 6).join('、')}`, 50);
  }

  let scope: string | null = null;
  const s1 = SCOPE_RE.exec(opening);
  if (s1) scope = clip(`适用于${s1[1].replace(/\s+/g, '')}`, 120);
  else {
    const s2 = SCOPE_RE2.exec(opening);
    if (s2) scope = clip(`适用于${s2[1].replace(/^.*[。；\n]/, '').replace(/^第[^条\s]{1,8}条/, '').replace(/\s+/g, '')}`, 120);
  }

  const { jieba, tfidf } = tools();
  // title and headings weigh more than body text: they name the subject
  const headingText = toc.map((t) => t.title.replace(/^第[^\s]+[章节编条]\s*/, '')).join('。');
  const corpus = [info.title, info.title, info.title, headingText, headingText, opening.slice(0, 20000)].join('\n');
  const ranked = tfidf.extractKeywords(jieba, corpus, 40, ['n', 'nz', 'vn', 'nt', 'nr', 'ns', 'eng', 'l', 'i']);
  const keywords: string[] = [];
  for (const { keyword } of ranked) {
    const k = keyword.trim();
    if ([...k].length < 2 || STOP_WORDS.has(k) || /^[\d.%]+$/.test(k) || /^第/.test(k)) continue;
    if (keywords.some((x) => x.includes(k) || k.includes(x))) continue;
    keywords.push(k);
    if (keywords.length >= 8) break;
  }
  return { description, keywords, scope };
}

export function enrichRegulation(ctx: AppContext, regId: string): RegulationInfo {
  const s = suggestMetadata(ctx, regId);
  return updateInfo(ctx.db, regId, s, 'auto');
}

export function enrichRegulations(
  ctx: AppContext,
  regIds: string[] | 'all',
  progress?: (done: number, total: number, regId: string) => void,
): RegulationInfo[] {
  const ids = regIds === 'all' ? listRegulations(ctx.db).map((r) => r.reg_id) : regIds;
  return ids.map((id, i) => {
    const info = enrichRegulation(ctx, id);
    progress?.(i + 1, ids.length, id);
    return info;
  });
}

export function infoJsonOf(info: RegulationInfo): InfoJson {
  return {
    reg_id: info.reg_id,
    title: info.title,
    source_file: info.source_file,
    total_pages: info.total_pages,
    indexed_at: info.indexed_at,
    description: info.description,
    keywords: info.keywords,
    scope: info.scope,
  };
}

/** Writes <dir>/<reg_id>/info.json (seed 002 §1.5 layout) for one or all regulations. */
export function exportInfo(ctx: AppContext, dir: string, regId?: string): string[] {
  const infos = regId ? [getRegulation(ctx.db, regId)] : listRegulations(ctx.db);
  const files: string[] = [];
  for (const info of infos) {
    const target = path.join(path.resolve(dir), info.reg_id, 'info.json');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, JSON.stringify(infoJsonOf(info), null, 2) + '\n');
    files.push(target);
  }
  return files;
}

export interface InfoImportResult {
  file: string;
  reg_id: string | null;
  status: 'updated' | 'failed';
  error?: string;
}

function findInfoFiles(p: string): string[] {
  const stat = fs.statSync(p);
  if (stat.isFile()) return [p];
  const out: string[] = [];
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    const full = path.join(p, e.name);
    if (e.isDirectory()) out.push(...findInfoFiles(full));
    else if (e.name === 'info.json') out.push(full);
  }
  return out.sort();
}

/** Reads one info.json and applies it through updateInfo; a bad file names the file and the field. */
export function applyInfoFile(ctx: AppContext, file: string, overrideRegId?: string): RegulationInfo {
  // the content is never quoted in the error (a private file must not leak through a message)
  const raw = parseJsonText(readUtf8File(file, `文件「${file}」`), `文件「${file}」`);
  const parsed = infoJsonSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GridError('BAD_FILE', `文件「${file}」字段 ${issue.path.join('.') || '(根)'} 无效：${issue.message}`);
  }
  const info = parsed.data;
  const regId = overrideRegId ?? info.reg_id;
  if (!isValidRegId(regId)) throw new GridError('BAD_FILE', `文件「${file}」的 reg_id「${regId}」无效`);
  if (!findRegulation(ctx.db, regId)) throw new GridError('NOT_FOUND', `文件「${file}」对应的规程「${regId}」尚未导入`);
  const keywords = info.keywords?.map((k) => k.trim()).filter(Boolean);
  return updateInfo(
    ctx.db,
    regId,
    { title: info.title?.trim() || undefined, description: info.description, keywords, scope: info.scope },
    'info.json',
  );
}

export function importInfo(ctx: AppContext, p: string): InfoImportResult[] {
  if (!fs.existsSync(p)) throw new GridError('NOT_FOUND', `路径「${p}」不存在`);
  // a file that is not info.json (or a folder) is read only when it is JSON; its text is never echoed
  return findInfoFiles(path.resolve(p)).map((file) => {
    try {
      const info = applyInfoFile(ctx, file);
      return { file, reg_id: info.reg_id, status: 'updated' as const };
    } catch (e) {
      return { file, reg_id: null, status: 'failed' as const, error: toErrorPayload(e).message };
    }
  });
}
