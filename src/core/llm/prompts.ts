/**
 * Prompts of the regulation assistant and the metadata generator (seed 002). Kept in one
 * module so wording changes are reviewed in one place.
 */

export interface RegulationSummary {
  reg_id: string;
  title: string;
  keywords?: string[] | null;
  scope?: string | null;
  description?: string | null;
  total_pages?: number | null;
}

/** Seed 002 §2.1: the role no longer assumes a single regulation; the library is injected. */
export const ROLE_DEFINITION = `# 角色定义
你是电力系统规程专家助理 GridCode，具备在多部规程文档中动态"翻书"的能力。

## 可用规程库
{regulation_list}

根据用户问题中的关键词，选择最相关的规程进行检索。
当问题可能涉及多个规程时，应主动进行跨规程检索。`;

/** Seed 002 §2.3 plus the citation rule the product promises. */
export const OPERATING_RULES = `# 操作规则
## 0. 规程选择原则
根据用户问题和规程元数据中的关键词/适用范围，智能选择检索范围：
- 问题关键词匹配单个规程 → 单规程检索（smart_search 的 reg_id 传该规程 ID）
- 问题关键词匹配多个规程 → 跨规程检索（reg_id 传规程 ID 列表，或对每个规程分别检索）
- 不确定时 → 使用全规程模式（reg_id 传 "all"），从结果中筛选

## 1. 检索与阅读
- 先用 smart_search 找到相关条款；需要上下文时用 read_page_range 阅读对应页；需要了解章节结构时用 get_toc。
- 定值、限额、压板状态、台账等表格内容：用 search_tables 找表，用 get_table_by_id 取整张表（跨页续表已合并），表下的“注”用 lookup_annotation 查。
- 条文中出现“见附录D”“按本规程第三十二条执行”“见表6-2”“详见第六章”等引用时，用 resolve_reference 找到目标页再阅读；整章内容用 get_chapter_structure / read_chapter_content。
- 只根据工具返回的规程原文作答，不要编造条款；检索不到时如实说明。
- 跨规程问题要分别说明每部规程的规定，再给出综合结论。

## 2. 引用格式（必须）
每个结论都要注明出处：《规程标题》第X条（第N页）。没有条号时写章节名和页码。
回答最后列出"参考条款"清单。

## 3. 回答风格
使用简体中文，先给结论，再分点说明依据；语言简洁、专业。`;

/** Seed 002 §2.2 format_regulation_list. */
export function formatRegulationList(regulations: RegulationSummary[]): string {
  if (!regulations.length) return '（规程库为空：请先导入规程。）';
  return regulations
    .map((r) => {
      const keywords = (r.keywords ?? []).join(', ');
      const lines = [`- **${r.reg_id}**: ${r.title}`, `  - 关键词: ${keywords || '（无）'}`, `  - 适用范围: ${r.scope ?? ''}`];
      if (r.description) lines.push(`  - 简介: ${r.description}`);
      return lines.join('\n');
    })
    .join('\n');
}

export const RESTRICTED_SCOPE_RULE = '用户已限定检索范围：只在上面列出的规程中检索和引用。';

export function buildChatSystemPrompt(regulations: RegulationSummary[], options: { restricted?: boolean } = {}): string {
  const role = ROLE_DEFINITION.replace('{regulation_list}', () => formatRegulationList(regulations));
  return [role, options.restricted ? RESTRICTED_SCOPE_RULE : '', OPERATING_RULES].filter(Boolean).join('\n\n');
}

/** Seed 002 §1.6 METADATA_GENERATION_PROMPT, with the limits spelled out so zod rarely rejects. */
export const METADATA_GENERATION_PROMPT = `根据以下规程的目录结构和首页内容，生成规程元数据。

## 规程标题
{title}

## 目录结构
{toc}

## 首页内容
{first_pages}

请只输出以下 JSON 格式的元数据，不要输出其他文字：
{
  "description": "一句话描述规程的主要内容和用途（50字以内）",
  "keywords": ["关键词1", "关键词2"],
  "scope": "适用范围描述（说明什么类型的问题应该查询此规程）"
}
要求：keywords 为 5-8 个主题关键词，用于检索时匹配用户问题；description 不超过 50 个字。`;

export const METADATA_RETRY_PROMPT =
  '上一次的输出不符合要求：{problem}。请只输出一个 JSON 对象，包含 description（不超过50字）、keywords（5-8个字符串）和 scope 三个字段。';

export function buildMetadataPrompt(input: { title: string; toc: string; firstPages: string }): string {
  // Function replacers: document text may contain `$&`-like sequences.
  return METADATA_GENERATION_PROMPT.replace('{title}', () => input.title)
    .replace('{toc}', () => input.toc || '（无目录）')
    .replace('{first_pages}', () => input.firstPages || '（无内容）');
}
