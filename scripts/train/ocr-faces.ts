/**
 * The faces the recogniser's training pages are printed in (`npm run train:ocr`, scripts/train/ocr-data.ts) and the
 * guard that keeps sealed faces out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SEALED38_FAMILIES, SEALED39_FAMILIES, SEALED39_FONT_DIR, SEALED40_FAMILIES, SEALED40_FONT_DIR } from '../../test/fixtures/fonts';

/**
 * The stop-38 and stop-39 sealed test faces (PROTOCOL font split): Chinese faces from npm font packages. A guard, never printed
 * here: any font file inside node_modules (or an npm font package's name, or a SEALED38 family name) is refused, as is every file outside the
 * system's font folders (/usr/share/fonts, /usr/share/texmf/fonts), so a face the tables engineer adds from npm can
 * never reach training.
 */
export function sealedFace(file: string, family = ''): boolean {
  const real = fs.existsSync(file) ? fs.realpathSync(file) : file;
  const names = `${file} ${real} ${family}`;
  // the stop-40 sealed face (MiSans, npm `misans`, printed by LibreOffice Calc) by name, package or the folder Calc
  // alone reads it from: refused first and whatever the rules below admit of older sealed faces
  const squash40 = (t: string) => t.replace(/[\s_-]+/g, '').toLowerCase();
  if ([...SEALED40_FAMILIES, 'misans', 'sealed40'].some((f) => squash40(names).includes(squash40(f)))) return true;
  if (real.startsWith(SEALED40_FONT_DIR) || file.startsWith(SEALED40_FONT_DIR)) return true;
  if (/node_modules|@fontsource|@chinese-fonts|fontsource|chinese-fonts|webfont/i.test(names)) return true;
  // the stop-38 sealed families by name (ZCOOL XiaoWei, HarmonyOS Sans SC, 江西拙楷), spaces and case aside
  const squash = (t: string) => t.replace(/[\s_-]+/g, '').toLowerCase();
  if ([...SEALED38_FAMILIES, 'zcool', 'harmonyos', 'jxzk', '江西拙楷'].some((f) => squash(names).includes(squash(f)))) return true;
  // the stop-39 sealed faces (思源屏显臻宋, 猫啃什锦黑) by name or package, and the folder LibreOffice alone reads them from
  if ([...SEALED39_FAMILIES, 'sypxzs', 'mksjh', '屏显臻宋', '什锦黑', 'maoken', 'sealed39'].some((f) => squash(names).includes(squash(f)))) return true;
  if (real.startsWith(SEALED39_FONT_DIR) || file.startsWith(SEALED39_FONT_DIR)) return true;
  return !/^\/usr\/share\/(fonts|texmf\/fonts)\//.test(real);
}

export interface Face {
  name: string;
  file: string;
  family?: string;
}

const T = '/usr/share/fonts/truetype';
const N = '/usr/share/fonts/opentype/noto';
/** Han faces of the training pages (all present on the lead's machine; a missing file is skipped) */
export const HAN_TRAIN: Face[] = [
  { name: 'microhei', file: `${T}/wqy/wqy-microhei.ttc`, family: 'WenQuanYiMicroHei' },
  { name: 'microheimono', file: `${T}/wqy/wqy-microhei.ttc`, family: 'WenQuanYiMicroHeiMono' },
  { name: 'zenhei', file: `${T}/wqy/wqy-zenhei.ttc`, family: 'WenQuanYiZenHei' },
  { name: 'zenheimono', file: `${T}/wqy/wqy-zenhei.ttc`, family: 'WenQuanYiZenHeiMono' },
  { name: 'zenheisharp', file: `${T}/wqy/wqy-zenhei.ttc`, family: 'WenQuanYiZenHeiSharp' },
  { name: 'umingcn', file: `${T}/arphic/uming.ttc`, family: 'UMingCN' },
  { name: 'umingtw', file: `${T}/arphic/uming.ttc`, family: 'UMingTW' },
  { name: 'uminghk', file: `${T}/arphic/uming.ttc`, family: 'UMingHK' },
  { name: 'ukaicn', file: `${T}/arphic/ukai.ttc`, family: 'UKaiCN' },
  { name: 'ukaitw', file: `${T}/arphic/ukai.ttc`, family: 'UKaiTW' },
  { name: 'ukaihk', file: `${T}/arphic/ukai.ttc`, family: 'UKaiHK' },
  { name: 'wenkai', file: `${T}/lxgw-wenkai/LXGWWenKai-Regular.ttf` },
  { name: 'wenkaibold', file: `${T}/lxgw-wenkai/LXGWWenKai-Bold.ttf` },
  { name: 'wenkaimono', file: `${T}/lxgw-wenkai/LXGWWenKaiMono-Regular.ttf` },
  { name: 'hanamin', file: `${T}/hanazono/HanaMinA.ttf` },
  // stop 37: the former stop-36 sealed faces are training faces (PROTOCOL font split), with their sister weights
  { name: 'notoserif', file: `${N}/NotoSerifCJK-Regular.ttc`, family: 'NotoSerifCJKsc-Regular' },
  { name: 'notoserifbold', file: `${N}/NotoSerifCJK-Bold.ttc`, family: 'NotoSerifCJKsc-Bold' },
  { name: 'notoserifmedium', file: `${N}/NotoSerifCJK-Medium.ttc`, family: 'NotoSerifCJKsc-Medium' },
  { name: 'notoseriflight', file: `${N}/NotoSerifCJK-Light.ttc`, family: 'NotoSerifCJKsc-Light' },
  { name: 'notosans', file: `${N}/NotoSansCJK-Regular.ttc`, family: 'NotoSansCJKsc-Regular' },
  { name: 'notosansbold', file: `${N}/NotoSansCJK-Bold.ttc`, family: 'NotoSansCJKsc-Bold' },
  { name: 'notosansmedium', file: `${N}/NotoSansCJK-Medium.ttc`, family: 'NotoSansCJKsc-Medium' },
  { name: 'notosansdemilight', file: `${N}/NotoSansCJK-DemiLight.ttc`, family: 'NotoSansCJKsc-DemiLight' },
  { name: 'gkai', file: `${T}/arphic-gkai00mp/gkai00mp.ttf` },
  // stop 38: the former stop-37 sealed faces train now (PROTOCOL font split), with the other installed Han faces
  { name: 'babelstone', file: `${T}/babelstone/BabelStoneHan.ttf` },
  { name: 'droid', file: `${T}/droid/DroidSansFallbackFull.ttf` },
  { name: 'cwming', file: `${T}/cwtex/cwming.ttf` },
  { name: 'cwheib', file: `${T}/cwtex/cwheib.ttf` },
  { name: 'cwkai', file: `${T}/cwtex/cwkai.ttf` },
  { name: 'cwfs', file: `${T}/cwtex/cwfs.ttf` },
  { name: 'ipamj', file: `${T}/ipamj/ipamjm.ttf` },
  { name: 'notoserifsemibold', file: `${N}/NotoSerifCJK-SemiBold.ttc`, family: 'NotoSerifCJKsc-SemiBold' },
  { name: 'notosanslight', file: `${N}/NotoSansCJK-Light.ttc`, family: 'NotoSansCJKsc-Light' },
];
export const LATIN_TRAIN: Face[] = [
  'liberation/LiberationSerif-Regular.ttf',
  'liberation/LiberationSerif-Bold.ttf',
  'liberation/LiberationSans-Regular.ttf',
  'liberation/LiberationSans-Bold.ttf',
  'liberation/LiberationSansNarrow-Regular.ttf',
  'liberation/LiberationMono-Regular.ttf',
  'dejavu/DejaVuSans.ttf',
  'dejavu/DejaVuSans-Bold.ttf',
  'dejavu/DejaVuSansCondensed.ttf',
  'dejavu/DejaVuSerif.ttf',
  'dejavu/DejaVuSansMono.ttf',
  'freefont/FreeSerif.ttf',
  'freefont/FreeSerifBold.ttf',
  'freefont/FreeSans.ttf',
  'freefont/FreeSansBold.ttf',
  'freefont/FreeMono.ttf',
  // stop 38: the former stop-37 sealed Latin faces (Word's Calibri / Times / Arial look-alikes)
  'crosextra/Carlito-Regular.ttf',
  'crosextra/Carlito-Bold.ttf',
  'noto/NotoSansMono-Regular.ttf',
].map((f) => ({ name: path.basename(f, '.ttf'), file: `${T}/${f}` })).concat(
  ['termes-regular', 'termes-bold', 'heros-regular', 'heros-bold', 'heroscn-regular', 'pagella-regular', 'bonum-regular', 'schola-regular', 'adventor-regular', 'cursor-regular'].map((f) => ({
    name: `texgyre${f}`,
    file: `/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyre${f}.otf`,
  })),
);
/** faces only the validation pages use */
export const HAN_VAL: Face[] = [
  { name: 'sungtil', file: `${T}/arphic-gbsn00lp/gbsn00lp.ttf` },
  { name: 'wenkailight', file: `${T}/lxgw-wenkai/LXGWWenKai-Light.ttf` },
];
export const LATIN_VAL: Face[] = [{ name: 'DejaVuSerifCondensed', file: `${T}/dejavu/DejaVuSerifCondensed.ttf` }];

