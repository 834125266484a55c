import readline from 'node:readline';
import type { Command } from 'commander';
import { invokeOperation } from '../../core/api/invoke';
import type { ApiOutput } from '../../core/api/table';
import type { ProgressEvent } from '../../core/common/operation';
import type { AppContext } from '../../core/context';
import { toErrorPayload } from '../../core/common/errors';
import { globalOptions, printJson, runOperation, withContext } from '../runtime';

type Transcript = ApiOutput<'llm.chat'>;

function formatCitations(t: Transcript): string {
  const list = t.citations.length ? t.citations : [];
  if (!list.length) return t.sources.length ? `\n（回答未标注可核对的条款；检索到 ${t.sources.length} 处相关内容，可用 --json 查看）` : '';
  return ['\n参考来源:', ...list.map((c) => `  - 《${c.title}》${c.label ?? c.section_path ?? ''} 第${c.page_num}页  [${c.reg_id}]`)].join('\n');
}

/** One chat turn: answer text streams to stdout, tool activity to stderr. */
async function chatTurn(
  ctx: AppContext,
  question: string,
  history: { role: 'user' | 'assistant'; content: string }[],
  options: { json: boolean; maxSteps?: number; regIds?: string[]; signal: AbortSignal },
): Promise<Transcript> {
  let streamed = false;
  const progress = (e: ProgressEvent) => {
    if (options.json) return;
    if (e.stage === 'delta' && e.message) {
      streamed = true;
      process.stdout.write(e.message);
    } else if (e.stage === 'tool') {
      process.stderr.write(`\n  ↳ ${e.item} ${e.message ?? ''}\n`);
    } else if (e.stage === 'tool_error') {
      process.stderr.write(`  ↳ ${e.item} 出错：${e.message ?? ''}\n`);
    }
  };
  const transcript = await invokeOperation(
    ctx,
    'llm.chat',
    { question, history, stream: !options.json, max_steps: options.maxSteps, reg_ids: options.regIds },
    { progress, signal: options.signal },
  );
  if (options.json) printJson(transcript);
  else {
    if (!streamed) process.stdout.write(transcript.answer);
    process.stdout.write(`${formatCitations(transcript)}\n`);
  }
  return transcript;
}

export function registerLlmCommands(program: Command): void {
  program
    .command('chat [question...]')
    .description('规程问答助手：自动选择规程检索、引用条款作答（需 DASHSCOPE_API_KEY；不带问题进入对话） / regulation assistant')
    .option('--max-steps <n>', '最多工具调用轮数 / max tool rounds', (v) => Number.parseInt(v, 10))
    .option('-r, --reg <reg_id>', '只在指定规程中检索，可多次指定 / restrict to a regulation (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .action(async (parts: string[], opts: { maxSteps?: number; reg?: string[] }, cmd: Command) => {
      const json = !!globalOptions(cmd).json;
      // Ctrl-C cancels the running turn (the request and any tool call), not the whole session.
      let current: AbortController | null = null;
      const onSigint = () => current?.abort();
      process.on('SIGINT', onSigint);
      try {
        await withContext(cmd, async (ctx) => {
          const question = parts.join(' ').trim();
          if (question) {
            current = new AbortController();
            await chatTurn(ctx, question, [], { json, maxSteps: opts.maxSteps, regIds: opts.reg, signal: current.signal });
            return;
          }
          // Interactive: keeps the conversation so follow-up questions have context.
          const history: { role: 'user' | 'assistant'; content: string }[] = [];
          const tty = !!process.stdin.isTTY;
          const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: tty });
          rl.on('SIGINT', () => (current ? current.abort() : rl.close()));
          if (tty) process.stderr.write('GridCode 规程助手（输入 exit 退出，Ctrl-C 取消当前回答）\n');
          rl.setPrompt('> ');
          if (tty) rl.prompt();
          for await (const line of rl) {
            const q = line.trim();
            if (q === 'exit' || q === 'quit' || q === '退出') break;
            if (q) {
              current = new AbortController();
              try {
                const t = await chatTurn(ctx, q, history, { json, maxSteps: opts.maxSteps, regIds: opts.reg, signal: current.signal });
                history.push({ role: 'user', content: q }, { role: 'assistant', content: t.answer });
              } catch (e) {
                // one failed turn (cancelled, service error) does not end the conversation
                const p = toErrorPayload(e);
                process.stderr.write(`\n错误 [${p.code}]: ${p.message}\n`);
                if (p.code === 'LLM_UNAVAILABLE' && /DASHSCOPE_API_KEY/.test(p.message)) throw e;
              } finally {
                current = null;
              }
            }
            if (tty) rl.prompt();
          }
          rl.close();
        });
      } finally {
        process.removeListener('SIGINT', onSigint);
      }
    });

  const llm = program.command('llm').description('大模型（可选，DashScope）/ optional LLM layer');
  llm
    .command('status')
    .description('显示是否已配置大模型密钥与所用模型（不显示密钥） / show LLM configuration (never the key)')
    .option('--check', '实际调用一次模型测试连接 / make one tiny call to test the connection')
    .action(async (opts: { check?: boolean }, cmd: Command) => {
      await runOperation(cmd, 'llm.status', { check: !!opts.check }, (s) =>
        [
          s.message,
          `接口地址: ${s.base_url}`,
          `解析模型: ${s.parse_model}  对话模型: ${s.chat_model}  嵌入模型: ${s.embed_model}`,
          s.check ? (s.check.ok ? `连接正常（${s.check.latency_ms} ms）` : `连接失败：${s.check.error}`) : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    });
  llm
    .command('enrich [reg_id]')
    .option('--all', '处理全部规程 / all regulations')
    .description('用大模型生成规程元数据（失败时改用离线生成） / LLM metadata generation with offline fallback')
    .action(async (regId: string | undefined, opts: { all?: boolean }, cmd: Command) => {
      await runLlmEnrich(cmd, opts.all ? { all: true } : { reg_id: regId });
    });
}

/** Shared by `gridcode enrich-metadata --llm` and `gridcode llm enrich`. */
export async function runLlmEnrich(cmd: Command, input: { reg_id?: string; all?: boolean }): Promise<void> {
  await runOperation(
    cmd,
    'llm.enrich_metadata',
    input,
    (out) =>
      out.results
        .map((r) =>
          [
            `${r.source === 'llm' ? '✓' : '•'} ${r.reg_id} 元数据已更新（${r.source === 'llm' ? '大模型生成' : '离线生成'}）${r.message ? `：${r.message}` : ''}`,
            `  简介: ${r.description ?? ''}`,
            `  关键词: ${r.keywords.join('、')}`,
            `  适用范围: ${r.scope ?? ''}`,
          ].join('\n'),
        )
        .join('\n'),
    { progress: !globalOptions(cmd).json },
  );
}
