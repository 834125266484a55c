import { normalizeText } from '../text/normalize';
import { toSimplified } from './traditional';

/**
 * One canonical form for utterances AND device/room names, so both sides of every match speak
 * the same words: traditional -> simplified (OpenCC), then the Cantonese and Taiwan words the
 * conversion leaves alone (閂/熄 = 关, 冷氣 = 空调, 主人房 = 主卧, 較/校/扭 = 调 …), then English
 * device words mixed into Chinese (TV, speaker, Roomba, AC).
 */

/** [pattern, replacement] applied in order to simplified, lower-cased text. */
const DIALECT: [RegExp, string][] = [
  // Cantonese aspect/particles first, so the verbs below see plain text
  [/唔该|唔該|麻烦晒|麻烦你/g, '请'],
  // 而家 = 现在; 廿/卅 = 二十/三十 (廿四度); 返屋企 = 回家, 返去 = 回去; 着咗 = 开了 (a lamp that is lit)
  [/而家|依家|宜家/g, '现在'],
  // 今日 / 听日 / 琴日 = 今天 / 明天 / 昨天; 落雨 = 下雨; 唔使 = 不用 (唔使喇: never mind)
  [/今日/g, '今天'],
  [/听日|听朝/g, '明天'],
  [/琴日|寻日|尋日/g, '昨天'],
  [/落(雨|雪)/g, '下$1'],
  [/唔使|唔驶|唔洗/g, '不用'],
  [/廿/g, '二十'],
  [/卅/g, '三十'],
  [/返屋企|翻屋企/g, '回家'],
  // 较返 / 开返 = adjust / switch back (返 says "again"), 较去廿六度 = 调到; 播返 = 播放
  [/(较|校|扭|调|开|熄|闩|关|锁)返(?=[个部盏把只]|[\u4e00-\u9fff])/g, '$1'],
  [/(播|放)返/g, '播放'],
  [/返(去|嚟|来)/g, '回$1'],
  [/嚟/g, '来'],
  // 喇 / 啦 closing a sentence are 了 (我返嚟喇 = 我回来了)
  [/喇(?=[，,。！!？?]*$)/g, '了'],
  // 先 closing a sentence (停咗首歌先 = stop the song first); 出门口 = 出门; 主人房嗰部 = the one in the master
  // bedroom (嗰 after a word is 的, leading it is 那); 落(咗) a curtain = lower it
  [/先(?=[，,。！!？?]*$)/g, ''],
  [/出门口/g, '出门'],
  // (OpenCC writes 嗰 as 𠮶)
  [/(?<=[\u4e00-\u9fff])(?:嗰|𠮶)(?:部|个|盏|只|把)?/g, '的'],
  [/嗰|𠮶/g, '那'],
  [/(帘|窗)落(?:咗|埋|晒)?/g, '$1降下'],
  // 焗 (stuffy) and 闷热 are hot; 有啲 = 有点; 最光 = 最亮; 瞓觉 = 睡觉
  [/焗(?!炉|饭|烤)/g, '热'],
  // 关水 / 把水关了: the water is its valve
  [/把水(?=关|开|打开|停)/g, '把水阀'],
  [/^(关|开|关掉|打开|关闭|停)水(?=[了吧啊呀]*$)/g, '$1水阀'],
  // 我要看电视 / 想听音乐: wanting to watch or listen switches it on
  [/(?:要|想)看(?=电视|投影)/g, '打开'],
  [/(?:要|想)听(?=音乐|歌|广播|故事|电台)/g, '播放'],
  // 好黑 / 黑乎乎: dark
  [/(好|太|很|有点|有些|真|超|特别)黑/g, '$1暗'],
  [/黑乎乎的?|黑漆漆的?|黑黢黢的?|黑咕隆咚的?/g, '好暗'],
  [/闷热/g, '热'],
  [/有啲/g, '有点'],
  [/最光/g, '最亮'],
  [/瞓(?:觉)?/g, '睡觉'],
  [/(?<![开关亮锁睡接跟看随沿顺])着(?:咗|了|住|紧)/g, '开了'],
  // 住 after a state verb is Cantonese 着 (开住 = 开着, 闩住 = 关着): 有冇灯开住, 厨房灯系咪开住
  [/(开|亮)住/g, '$1着'],
  [/(闩|熄|关)住/g, '关着'],
  [/(开|关|闩|熄|锁|拉|较|校|调|扭)(咗|埋|晒)/g, '$1$2'],
  // Cantonese function words: 边啲 = 哪些, 有冇 = 有没有, 喺…度 = 在…, 播紧 = 在播, 係 = 是, 唔 = 不, 光 = 亮
  [/边啲|边几/g, '哪些'],
  [/边(个|部|盏|把|只|架|度)/g, '哪$1'],
  [/有冇/g, '有没有'],
  [/冇/g, '没'],
  [/喺(.{1,6}?)度(?![\d零一二两三四五六七八九十百])/g, '在$1'],
  [/喺/g, '在'],
  [/(开|播|行|转|充|洗|煮|扫|响|着)紧/g, '在$1'],
  [/系唔系|是唔是/g, '是不是'],
  [/唔/g, '不'],
  [/乜嘢|咩/g, '什么'],
  [/点样/g, '怎么样'],
  // (Cantonese 较光 / 校光 only: Mandarin 调光 is dimming in general)
  [/(较|校|扭)光/g, '$1亮'],
  [/光啲/g, '亮啲'],
  [/收细声|收细/g, '调小声'],
  [/冚唪唥/g, '全部'],
  // 少少 = 一点, 开细 = 开小, 转去 = 切到, 睇 = 看
  [/少少/g, '一点'],
  [/(开|调|扭|较|校)细(?!声)/g, '$1小'],
  [/转去(?=下一|上一)/g, ''],
  // 切到上一首 / 跳到下一首: the step says it all; 静个音 / 锁个门 / 关个灯: a verb split by 个
  [/(?:切到|切换到|跳到|换到)(?=下一|上一)/g, ''],
  [/(上|下)一?个(?:故事|视频|电台|节目单)/g, '$1一首'],
  [/(静|锁|关|开)个(音|门|灯)/g, '$1$2'],
  [/转去/g, '切到'],
  [/睇/g, '看'],
  // 叉电 = 充电, 插苏 = 插座, 水掣 = 水阀, 掣 = 开关, 停低 = 停下
  [/叉电/g, '充电'],
  [/浇花/g, '浇水'],
  [/插苏/g, '插座'],
  [/水掣|水闸/g, '水阀'],
  [/总闸/g, '总阀'],
  [/掣/g, '开关'],
  [/停低/g, '停下'],
  [/(设定|设置|调|较|校)做/g, '$1为'],
  // a classifier between a room and a device (书房盏灯, 客厅部电视) says nothing
  [/(?<=[\u4e00-\u9fff])(?<![全局内外底顶几两一二三四五六七八九十百\d这那哪每呢嗰])(盏|部)(?![分件门位])(?=[\u4e00-\u9fff])/g, '的'],
  [/熄晒|闩晒|关晒/g, '关掉所有'],
  [/开晒/g, '打开所有'],
  [/(闩|熄)(咗|埋)?/g, '关掉'],
  [/拉埋/g, '拉上'],
  [/锁埋/g, '锁上'],
  [/开埋|开咗/g, '打开'],
  [/关埋|关咗/g, '关掉'],
  [/(大声|细声|小声|高|低|亮|暗|大|细|小|热|冻|凉|快|慢)啲/g, '$1一点'],
  [/啲/g, '的'],
  [/嘅/g, '的'],
  [/咗/g, '了'],
  [/开吓|开下/g, '开一下'],
  [/吓/g, '一下'],
  [/(?:佢|它)\s*$/g, ''],
  [/系咪|系唔系/g, '是不是'],
  [/几多度/g, '多少度'],
  [/几多/g, '多少'],
  [/扭大声|校大声|较大声/g, '调大声'],
  [/扭细声|校细声|较细声/g, '调小声'],
  [/扭大|校大|较大/g, '调大'],
  [/扭细|校细|较细|扭小/g, '调小'],
  [/较|校/g, '调'],
  [/细声/g, '小声'],
  [/转(大|小|亮|暗|高|低|强|弱)/g, '调$1'],
  [/开工/g, '开始清扫'],
  [/播歌/g, '播放音乐'],
  [/冻/g, '冷'],
  [/道门|度门/g, '门'],
  [/将/g, '把'],
  [/^叫/g, '让'],
  [/(打开|关掉|开|关|了|调|较|校)一?个(?=[\u4e00-\u9fff]{2})/g, '$1'],
  // 较去廿六度: 去 before a number is 到
  [/(调|较|校|扭)去(?=[\d零一二两三四五六七八九十])/g, '$1到'],
  // Taiwan usage
  [/关起来/g, '关上'],
  [/打开来|开起来/g, '打开'],
  [/瓦斯/g, '燃气'],
  [/电锅/g, '电饭锅'],
  [/投影机/g, '投影仪'],
  [/清净机/g, '净化器'],
  [/抽湿机/g, '除湿机'],
  [/抽油烟机/g, '油烟机'],
  [/热水炉/g, '热水器'],
  [/铁卷门/g, '卷帘门'],
  [/铁门/g, '门'],
  [/冷气机|冷气/g, '空调'],
  [/电灯|灯泡|灯胆/g, '灯'],
  // Taiwan / Hong Kong device words: 立灯 = 落地灯, 崁灯 = 筒灯, 投射灯 = 射灯, 智慧 = 智能, 枱灯 = 台灯,
  // 电暖器 = 取暖器, 干衣机 = 烘干机, 吸尘机 = 吸尘器, 电子锅 = 电饭锅, 雪柜 = 冰箱, 排油烟机 = 油烟机
  [/立灯/g, '落地灯'],
  [/崁灯|嵌灯/g, '筒灯'],
  [/投射灯/g, '射灯'],
  [/智慧/g, '智能'],
  [/枱灯|檯灯/g, '台灯'],
  [/电暖器|电暖气|暖气机/g, '取暖器'],
  [/干衣机|乾衣机/g, '烘干机'],
  [/吸尘机/g, '吸尘器'],
  [/电子锅/g, '电饭锅'],
  [/雪柜/g, '冰箱'],
  [/排油烟机/g, '油烟机'],
  // 50趴 (Taiwan slang for percent), 光度 (Cantonese for brightness)
  [/(\d+|[零一二两三四五六七八九十百]+)\s*趴/g, '$1%'],
  [/光度/g, '亮度'],
  [/设定/g, '设置'],
  // 摄氏22度: the unit said before the number (度 after it still says it)
  [/摄氏\s*(?=[\d零一二两三四五六七八九十])/g, ''],
  // rooms said differently
  [/主人房/g, '主卧'],
  [/睡房/g, '卧室'],
  [/车房/g, '车库'],
  [/(^|[^客餐饭大门展影音前后中])厅(?!室)/g, '$1客厅'],
];

/** English words people mix in (word-bounded, lower case). */
const ENGLISH: [RegExp, string][] = [
  // verbs and rooms first (Home Assistant names such as "Living Room Light" meet 客厅灯 this way)
  [/\b(?:turn|switch|power)\s*on\b/g, '打开'],
  [/\b(?:turn|switch|power)\s*off\b/g, '关闭'],
  // 儿童房light off: the verb said after the device
  [/\boff\s*$/g, '关闭'],
  [/\bon\s*$/g, '打开'],
  [/\b(?:the|my|our|please)\b/g, ' '],
  // 30 percent, next song on the Sonos
  [/\s*\bper\s*cent\b|\s*\bpercent\b/g, '%'],
  [/\bnext\s*(?:song|track)\b/g, '下一首'],
  [/\bprevious\s*(?:song|track)\b|\bprevious\b/g, '上一首'],
  [/\b(?:songs?|music)\b/g, '歌'],
  [/\b(?:on|in)\b/g, ' '],
  [/\ball\b/g, '所有'],
  [/\bmaster\s*bed\s*room\b/g, '主卧'],
  [/\b(?:guest\s*(?:bed)?room)\b/g, '客房'],
  [/\b(?:kids?|children'?s?|nursery)\s*(?:bed)?room\b|\bnursery\b/g, '儿童房'],
  [/\b(?:living\s*room|lounge|family\s*room)\b/g, '客厅'],
  [/\bdining\s*room\b/g, '餐厅'],
  [/\bbed\s*room\b/g, '卧室'],
  [/\bkitchen\b/g, '厨房'],
  [/\b(?:bath\s*room|restroom|toilet|washroom)\b/g, '卫生间'],
  [/\b(?:study|office)\b/g, '书房'],
  [/\bbalcony\b/g, '阳台'],
  [/\bgarage\b/g, '车库'],
  [/\b(?:hallway|entrance|entryway|foyer)\b/g, '玄关'],
  [/\bgarden\b/g, '花园'],
  [/\b(?:air ?conditioner|aircon|a\/c|ac)\b/g, '空调'],
  [/\b(?:tv|television)\b/g, '电视'],
  [/\bsoundbar\b/g, '回音壁'],
  [/\b(?:speakers?|homepod|echo)\b/g, '音箱'],
  [/\b(?:roomba|robot ?vacuum|vacuum)\b/g, '扫地机'],
  [/\brobot\b/g, '机器人'],
  [/\bprojector\b/g, '投影仪'],
  [/\b(?:curtains?|blinds?)\b/g, '窗帘'],
  [/\bdehumidifier\b/g, '除湿机'],
  [/\bhumidifier\b/g, '加湿器'],
  [/\bpurifier\b/g, '净化器'],
  [/\b(?:lights?|lamps?)\b/g, '灯'],
  [/\bled\s*(?=灯)/g, ''],
  [/\bfan\b/g, '风扇'],
  [/\block\b/g, '门锁'],
  [/\bplay\b/g, '播放'],
  [/\bpause\b/g, '暂停'],
  [/\bnext\b/g, '下一首'],
];

const cache = new Map<string, string>();

/** Canonical text for matching (utterances and names alike). Memoised. */
export function canonical(text: string): string {
  let v = cache.get(text);
  if (v !== undefined) return v;
  let s = toSimplified(normalizeText(text));
  for (const [re, to] of ENGLISH) s = s.replace(re, to);
  for (const [re, to] of DIALECT) s = s.replace(re, to);
  v = s;
  if (cache.size > 50_000) cache.clear();
  cache.set(text, v);
  return v;
}
