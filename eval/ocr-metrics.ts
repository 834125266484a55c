/** Character accuracy of OCR output against the source text: 1 - edit distance / source length. */

/** NFKC (full-width brackets, digits and letters as their plain forms), no whitespace. */
export function ocrChars(s: string): string[] {
  return [...s.normalize('NFKC').replace(/\s/g, '')];
}

export function editDistance(a: string[], b: string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

export function charAccuracy(got: string, truth: string): number {
  const t = ocrChars(truth);
  return t.length ? Math.max(0, 1 - editDistance(ocrChars(got), t) / t.length) : 1;
}
