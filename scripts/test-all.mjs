#!/usr/bin/env node
/**
 * `npm test`: typecheck + layering (dependency-cruiser) + Electron build check + unit (vitest) + e2e (Playwright in Debian Chromium).
 * Prints one closing line `N passed, N failed[, N skipped]` summing all suites; exits non-zero on any failure.
 * `npm test -- --no-e2e` skips the browser suite (for quick local runs).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const results = [];
fs.mkdirSync(path.join(root, 'test-results'), { recursive: true });

function run(label, command, commandArgs, env = {}) {
  console.log(`\n▶ ${label}: ${command} ${commandArgs.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`◀ ${label}: exit ${r.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
  } catch {
    return undefined;
  }
}

// 1. typecheck (node + renderer configs) counts as one check
results.push({ suite: 'typecheck', passed: run('typecheck', 'npm', ['run', 'typecheck']) === 0 ? 1 : 0, failed: 0 });
if (results[0].passed === 0) results[0].failed = 1;

// 1b. layering (docs/architecture.md, encoded in .dependency-cruiser.cjs) counts as one check
const layersOk = run('layers', 'npm', ['run', 'lint:layers']) === 0;
results.push({ suite: 'layers', passed: layersOk ? 1 : 0, failed: layersOk ? 0 : 1 });

// 2. the Electron build (main + preload + renderer) must keep building
const buildOk = run('electron-vite build', 'npx', ['electron-vite', 'build']) === 0;
results.push({ suite: 'electron build', passed: buildOk ? 1 : 0, failed: buildOk ? 0 : 1 });

// 3. unit tests
const unitReport = 'test-results/unit-report.json';
fs.rmSync(path.join(root, unitReport), { force: true });
const unitStatus = run('unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`]);
const unit = readJson(unitReport);
if (unit) {
  results.push({ suite: 'unit', passed: unit.numPassedTests, failed: unit.numFailedTests + (unitStatus !== 0 && unit.numFailedTests === 0 ? 1 : 0), skipped: unit.numPendingTests + unit.numTodoTests });
} else {
  results.push({ suite: 'unit', passed: 0, failed: 1 });
}

// 4. e2e
if (!args.includes('--no-e2e')) {
  const e2eReport = 'test-results/e2e-report.json';
  fs.rmSync(path.join(root, e2eReport), { force: true });
  const e2eStatus = run('e2e', 'npx', ['playwright', 'test']);
  const e2e = readJson(e2eReport);
  if (e2e?.stats) {
    const s = e2e.stats;
    const failed = (s.unexpected ?? 0) + (e2eStatus !== 0 && !s.unexpected ? 1 : 0);
    results.push({ suite: 'e2e', passed: (s.expected ?? 0) + (s.flaky ?? 0), failed, skipped: s.skipped ?? 0 });
  } else {
    results.push({ suite: 'e2e', passed: 0, failed: 1 });
  }
}

const total = results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + (r.skipped ?? 0) }), { passed: 0, failed: 0, skipped: 0 });
console.log('\nSummary:');
for (const r of results) console.log(`  ${r.suite.padEnd(15)} ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed > 0 ? 1 : 0);
