/**
 * Canonical text for matching: NFKC (full-width ASCII -> half-width, compatibility forms),
 * lower-case Latin, unified whitespace, control characters removed.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g, '')
    .replace(/[ \t\u00a0\u3000]+/g, ' ')
    .toLowerCase()
    .trim();
}

/** Removes control and zero-width characters but keeps case and layout (for display data). */
export function stripControlChars(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g, '');
}

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
export function isHan(ch: string): boolean {
  return HAN.test(ch);
}

export function hanRatio(text: string): number {
  if (!text) return 0;
  let han = 0;
  let total = 0;
  for (const ch of text) {
    if (/\s/.test(ch)) continue;
    total++;
    if (HAN.test(ch)) han++;
  }
  return total ? han / total : 0;
}
