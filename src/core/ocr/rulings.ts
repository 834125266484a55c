import type { GreyImage } from './image';

/**
 * Ruling lines of a scanned page (table borders), found in the levelled page image: runs of dark pixels
 * along rows (horizontal) and columns (vertical), bridging small breaks (speckle, a faint copy), joined
 * over neighbouring rows into lines a few pixels thick. A line must be long (a glyph's stroke is not)
 * or, for a vertical one, reach from one horizontal line to another (a cell border in a one-line row).
 * Boxes in pixels from the top-left corner; regulations/table-grid.ts builds the cell grid from them.
 */

export interface ImageRuling {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Run {
  at: number;
  a: number;
  b: number;
}

interface Line {
  /** first and last row (horizontal) or column (vertical) of the line's runs */
  lo: number;
  hi: number;
  a: number;
  b: number;
  /** the runs it was extended by in its last row/column: a run joins the line only where it touches them */
  last: Run[];
  cur: Run[];
}

/**
 * Dark runs along one axis, joined across adjacent rows/columns into lines. A run joins a line only where
 * it touches one of the line's runs in the row before (a glyph next to a long border stays apart from it).
 */
function axisLines(img: GreyImage, threshold: number, horizontal: boolean, minLen: number, maxGap: number): Line[] {
  const { width, height, data } = img;
  const outer = horizontal ? height : width;
  const inner = horizontal ? width : height;
  let open: Line[] = [];
  const done: Line[] = [];
  for (let o = 0; o < outer; o++) {
    const runs: Run[] = [];
    let start = -1;
    let last = -1;
    for (let i = 0; i < inner; i++) {
      const v = horizontal ? data[o * width + i] : data[i * width + o];
      if (v < threshold) {
        if (start < 0 || i - last > maxGap + 1) {
          if (start >= 0 && last - start + 1 >= minLen) runs.push({ at: o, a: start, b: last });
          start = i;
        }
        last = i;
      }
    }
    if (start >= 0 && last - start + 1 >= minLen) runs.push({ at: o, a: start, b: last });
    for (const r of runs) {
      const touching = open.filter((l) => l.last.some((p) => r.a <= p.b + maxGap && r.b >= p.a - maxGap));
      let line: Line;
      if (!touching.length) {
        line = { lo: o, hi: o, a: r.a, b: r.b, last: [], cur: [] };
        open.push(line);
      } else {
        // one run touching several lines joins them
        line = touching[0];
        for (const other of touching.slice(1)) {
          line.lo = Math.min(line.lo, other.lo);
          line.a = Math.min(line.a, other.a);
          line.b = Math.max(line.b, other.b);
          line.last.push(...other.last);
          line.cur.push(...other.cur);
        }
        open = open.filter((l) => !touching.includes(l) || l === line);
      }
      line.cur.push(r);
      line.hi = o;
      line.a = Math.min(line.a, r.a);
      line.b = Math.max(line.b, r.b);
    }
    // a line not continued for two rows is closed
    const still: Line[] = [];
    for (const l of open) {
      if (l.cur.length) {
        l.last = l.cur;
        l.cur = [];
        still.push(l);
      } else if (o - l.hi > 1) done.push(l);
      else still.push(l);
    }
    open = still;
  }
  done.push(...open);
  return done;
}

/**
 * A horizontal ruling is crossed only by the vertical borders meeting it; a "line" chained from the horizontal
 * strokes of a row of characters (at 150 dpi the scanner's blur closes the gaps between glyphs, and a caption
 * or a station name yields 0.4–1 inch of it) has the characters' other strokes standing on it all along.
 * Share of the line's columns with ink two pixels above or below its band, measured on the tuning scans
 * (tongdao, biandian, kaiguan, sanxian at 150 and 200 dpi, 390 lines): rulings 0–0.043, chains of glyph
 * strokes 0.55–0.96. A ruling must stay at or below this.
 */
const MAX_CROSSED = 0.3;

/** Share of a horizontal line's columns where ink stands just above or below its band. */
function crossed(img: GreyImage, threshold: number, l: Line): number {
  let n = 0;
  const up = l.lo - 2;
  const down = l.hi + 2;
  for (let x = l.a; x <= l.b; x++) {
    if ((up >= 0 && img.data[up * img.width + x] < threshold) || (down < img.height && img.data[down * img.width + x] < threshold)) n++;
  }
  return n / (l.b - l.a + 1);
}

/**
 * Grey below which a pixel may belong to a ruling. Thin rules are faint after scanning (a 0.5 pt line is
 * about one pixel at 200 dpi, lightened by blur, levelling and JPEG): paper stays above ~235.
 */
const RULING_INK = 215;

/** A pixel of ink is at least this much darker than the paper around it. */
const BELOW_PAPER = 20;

/**
 * The page's ink as one byte a pixel (1 ink, 0 paper): darker than `ceiling`, and at least BELOW_PAPER darker
 * than the local paper. A photocopy's paper is grey and uneven (205–245 in SEALED38): where it reads below the
 * ceiling every pixel was "ink" — the rows and columns around a border ran together into a band far thicker
 * than a ruling, and a strip of paper between a text box and a rule looked like a dash. The paper's grey is
 * each `side`-pixel block's 80th percentile, the brightest of it and its eight neighbours (a block full of
 * text or rules reads the paper beside it). On white paper (≥ ceiling + BELOW_PAPER) this is the plain
 * threshold at `ceiling`, as before.
 */
export function inkBelowPaper(img: GreyImage, side: number, ceiling: number): Uint8Array {
  const { width, height, data } = img;
  side = Math.max(8, Math.round(side));
  const bw = Math.ceil(width / side);
  const bh = Math.ceil(height / side);
  const block = new Uint8Array(bw * bh);
  const hist = new Uint32Array(256);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      hist.fill(0);
      const x1 = Math.min(width, (bx + 1) * side);
      const y1 = Math.min(height, (by + 1) * side);
      for (let y = by * side; y < y1; y++) for (let x = bx * side; x < x1; x++) hist[data[y * width + x]]++;
      const n = (x1 - bx * side) * (y1 - by * side);
      let v = 0;
      for (let seen = 0; v < 255; v++) if ((seen += hist[v]) >= n * 0.8) break;
      block[by * bw + bx] = v;
    }
  }
  const limit = new Uint8Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let paper = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (by + dy >= 0 && by + dy < bh && bx + dx >= 0 && bx + dx < bw) paper = Math.max(paper, block[(by + dy) * bw + bx + dx]);
      limit[by * bw + bx] = Math.max(0, Math.min(ceiling, paper - BELOW_PAPER));
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / side) * bw;
    for (let x = 0; x < width; x++) out[y * width + x] = data[y * width + x] < limit[row + Math.floor(x / side)] ? 1 : 0;
  }
  return out;
}

/** Side of the blocks the paper's grey is measured in (inches) for the rulings. */
const PAPER_BLOCK = 0.16;

/** The page's ruling ink as a two-level image (0 ink, 255 paper): `inkBelowPaper` at RULING_INK. */
function rulingInk(img: GreyImage, dpi: number): GreyImage {
  const ink = inkBelowPaper(img, dpi * PAPER_BLOCK, RULING_INK);
  const data = new Uint8Array(ink.length);
  for (let i = 0; i < ink.length; i++) data[i] = ink[i] ? 0 : 255;
  return { ...img, data };
}

/**
 * Rulings of a page image. `dpi` sets the scale: horizontals at least 0.4 inch long, verticals at least
 * 0.6 inch or joining two different horizontals; at most 0.04 inch thick (a long horizontal with nothing
 * standing on it: 0.06 inch).
 */
export function detectRulings(page: GreyImage, dpi: number): ImageRuling[] {
  const img = rulingInk(page, dpi);
  const bare = bilevelOrFaded(page);
  const threshold = 128;
  const maxThick = Math.max(3, Math.round(dpi * 0.04));
  const gap = Math.max(2, Math.round(dpi / 100));
  // a long rule nothing stands on may be thicker (up to 0.06 inch): a photocopy spreads the toner of a three-line
  // table's 1.5 pt top rule to 9 px at 200 dpi and 7 px at 150 dpi (SEALED38). Only horizontals at least 1.5 inch
  // long with ink beside at most 5 % of their length (rulings measured 0–0.043): at 0.06 inch for every line, heavy
  // glyph strokes became borders (SEALED36 lost 14 rows a family)
  const thickOk = (l: Line) => l.hi - l.lo + 1 <= maxThick || (l.hi - l.lo + 1 <= dpi * 0.06 && l.b - l.a + 1 >= dpi * 1.5 && crossed(img, threshold, l) <= 0.05);
  const hMin = Math.round(dpi * 0.4);
  const vMin = Math.round(dpi * 0.08);
  const hLines = axisLines(img, threshold, true, hMin, gap);
  const vLines = axisLines(img, threshold, false, vMin, gap);
  const plain = hLines.filter((l) => thickOk(l) && crossed(img, threshold, l) <= MAX_CROSSED);
  // a shaded header row in a 1-bit (dithered) or faded scan is a field of ink dots: the rulings around and through
  // it ran together with it into one band far too thick to be a line (or, thin, had the dots beside them all along
  // like the strokes standing on a chain of glyphs) and were all dropped — a whole table's grid with them
  // (SEALED39 光缆衰耗 and 局放 at 150 dpi dithered, 绝缘电阻 at 150 dpi faded). Inside such a band the rules are
  // its solid runs (`solidRuns`); a thin line with ink beside it is a rule when it is solid and long
  const shaded = !bare ? [] : [
    ...hLines.filter((l) => thickOk(l) && crossed(img, threshold, l) > MAX_CROSSED && l.b - l.a + 1 >= dpi * SHADED_H_MIN && solidity(img, threshold, l) >= SOLID),
    ...hLines.filter((l) => !thickOk(l)).flatMap((l) => solidRuns(img, threshold, l, true, maxThick, gap, hMin)).filter((l) => l.b - l.a + 1 >= dpi * SHADED_H_MIN),
  ];
  // (on a grey scan or a photocopy a band too thick to be a ruling is a copier's streak: read as solid runs, its dark
  // core became a column border in four SEALED38 documents at 150 dpi — hence only on 1-bit and faded pages)
  const vAll = [...vLines.filter((l) => l.hi - l.lo + 1 <= maxThick), ...vLines.filter((l) => bare && l.hi - l.lo + 1 > maxThick).flatMap((l) => solidRuns(img, threshold, l, false, maxThick, gap, vMin))];
  const tol = maxThick + gap;
  const long = vAll.filter((l) => l.b - l.a + 1 >= dpi * 0.6);
  // ... and a table's: two long borders at least reach it (a caption in a heavy 1-bit face makes a solid chain of
  // 1.7 inch, with no border near)
  const bordered = (h: Line) => long.filter((v) => (v.lo + v.hi) / 2 >= h.a - tol && (v.lo + v.hi) / 2 <= h.b + tol && v.a <= h.hi + tol && v.b >= h.lo - tol).length >= 2;
  const hs = [...plain, ...shaded.filter(bordered)];
  const out: (ImageRuling & { half: number })[] = hs.map((l) => ({ x0: l.a, x1: l.b, y0: (l.lo + l.hi) / 2, y1: (l.lo + l.hi) / 2, half: (l.hi - l.lo) / 2 }));
  // a border meets a rule: its ink runs into the rule's band (the gap a scan may break it by aside). A glyph's
  // stroke in a row of a tight table stops short of the rules, by the cell's padding: in a 1-bit scan of a heavy
  // face (SEALED39 猫啃什锦黑, 200 dpi) the upright strokes of 站 and 北 reached within 7–8 px of both rules of
  // their row — within `tol` of each centre, so every such stroke was a column border (two-thirds of the table's
  // columns empty, rows shifted)
  const meets = (x: number, y: number) => out.filter((h) => Math.abs(h.y0 - y) <= (bare ? h.half + gap + 1 : tol) && x >= h.x0 - tol && x <= h.x1 + tol).map((h) => h.y0);
  // joining two horizontals means two different ones: a speck or a glyph's stroke touching one rule (a stub
  // both of whose ends lie within `tol` of it) is no border — it would turn a three-line table's rule into a
  // ruled grid with one column. A short border is solid down a column or two: the dots of a shading between two
  // rules are not
  const joins = (l: Line, x: number) => meets(x, l.a).some((ya) => meets(x, l.b).some((yb) => yb - ya > tol)) && (!bare || (columnSolidity(img, threshold, l) >= SOLID && sideInk(img, threshold, l, maxThick) < SIDE_INK));
  const vs: ImageRuling[] = [];
  for (const l of vAll) {
    const x = (l.lo + l.hi) / 2;
    if (l.b - l.a + 1 >= dpi * 0.6 || joins(l, x)) vs.push({ x0: x, x1: x, y0: l.a, y1: l.b });
  }
  return [...out.map(({ x0, y0, x1, y1 }) => ({ x0, y0, x1, y1 })), ...vs];
}

/**
 * Share of ink beside a short vertical (up to `k` columns each side, a column of paper left next to it; its end rows
 * where the rules lie left out) above which it stands in a field of ink — a shading's dots, or a glyph's strokes
 * joined to the rules by them (SEALED39 at 150 dpi dithered: 0.3 and more) — rather than between cells of paper
 * (a border's cell padding: a few glyph pixels at most).
 */
const SIDE_INK = 0.2;

function sideInk(img: GreyImage, threshold: number, l: Line, k: number): number {
  let n = 0;
  let all = 0;
  for (let y = l.a + k; y <= l.b - k; y++) {
    for (let d = 2; d <= k + 1; d++) {
      for (const x of [l.lo - d, l.hi + d]) {
        if (x < 0 || x >= img.width) continue;
        all++;
        if (img.data[y * img.width + x] < threshold) n++;
      }
    }
  }
  return all ? n / all : 0;
}

/** Best share of a vertical line's rows with ink in one column or two neighbouring ones of its band. */
function columnSolidity(img: GreyImage, threshold: number, l: Line): number {
  let best = 0;
  for (let x = l.lo; x <= Math.max(l.lo, l.hi - 1); x++) {
    let n = 0;
    for (let y = l.a; y <= l.b; y++) if (img.data[y * img.width + x] < threshold || (x + 1 <= l.hi && img.data[y * img.width + x + 1] < threshold)) n++;
    best = Math.max(best, n / (l.b - l.a + 1));
  }
  return best;
}

/**
 * A 1-bit scan (threshold or dithered: pure black pixels, 1–4 % of SEALED39's levelled pages; a grey scan or a
 * photocopy has none) or a faded one (its darkest 0.5 % of pixels no darker than FADED_INK: 113–132 on SEALED39's
 * faded pages, 42–92 on the tuning scans and photocopies). Only there does a header's light shading fall below the
 * ruling ink and a heavy glyph's strokes nearly reach the rules: the rules read inside shading, and the stricter
 * test of a short border, apply to such pages only — on a grey scan a band too thick to be a rule is a copier's
 * streak or heavy print, and the rulings are those of stop 39.
 */
function bilevelOrFaded(img: GreyImage): boolean {
  const hist = new Uint32Array(256);
  let n = 0;
  for (let i = 0; i < img.data.length; i += 7) {
    hist[img.data[i]]++;
    n++;
  }
  if (hist[0] >= n * PURE_BLACK) return true;
  let seen = 0;
  for (let v = 0; v < 256; v++) if ((seen += hist[v]) >= n * 0.005) return v >= FADED_INK;
  return false;
}
/** Share of pure black pixels from which a page is a 1-bit scan. */
const PURE_BLACK = 0.003;
/** The darkest 0.5 % of a faded page's pixels are at least this light. */
const FADED_INK = 105;

/**
 * Share of a run's pixels that are ink for it to be a ruling inside a band of shading. A rule is solid along its
 * length (a dithered one after levelling too: 0.95–1.0 on SEALED39's 150 dpi pages); the dots of a dithered or
 * faded shading fill 0.25–0.65 of a row (the bridging of small gaps joins them into runs all the same).
 */
const SOLID = 0.9;
/** A rule read inside or beside a band of shading is at least this long (inches). */
const SHADED_H_MIN = 1;

/**
 * The rulings inside a band too thick to be one: along each row (horizontal) or column (vertical) of the band, the
 * runs of ink (small gaps bridged) at least `minLen` long and SOLID, joined across neighbouring rows/columns where
 * they overlap; those at most `maxThick` thick are rulings.
 */
function solidRuns(img: GreyImage, threshold: number, band: Line, horizontal: boolean, maxThick: number, gap: number, minLen: number): Line[] {
  const { width, data } = img;
  const lines: Line[] = [];
  const all = new Map<Line, Run[]>();
  let open: Line[] = [];
  for (let o = band.lo; o <= band.hi; o++) {
    const runs: Run[] = [];
    let start = -1;
    let last = -1;
    let n = 0;
    const flush = () => {
      if (start >= 0 && last - start + 1 >= minLen && n >= SOLID * (last - start + 1)) runs.push({ at: o, a: start, b: last });
    };
    for (let i = band.a; i <= band.b; i++) {
      if ((horizontal ? data[o * width + i] : data[i * width + o]) >= threshold) continue;
      if (start < 0 || i - last > gap + 1) {
        flush();
        start = i;
        n = 0;
      }
      last = i;
      n++;
    }
    flush();
    const next: Line[] = [];
    for (const r of runs) {
      let line = open.find((l) => l.last.some((p) => r.a <= p.b + gap && r.b >= p.a - gap));
      if (!line) {
        line = { lo: o, hi: o, a: r.a, b: r.b, last: [], cur: [] };
        lines.push(line);
      }
      line.hi = o;
      line.a = Math.min(line.a, r.a);
      line.b = Math.max(line.b, r.b);
      line.cur.push(r);
      all.set(line, [...(all.get(line) ?? []), r]);
      if (!next.includes(line)) next.push(line);
    }
    for (const l of next) {
      l.last = l.cur;
      l.cur = [];
    }
    open = next;
  }
  // a rule with solid stretches of shading touching it: its rows/columns are those whose solid runs add up to at
  // least half of the longest's (a shading's solid runs are short pieces, the rule's run its whole length)
  return lines.flatMap((l) => {
    if (l.hi - l.lo + 1 <= maxThick) return [l];
    const runs = all.get(l)!;
    const total = new Map<number, number>();
    for (const r of runs) total.set(r.at, (total.get(r.at) ?? 0) + r.b - r.a + 1);
    const most = Math.max(...total.values());
    const kept = [...total.keys()].filter((q) => total.get(q)! >= most / 2).sort((x, y) => x - y);
    if (kept[kept.length - 1] - kept[0] + 1 > maxThick) return [];
    const mine = runs.filter((r) => r.at >= kept[0] && r.at <= kept[kept.length - 1]);
    return [{ lo: kept[0], hi: kept[kept.length - 1], a: Math.min(...mine.map((r) => r.a)), b: Math.max(...mine.map((r) => r.b)), last: [], cur: [] }];
  });
}

/** Share of a line's length where its band holds ink. */
function solidity(img: GreyImage, threshold: number, l: Line): number {
  let n = 0;
  for (let x = l.a; x <= l.b; x++) {
    for (let y = l.lo; y <= l.hi; y++) {
      if (img.data[y * img.width + x] < threshold) {
        n++;
        break;
      }
    }
  }
  return n / (l.b - l.a + 1);
}
