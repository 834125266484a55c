/** Where the training scripts find ../shared's statutes and STARD's train.jsonl; exits in Chinese when absent. */
import fs from 'node:fs';
import path from 'node:path';
import { sharedDir } from '../../src/core/common/paths';

export function stardSharedPaths(): { laws: string; stardDir: string; trainFile: string } {
  const laws = path.join(sharedDir(), 'data', 'laws');
  const stardDir = path.join(sharedDir(), 'data', 'stard');
  const trainFile = path.join(stardDir, 'train.jsonl');
  if (!fs.existsSync(laws) || !fs.existsSync(trainFile)) {
    console.error(`缺少共享数据: ${laws} 或 ${trainFile}`);
    process.exit(1);
  }
  return { laws, stardDir, trainFile };
}
