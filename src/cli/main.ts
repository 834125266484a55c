import { Command } from 'commander';
import { reportError } from './runtime';
import { registerAppCommands } from './commands/app';
import { registerCommandModules } from './commands';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('gridcode')
    .description('GridCode — 离线规程检索与设备上下文引擎 / offline regulation search and device-context engine')
    .option('--data-dir <dir>', '数据目录 / data folder (env GRIDCODE_DATA_DIR)')
    .option('--json', '机器可读 JSON 输出 / machine-readable JSON output')
    .showHelpAfterError()
    .exitOverride();
  registerAppCommands(program);
  registerCommandModules(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  const json = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    const code = (e as { code?: string }).code;
    // commander signals --help / --version through exceptions; those are not errors
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      process.exitCode = 2;
      return;
    }
    reportError(e, json);
  }
}
