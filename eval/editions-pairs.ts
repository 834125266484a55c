/**
 * The statute pairs of ../shared/data/laws for `npm run eval -- editions`: files of one statute whose
 * names differ only by the date in brackets (专利法实施细则(2010-01-09).md / (2023-12-11).md), taken
 * as consecutive editions. Parsed with the importer's own parser (no data dir needed).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseFlowText } from '../src/core/regulations/structure';
import { decodeTextFile } from '../src/core/regulations/decode';
import type { StoredUnit } from '../src/core/editions/types';

export interface EditionFile {
  file: string;
  date: string;
}

export interface StatutePair {
  /** 行政法规/专利法实施细则 2010-01-09→2023-12-11 */
  key: string;
  name: string;
  old: EditionFile;
  new: EditionFile;
  /** about one pair in five (by a hash of the statute's name) is held out: never looked at while tuning */
  heldOut: boolean;
}

const DATED = /^(.*)\((\d{4}-\d{2}-\d{2})\)\.md$/;

function walk(dir: string, out: string[]): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (DATED.test(e.name)) out.push(p);
  }
}

export function heldOutName(name: string): boolean {
  return crypto.createHash('sha1').update(name).digest()[0] % 5 === 0;
}

export function statutePairs(lawsDir: string): StatutePair[] {
  const files: string[] = [];
  walk(lawsDir, files);
  const groups = new Map<string, EditionFile[]>();
  for (const f of files) {
    const m = DATED.exec(path.basename(f))!;
    const name = path.join(path.relative(lawsDir, path.dirname(f)), m[1]);
    groups.set(name, [...(groups.get(name) ?? []), { file: f, date: m[2] }]);
  }
  const pairs: StatutePair[] = [];
  for (const [name, eds] of [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    eds.sort((a, b) => a.date.localeCompare(b.date));
    for (let k = 0; k + 1 < eds.length; k++) {
      pairs.push({ key: `${name} ${eds[k].date}→${eds[k + 1].date}`, name, old: eds[k], new: eds[k + 1], heldOut: heldOutName(name) });
    }
  }
  return pairs;
}

/** The units the importer would store for a file (ord = document order). */
export function fileUnits(file: string): StoredUnit[] {
  const doc = parseFlowText(decodeTextFile(fs.readFileSync(file), path.basename(file)), {
    format: 'markdown',
    markdown: true,
    pageChars: 1800,
    maxPageChars: 7200,
    fallbackTitle: path.basename(file, '.md'),
  });
  return doc.units.map((u, ord) => ({ ord, page_num: u.page_num, kind: u.kind, label: u.label, section_path: u.section_path, text: u.text }));
}
