/** What the ONNX worker returns for one page read by OCR. Plain data (crosses threads). */
export interface OcrPageLine {
  text: string;
  /** mean probability of the characters read (0..1) */
  confidence: number;
  /** probability of the least sure character: one misread character in a long line shows here, not in the mean */
  min_confidence: number;
  /** box in PDF points from the page's top-left corner */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /**
   * where the line's print starts and ends inside its box, as shares of the box's width (0..1): the detector
   * pads a box by about a third of its height on each side, so two table cells a word space apart have
   * boxes that touch; their ink does not (three-line table columns: `frameGrid`)
   */
  ink?: [number, number];
}

export type OcrSkipReason = 'blank' | 'too_large' | 'unreadable';

export interface OcrPageResult {
  page: number;
  widthPt: number;
  heightPt: number;
  lines: OcrPageLine[];
  /** set when the page was not read: no image on it, an image over the size limit, an image that does not decode */
  skipped?: OcrSkipReason;
  /** the largest image's pixel size, for the note about an oversized page */
  image?: { width: number; height: number };
  skew: number;
  /**
   * table ruling lines found in the image, in PDF points from the top-left corner of the page as
   * levelled (rotated by `skew` about the page centre; the line boxes are on the page as scanned)
   */
  rulings?: { x0: number; y0: number; x1: number; y1: number }[];
  dpi: number;
  ms: number;
}

export interface OcrLimits {
  dpi: number;
  maxPagePixels: number;
  maxImagePixels: number;
  threads?: number;
}
