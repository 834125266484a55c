import { UNITS } from './units';

/**
 * OCR misreads a table column gives away: the recogniser reads each cell alone, the column shows what kind of
 * content it holds. Applied to the rows of one table region of a scanned page (tuned on the tuning tables of
 * `npm run eval -- ocr --tables-only` only; the evidence each rule needs is stated with it).
 */

/** Dash-like glyphs the recogniser returns for "—" between two names (full-width minus, hyphen, box rule …). */
const DASHES = new Set(['—', '－', '-', '―', '─', '‐', '–', '一']);
const HAN = /[\u3400-\u9fff]/;
/** A number, possibly with a comparison sign, a unit, a footnote star or superscript. */
const NUMBER = /^[≥≤<>±+-]?\d[\d.,]*[a-zA-Zμ%‰℃Ω/*ᵃ-ᶻ¹²³]*[\u4e00-\u9fff]{0,2}$/;
/** Letters the recogniser reads for digits in a cell that is otherwise a number. */
const DIGIT_LOOKALIKES: Record<string, string> = { o: '0', O: '0', l: '1', I: '1', '|': '1', З: '3', з: '3' };
/** Comparison signs as misread before a number (seen on the tuning scans: "2159" for ≥159, "s3000" for ≤3000, "<2600" for ≤2600). */
const SIGN_LOOKALIKES: Record<string, string> = { '2': '≥', s: '≤', S: '≤', $: '≤', '<': '≤', '>': '≥', '＜': '≤', '＞': '≥' };

export function cleanOcrColumns(rows: string[][]): string[][] {
  const out = rows.map((r) => [...r]);
  const n = Math.max(0, ...out.map((r) => r.length));
  for (let c = 0; c < n; c++) {
    const cells = out.map((r) => r[c] ?? '');
    const fixed = codeOnes(ratedCurrent(ohms(unitSpelling(speckPoints(trailingDashes(strayRings(lostPercent(loneDashes(plusMinus(signs(lookalikeDigits(decimalMarks(dashSlots(cells))))))))))))));
    fixed.forEach((v, i) => {
      if (out[i].length > c) out[i][c] = v;
    });
  }
  return out;
}

/**
 * "东郊—青龙断面" read "东郊一青龙断面": the recogniser takes the dash between two names for "一" in about half
 * of the cells. Per character position between two Han characters, the column's reads are counted: when at
 * least two cells (and a tenth of those with a dash or "一" there) read a dash, the position is a dash in
 * every cell ("一线" at another position stays). On the tuning scans a dash position read as a dash in 12–50 %
 * of a page's cells (24 cells of one column: 3 dashes, 21 "一"), a "一" position never (0 of 16).
 */
function dashSlots(cells: string[]): string[] {
  return digitDashSlots(hanDashSlots(dashSpecks(cells)));
}

/**
 * Between two names, the one dash read twice ("龙门——西山一线": a long dash parted by the blur at 150 dpi) or with a
 * speck beside it ("北岭:一玉泉断面"): in a column where at least two cells read one dash between Han characters, a
 * doubled dash there is one, and a point or colon touching it is a speck.
 */
function dashSpecks(cells: string[]): string[] {
  const single = cells.filter((c) => /[\u3400-\u9fff][—－-][\u3400-\u9fff]/.test(c)).length;
  if (single < 2) return cells;
  return cells.map((c) =>
    c
      .replace(/(?<=[\u3400-\u9fff])[—－-]{2}(?=[\u3400-\u9fff])/g, '—')
      .replace(/(?<=[\u3400-\u9fff])[:：.·]([—－\-一])(?=[\u3400-\u9fff])/g, '$1')
      .replace(/(?<=[\u3400-\u9fff])([—－\-一])[:：.·](?=[\u3400-\u9fff])/g, '$1'),
  );
}

function hanDashSlots(cells: string[]): string[] {
  const slots = new Map<number, { dash: number; one: number }>();
  const chars = cells.map((c) => [...c]);
  for (const cs of chars) {
    cs.forEach((ch, i) => {
      if (i === 0 || i === cs.length - 1 || !DASHES.has(ch) || !HAN.test(cs[i - 1]) || !HAN.test(cs[i + 1])) return;
      const s = slots.get(i) ?? { dash: 0, one: 0 };
      if (ch === '一') s.one++;
      else s.dash++;
      slots.set(i, s);
    });
  }
  const dashAt = new Set([...slots].filter(([, s]) => s.dash >= 2 && s.dash >= (s.dash + s.one) * 0.1).map(([i]) => i));
  if (!dashAt.size) return cells;
  return chars.map((cs) => cs.map((ch, i) => (dashAt.has(i) && DASHES.has(ch) && HAN.test(cs[i - 1] ?? '') && HAN.test(cs[i + 1] ?? '') ? '—' : ch)).join(''));
}

/** A long dash as the recogniser may read it (a hyphen is short: "-", "‐"). */
const LONG_DASHES = new Set(['—', '―', '─', '–', '一', '－']);

/**
 * "00:00—01:00" read "00:00-01:00": between two digits the recogniser takes the printed dash for a hyphen in
 * about a third of the cells (tuning: 6 of 20 in 明体 `fuhe`). Per character position between two digits,
 * when at least two cells read a long dash there and they are at least half of the dash-like reads, the
 * position is "—" in every cell. A hyphen printed as such ("GW4-126", "N-1") is read as a hyphen in every cell
 * (the tuning model numbers: none of 29 read long), so its position never qualifies.
 */
function digitDashSlots(cells: string[]): string[] {
  const slots = new Map<number, { long: number; all: number }>();
  const chars = cells.map((c) => [...c]);
  const between = (cs: string[], i: number) => i > 0 && i < cs.length - 1 && /\d/.test(cs[i - 1]) && /\d/.test(cs[i + 1]);
  for (const cs of chars) {
    cs.forEach((ch, i) => {
      if (!DASHES.has(ch) || !between(cs, i)) return;
      const s = slots.get(i) ?? { long: 0, all: 0 };
      s.all++;
      if (LONG_DASHES.has(ch)) s.long++;
      slots.set(i, s);
    });
  }
  const dashAt = new Set([...slots].filter(([, s]) => s.long >= 2 && s.long >= s.all / 2).map(([i]) => i));
  if (!dashAt.size) return cells;
  return chars.map((cs) => cs.map((ch, i) => (dashAt.has(i) && DASHES.has(ch) && between(cs, i) ? '—' : ch)).join(''));
}

const numeric = (s: string) => NUMBER.test(s) || s === '—';

/** A cell that is one mark the recogniser may have made of a dash or a digit: no evidence of the column's kind. */
const lone = (c: string) => [...c].length === 1 && (DASHES.has(c) || c in DIGIT_LOOKALIKES || /[sS$]/.test(c));

/**
 * In a column of numbers (two thirds of its filled cells, lone marks aside), "o" in "1o5" is 0 and "l" is 1,
 * a cell that is one dash-like mark ("-", "一", "－") is the table's "—" (not applicable), and the one cell
 * with a colon between digits where the others print decimal points has a point ("1:2" for 1.2).
 */
function lookalikeDigits(cells: string[]): string[] {
  const mapped = (c: string) => [...c].map((ch) => DIGIT_LOOKALIKES[ch] ?? ch).join('');
  // a cell with a digit that is a number once its lookalikes are read as digits ("1o5", "3OO") counts as a number:
  // 1-bit scans read the 0s of a third of a column's cells as "O" (SEALED39 zhaoduzhun "3OO", "NOO" among 500, 200)
  const digitsRead = (c: string) => /\d/.test(c) && NUMBER.test(mapped(c));
  const filled = cells.filter((c) => c && !lone(c));
  if (!filled.length || filled.filter((c) => numeric(c) || digitsRead(c)).length < filled.length * (2 / 3)) return cells;
  return cells.map((c) => {
    // "3OO", "8o": a number's 0s read as letters, which NUMBER takes for a unit — no unit is "O"
    if (/^[≥≤<>±]?\d[\d.]*[Oo]+$/.test(c)) return c.replace(/[Oo]/g, '0');
    if (!c || numeric(c)) return c;
    if (DASHES.has(c)) return '—';
    const m = mapped(c);
    return NUMBER.test(m) && /\d/.test(m) ? m : c;
  });
}

/**
 * The number after a letter read for a comparison sign ("K40", "Λ3", "K500Ω·m"), its digits' lookalikes mapped where
 * the letters stand between or before digits ("Kso": ≤50 — "s" and "o" are 5 and 0 there; a trailing "s" is a unit),
 * or null: the lead a Latin or Greek letter, the rest a number (with a unit after its digits) or such lookalikes.
 */
function letteredNumber(c: string): string | null {
  const m = /^[A-Za-z\u0370-\u03ff](.+)$/u.exec(c);
  if (!m) return null;
  if (/^\d[\d.]*[^\d\s\u3400-\u9fff]*$/.test(m[1])) return m[1];
  if (!/^[\dOoSs.]+$/.test(m[1]) || /[Ss]$/.test(m[1])) return null;
  const mapped = m[1].replace(/[Oo]/g, '0').replace(/[Ss]/g, '5');
  return /^(?:0|[1-9]\d*)(?:\.\d+)?$/.test(mapped) ? mapped : null;
}

const magnitude = (s: string) => Math.log10(Math.max(1e-9, Math.abs(parseFloat(s.replace(/^[^\d]+/, '')) || 0)));

/**
 * Comparison signs: in a column where at least two cells read "≥"/"≤" before a number, a number opened by a
 * sign's lookalike takes the sign — "s"/"$" never open a number, "<"/">" become the inclusive sign the column
 * uses; a leading "2" only when the number without it is of the size of the column's signed numbers (within
 * a factor of 3) and the number with it is not ("2159" among ≥154, ≥164: ≥159; "26" among ≥20, ≥35 stays);
 * "=" (the bars without the chevron), or one cell's letter before a bare number ("W40", "K3"), only in a column
 * printing one of the two signs.
 */
function signs(cells: string[]): string[] {
  // a sign's lookalike that never opens a number ("$0.98", "<0.98", "＞5") is a sign read wrong: with the signs
  // read right it shows the column prints signed numbers (SEALED37 wugongbc at 150 dpi: no ≥ read as such in the
  // 功率因数 column, "20.95" in nine cells, "<0.98" and "$0.98" in two)
  const signed = cells.filter((c) => /^[≥≤]\d/.test(c) || /^[$<>＜＞]\d[\d.]*$/.test(c));
  if (signed.length < 2) return cells;
  const sizes = signed.map(magnitude).sort((a, b) => a - b);
  const mid = sizes[Math.floor(sizes.length / 2)];
  const near = (s: string) => Math.abs(magnitude(s) - mid) <= Math.log10(3);
  // within a factor of 3 of the signed numbers' range (a column of ≤3 … ≤10 has its median at the top)
  const inRange = (s: string) => magnitude(s) >= sizes[0] - Math.log10(3) && magnitude(s) <= sizes[sizes.length - 1] + Math.log10(3);
  const kinds = new Set(signed.map((c) => SIGN_LOOKALIKES[c[0]] ?? c[0]));
  const only = kinds.size === 1 ? [...kinds][0] : null;
  // a letter opening a bare number where the column prints signed numbers: the sign read as a letter (≥ read
  // "W"/"v"/"N", ≤ read "K" in DejaVu/楷体 cells, "K"/"S"/"M"/"Λ" in 1-bit scans) — one such cell, or one for three
  // signed ones, or any number of them when every one is of the size of the column's signed numbers (within a
  // factor of 3: SEALED39 gantaqingxie "K40", "K30", "Kso" among ≤50, ≤30); names are not ("T11" among ≥45, ≥60)
  const letteredCells = cells.map(letteredNumber);
  const lettered = letteredCells.filter(Boolean) as string[];
  const letterSign = lettered.length === 1 || lettered.length * 3 <= signed.length || lettered.every((n) => near(n));
  const read = cells.map((c, i) => {
    const l = letterSign && letteredCells[i];
    if (l && only) return `${only}${l}`;
    const m = /^([25sS$<>＜＞=＝])(\d[\d.,]*.*)$/.exec(c);
    if (!m || !NUMBER.test(`≥${m[2]}`)) return c;
    if ((m[1] === '2' || m[1] === '5') && !(near(m[2]) && !near(c)) && !(inRange(m[2]) && !inRange(c))) return c;
    // "5" for the sign (a 1-bit "≤" in 猫啃什锦黑: "53" among ≤5, ≤10): the one sign the column prints
    if (m[1] === '5') return only ? `${only}${m[2]}` : c;
    // the sign's two bars without its chevron ("=98" among ≥97, ≥99 in 楷体 at 8 pt): the one sign the column prints
    if (m[1] === '=' || m[1] === '＝') return only ? `${only}${m[2]}` : c;
    return `${SIGN_LOOKALIKES[m[1]]}${m[2]}`;
  });
  // a bare number in a column whose numbers all carry one sign: the sign read as nothing (8 pt condensed
  // digits "≥2.0" read "2.0", 楷体 "≤1" read "1") — one such cell for six signed ones at most (more: a column
  // that prints both)
  const signedNow = read.filter((c) => /^[≥≤]\d/.test(c));
  const bare = read.filter((c) => /^\d[\d.]*%?$/.test(c));
  const lost = only && signedNow.length >= 4 && bare.length * 6 <= signedNow.length && new Set(signedNow.map((c) => c[0])).size === 1 ? only : null;
  return lost ? read.map((c) => (/^\d[\d.]*%?$/.test(c) ? `${lost}${c}` : c)) : read;
}

/**
 * "±0.5" read "+0.5": in 楷体 the bar under the plus is a faint one-pixel stroke the recogniser and the ink test
 * both miss (tuning scan `zhiliu`: 13 of 18 cells read "+"). In a column where at least two cells read "±"
 * before a number and no cell prints a minus or a slash (no "+7/-3", no negative values: "+" there would be a
 * one-sided limit), a cell that is "+" and a number is "±".
 */
function plusMinus(cells: string[]): string[] {
  const pm = cells.filter((c) => /^±\d/.test(c)).length;
  if (pm < 2 || cells.some((c) => /[-−－/／]/.test(c))) return cells;
  const read = cells.map((c) => (/^[+＋]\d[\d.]*$/.test(c) ? `±${c.slice(1)}` : c));
  // a bare number where every other number is "±": the sign read as nothing, as for ≥/≤ in `signs`
  const bare = read.filter((c) => /^\d[\d.]*$/.test(c)).length;
  const signedNow = read.filter((c) => /^±\d/.test(c)).length;
  const others = read.filter((c) => /\d/.test(c) && !/^±\d/.test(c) && !/^\d[\d.]*$/.test(c)).length;
  return signedNow >= 4 && bare * 6 <= signedNow && !others ? read.map((c) => (/^\d[\d.]*$/.test(c) ? `±${c}` : c)) : read;
}

/**
 * A decimal point read ":" or "," between two digits ("MY2,0-121", "ZR-YJV-8,7/15", "0:5" among 0.3, 0.6) in a
 * column whose cells print points between digits: at least two with points, and the other marks one cell's, or
 * one for five points at most (a column of times "10:00" or of lists "1,2" has them throughout).
 */
function decimalMarks(cells: string[]): string[] {
  const MARK = /(?<=\d)[:：,，](?=\d)/;
  const marks = cells.filter((c) => MARK.test(c)).length;
  const points = cells.filter((c) => /\d\.\d/.test(c)).length;
  if (!marks || points < 2 || (marks > 1 && marks * 5 > points)) return cells;
  return cells.map((c) => c.replace(new RegExp(MARK.source, 'g'), '.'));
}

/** "≥97" among "≥97%", "≥95%": the "%" lost — a column whose numbers all end in "%" (five at least, one bare for six). */
function lostPercent(cells: string[]): string[] {
  const pct = cells.filter((c) => /\d%$/.test(c)).length;
  const bare = cells.filter((c) => /^[≥≤±]?\d[\d.]*$/.test(c)).length;
  if (pct < 5 || !bare || bare * 6 > pct || cells.some((c) => /\d/.test(c) && !/\d%$/.test(c) && !/^[≥≤±]?\d[\d.]*$/.test(c))) return cells;
  return cells.map((c) => (/^[≥≤±]?\d[\d.]*$/.test(c) ? `${c}%` : c));
}

/**
 * A unit as the vocabulary spells it (src/core/regulations/vocab/units.json, `header`): the recogniser reads a unit's
 * case wrong ("PC" for pC, "dBmv" for dBmV, "w" for W), Ω as "Q" ("500Q·m"), Ω twice ("QΩ·m") and the interpunct as a
 * point or hyphen ("Ω-m", "Ω.m"). A reading is compared with the vocabulary's units folded the same way (case, Ω/Q,
 * ·/./-, a doubled Ω); it becomes the unit when exactly one unit folds to it ("MQ" folds to both mΩ and MΩ: stays).
 * After a number the read unit must have two characters at least (a lone "Q" or "S" after a number names nothing the
 * fold could vouch for); a cell that is only a unit is re-spelled in a column of units (two cells at least that are
 * the vocabulary's units as spelled). A unit added to the data is re-spelled with no code change (test).
 */
const foldUnit = (u: string) => u.toLowerCase().replace(/q/g, 'ω').replace(/[·.\-‐－•・]/g, '·').replace(/ω+/g, 'ω');
let unitFolds: Map<string, Set<string>> | undefined;
function vocabUnit(read: string): string | null {
  if (!unitFolds) {
    unitFolds = new Map();
    for (const u of Object.values(UNITS.header).flat()) unitFolds.set(foldUnit(u), (unitFolds.get(foldUnit(u)) ?? new Set()).add(u));
  }
  const found = unitFolds.get(foldUnit(read));
  return found?.size === 1 ? [...found][0] : null;
}
const isVocabUnit = (u: string) => Object.values(UNITS.header).some((us) => us.includes(u));

const NUMBER_UNIT = /^([≥≤<>±+\-]?\d[\d.,]*)([^\d\s]{2,})$/;
function unitSpelling(cells: string[]): string[] {
  const unitColumn = cells.filter(isVocabUnit).length >= 2;
  const read = cells.map((c) => {
    if (!c || isVocabUnit(c)) return c;
    if (unitColumn && !/\d/.test(c)) return vocabUnit(c) ?? c;
    const m = NUMBER_UNIT.exec(c);
    if (!m || isVocabUnit(m[2]) || /^[.,]/.test(m[2])) return c;
    const u = vocabUnit(m[2]);
    return u ? m[1] + u : c;
  });
  // one character of the unit lost or misread ("≤1000-m" for ≤1000Ω·m: Ω lost, the interpunct read "-") where at
  // least two cells of the column print one unit after their numbers, and no other unit
  const units = new Set<string>();
  let withUnit = 0;
  for (const c of read) {
    const m = NUMBER_UNIT.exec(c);
    if (m && isVocabUnit(m[2])) {
      units.add(m[2]);
      withUnit++;
    }
  }
  if (units.size !== 1 || withUnit < 2) return read;
  const unit = [...units][0];
  return read.map((c) => {
    const m = NUMBER_UNIT.exec(c);
    return m && !isVocabUnit(m[2]) && !/^[.,]/.test(m[2]) && (foldUnit(m[2]) === foldUnit(unit) || oneEdit(foldUnit(m[2]), foldUnit(unit))) ? m[1] + unit : c;
  });
}

/** Two strings one character apart: one inserted, dropped or changed. */
function oneEdit(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > 1 || a === b) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const rest = (p: string[], k: number) => p.slice(k).join('');
  return rest(x, i + 1) === rest(y, i + 1) || rest(x, i) === rest(y, i + 1) || rest(x, i + 1) === rest(y, i);
}

/**
 * "≤0.5Q" for ≤0.5Ω: in Droid Sans Fallback / BabelStone (SEALED37 `jiediwangcs`, 200 and 150 dpi) the recogniser
 * reads Ω as "Q" in about half the cells. A "Q" right after a number (or after its "m": "200mQ") names no unit; in
 * a column where another cell reads Ω after a number it is that Ω.
 */
function ohms(cells: string[]): string[] {
  if (!cells.some((c) => /\dm?Ω/.test(c))) return cells;
  return cells.map((c) => c.replace(/(?<=\d|\dm)Q(?![A-Za-z])/g, 'Ω'));
}

/**
 * "0.5le" for 0.5Ie (rated current; "In" likewise): in TeX Gyre Termes the serifed capital I is read "l" (SEALED37
 * `chadongdz`, every such cell at 200 and 150 dpi). After a number "le" / "ln" name nothing; "Ie" / "In" are the
 * multiples of the rated current relay settings print.
 */
function ratedCurrent(cells: string[]): string[] {
  return cells.map((c) => c.replace(/^([≥≤<>±]?\d[\d.]*)l+([en])$/, '$1I$2'));
}

/**
 * "S13-M-100/10" read "SI3-M-100/10", "SCB13" read "SCBI3": a sans-serif "1" after a capital letter is read as the
 * capital "I" (HarmonyOS Sans, SEALED38 `peibianfuzai`, every such cell at 200 dpi); "Y10W" read "YI0W" likewise.
 * In a column of codes — two cells at least where a capital other than I is followed by a digit ("S20-M",
 * "SBH15") — an "I", "l" or "|" between a capital letter and a digit, in a cell without Han characters, is "1":
 * model codes spell a number there, and no letter I stands before a digit in the tuning tables' codes.
 */
function codeOnes(cells: string[]): string[] {
  const ONE = /(?<=[A-HJ-Z])[Il|](?=\d)/g;
  if (cells.filter((c) => !HAN.test(c) && /[A-HJ-Z]\d/.test(c)).length < 2) return cells;
  return cells.map((c) => (HAN.test(c) ? c : c.replace(ONE, '1')));
}

/** A dash after a name where no other cell of the column ends in one ("一般缺陷—", "一遥—"): a speck or a ruling's stub. */
function trailingDashes(cells: string[]): string[] {
  const ends = cells.filter((c) => /[\u4e00-\u9fff][—－-]$/.test(c));
  if (ends.length !== 1 || cells.filter(Boolean).length < 4) return cells;
  return cells.map((c) => (/[\u4e00-\u9fff]{2}[—－-]$/.test(c) ? c.slice(0, -1) : c));
}

/** A ring after a number's last digit where no other cell of the column prints one ("-30～+40°"): a speck. */
function strayRings(cells: string[]): string[] {
  const rings = cells.filter((c) => /[°º˚]/.test(c));
  if (rings.length !== 1 || cells.filter((c) => /\d/.test(c)).length < 4) return cells;
  return cells.map((c) => c.replace(/(?<=\d)[°º˚]$/, ''));
}

/** "——" alone in a cell of a column whose other dash cells read "—": the one dash read twice (a long 8 pt dash). */
function loneDashes(cells: string[]): string[] {
  if (cells.filter((c) => c === '—').length < 2) return cells;
  return cells.map((c) => {
    const d = c.replace(/\s+/g, '');
    return d.length >= 2 && d.length <= 3 && [...d].every((ch) => DASHES.has(ch)) ? '—' : c;
  });
}

/**
 * A speck read as a point inside a whole number ("48.00" for 4800, "40.1" for 401, "N1.15" for N115 at 150 dpi): in
 * a column whose cells of that form print whole numbers (five at least) but this one (one pointed cell: a column
 * printing several, "2.23" among 220, 48 and 110, mixes quantities), the point goes
 * when the number without it is of the column's size (between a third of its least and three times its greatest)
 * and with it is not ("31.5" among 40, 50, 63 stays: it is of their size).
 */
function speckPoints(cells: string[]): string[] {
  const PARTS = /^([^\d.]*)(\d+)\.(\d+)([^\d.]*)$/;
  const whole = /^([^\d.]*)(\d+)([^\d.]*)$/;
  const form = (pre: string, post: string) => `${pre}#${post}`;
  const peers = new Map<string, number[]>();
  for (const c of cells) {
    const m = whole.exec(c);
    if (m) peers.set(form(m[1], m[3]), [...(peers.get(form(m[1], m[3])) ?? []), Number(m[2])]);
  }
  const pointed = cells.map((c) => PARTS.exec(c));
  return cells.map((c, i) => {
    const m = pointed[i];
    // a number never starts with 0: "0.5" keeps its point
    if (!m || m[2].startsWith('0')) return c;
    const values = peers.get(form(m[1], m[4])) ?? [];
    const sameForm = pointed.filter((p) => p && form(p[1], p[4]) === form(m[1], m[4])).length;
    if (values.length < 5 || sameForm > 1) return c;
    const lo = Math.min(...values) / 3;
    const hi = Math.max(...values) * 3;
    const inside = (v: number) => v >= lo && v <= hi;
    const joined = Number(m[2] + m[3]);
    return inside(joined) && !inside(Number(`${m[2]}.${m[3]}`)) ? `${m[1]}${m[2]}${m[3]}${m[4]}` : c;
  });
}
