/**
 * Chinese smart-home vocabulary: actions and their synonyms, device types, room words.
 * Data, not logic, so the rule parser, the capability check and the lint share one source.
 */
import { CATEGORIES, kindOfCategory } from './vocab';

/** Canonical action -> phrases that express it (longest phrases are matched first). */
export const ACTIONS: Record<string, string[]> = {
  // 通电 / 断电 / 断开: a plug or relay said by its power (断开 is not 开)
  打开: ['打开', '开启', '开开', '开一下', '启动', '开起来', '点亮', '打亮', '弄亮', '拉开', '开了', '开下', '开机', '开始', '通电', '接通', '上电', '开'],
  关闭: ['关闭', '关掉', '关上', '关一下', '关了', '熄灭', '灭掉', '弄灭', '灭了', '熄掉', '熄了', '关下', '拉上', '合上', '停掉', '关机', '断开', '断电', '断掉', '切断', '关'],
  调亮度: ['调亮度', '亮度调', '调高亮度', '调低亮度'],
  调温度: ['调温度', '温度调', '升温', '降温', '调高温度', '调低温度', '温度设', '设置温度'],
  调风速: ['调风速', '风速调', '风量调'],
  设置模式: ['切换模式', '设置模式', '切到', '切换到', '切换成', '换成', '调成'],
  调音量: ['调音量', '音量调'],
  调位置: ['调开合度', '调位置'],
  调湿度: ['调湿度', '湿度调'],
  调色温: ['调色温', '色温调'],
  调颜色: ['调颜色', '颜色调', '变色'],
  播放: ['开始播放', '播放音乐', '播放', '放歌', '放音乐', '放首歌', '放点音乐', '放一首歌', '来首歌', '来一首', '来几首', '放', '播'],
  继续: ['继续播放', '恢复播放', '接着放', '接着播', '继续'],
  暂停: ['暂停播放', '暂停一下', '暂停', '停一下', '停一停'],
  停止: ['停止播放', '停止', '取消', '别放了', '停下来', '停下', '停住', '别动', '停'],
  下一首: ['转下一台', '转台', '下一个节目', '下一个台', '下个台', '下一期', '跳过这首歌', '跳过这首', '跳过', '切到下一首', '换一个台', '换个台', '换台', '换个频道', '换频道', '切台', '下一首', '下一曲', '下一个频道', '下个频道', '下一个', '下一集', '下一台', '切歌', '换一首', '换首歌', '换歌'],
  上一首: ['上一个节目', '上一个台', '上个台', '上一期', '上一首', '上一曲', '上一个频道', '上个频道', '上一集', '上一台'],
  切换信号源: ['切换信号源', '切换输入源', '切换信源', '换信号源', '切换输入'],
  取消静音: ['取消静音', '解除静音', '关闭静音', '关掉静音', '恢复声音', '打开声音', '开声音'],
  静音: ['设置为静音', '调成静音', '调为静音', '调到静音', '设为静音', '设成静音', '静音'],
  锁上: ['锁上', '上锁', '锁门', '反锁', '锁好', '锁住', '锁一下', '锁下'],
  解锁: ['解锁', '开锁'],
  // (a lawn mower's 割草 is its cleaning run: started and sent to its dock the same way)
  开始清扫: ['开始清扫', '开始打扫', '开始扫地', '开始拖地', '开始清洁', '开始吸尘', '开始割草', '割草', '扫一下地', '拖一下地', '把地扫', '把地拖', '扫扫地', '拖拖地', '扫一扫', '拖一拖', '扫地', '拖地', '打扫', '清扫', '吸尘', '扫一下'],
  回充: ['叫回来', '叫回去', '召回', '回来充电', '回去充电', '回到充电座', '回充电座', '回到充电桩', '回充电桩', '回到基站', '回基站', '回到基座', '回基座', '回到底座', '回座', '回桩', '回充', '去充电', '充电'],
  升起: ['升起来', '升上去', '升上来', '升起', '收起来', '拉起来', '拉上去', '卷起来', '拉起'],
  降下: ['降下来', '降下去', '放下来', '降下', '放下', '拉下来', '拉下去'],
  执行: ['执行', '运行', '激活', '进入', '来个', '来一个'],
  查询: ['查询', '查看', '看看', '看一下', '查一下', '是多少', '多少度', '读取', '检查'],
};

/** Another action whose command serves this one (继续 can use 播放; a curtain with only 打开 can open to a value). */
export const SERVED_BY: Record<string, string[]> = {
  // 打开故事机 plays it; 关闭音箱 stops it (players often have no power command)
  打开: ['播放'],
  关闭: ['停止', '暂停'],
  继续: ['播放'],
  播放: ['继续'],
  暂停: ['停止'],
  停止: ['暂停', '关闭'],
  静音: ['调音量'],
  取消静音: ['静音', '调音量'],
  调位置: ['打开'],
  开始清扫: ['打开'],
  回充: ['停止'],
  调风速: ['设置模式'],
  设置模式: ['调风速'],
  调颜色: ['调亮度'],
  调色温: ['调亮度'],
  // a blind or a drying rack: up is open, down is closed
  升起: ['打开'],
  降下: ['关闭'],
};

/** Settings a device either has or not: another command that serves them (brightness for a colour) is a last resort. */
export const EXACT_CAPABILITY = new Set(['调颜色', '调色温', '调湿度', '下一首', '上一首', '切换信号源']);

/** Pairs that must never match each other (seed 001: 打开 must never match 关闭设备). */
export const OPPOSITES: Record<string, string[]> = {
  打开: ['关闭', '锁上', '暂停', '停止'],
  关闭: ['打开', '解锁', '播放', '执行', '开始清扫'],
  锁上: ['解锁', '打开'],
  解锁: ['锁上', '关闭'],
  播放: ['暂停', '关闭', '停止'],
  继续: ['暂停', '停止'],
  暂停: ['播放', '打开', '继续'],
  停止: ['播放', '打开', '继续'],
  开始清扫: ['暂停', '停止', '关闭', '回充'],
  回充: ['开始清扫'],
  升起: ['降下'],
  降下: ['升起'],
};

/** Words in command descriptions/ids that express an action (Chinese substrings or English word patterns). */
export const DESCRIPTION_WORDS: Record<string, (string | RegExp)[]> = {
  打开: ['打开', '开启', '启动', '开灯', '开机', '拉开', '升起', '开始', /\b(?:turn|switch|power)[ _-]?on\b/, /\bopen\b/, /\bon\b/, /\bstart\b/],
  关闭: ['关闭', '关掉', '关机', '关灯', '拉上', '降下', '停止', /\b(?:turn|switch|power)[ _-]?off\b/, /\bclose\b/, /\boff\b/],
  // (a suction or fan level is a speed, not a light's level)
  调亮度: ['亮度', '调光', /\bbrightness\b/, /(?<!(?:suction|fan|speed|volume|water|mop) )\blevel\b/, /\bdim/],
  // "Set color temperature" is a light's colour, not a temperature
  调温度: ['温度', '制冷', '制热', '设定温度', '水温', /(?<!colou?r ?)temperature/, /thermostat/, /setpoint/],
  调风速: ['风速', '风量', '档位', '吸力', /fan.?(?:speed|mode)/, /\bspeed\b/, /percentage/, /suction/],
  设置模式: ['模式', /\bmode\b/, /preset/],
  调音量: ['音量', /\bvolume\b/],
  调位置: ['开合', '位置', '开度', /position/],
  调湿度: ['湿度', /humidity/],
  调色温: ['色温', /color.?temp/, /kelvin/],
  调颜色: ['颜色', '色彩', /\bcolou?r\b(?!.?temp)/, /\brgb\b/, /\bhue\b/],
  播放: ['播放', /\bplay\b/],
  继续: ['继续', /\bresume\b/, /\bunpause\b/],
  暂停: ['暂停', /\bpause\b/],
  停止: ['停止', '取消', /\bstop\b/, /\bcancel\b/],
  下一首: ['下一', /\bnext\b/],
  上一首: ['上一', /\bprev(?:ious)?\b/],
  静音: ['静音', /\bmute\b/],
  取消静音: ['取消静音', /\bunmute\b/],
  锁上: ['上锁', '锁上', '锁定', /\block\b/],
  解锁: ['解锁', '开锁', /\bunlock\b/],
  开始清扫: ['清扫', '打扫', '扫地', '拖地', '清洁', /\bclean/, /\bvacuum\b/],
  回充: ['回充', '充电', '回座', '基站', /\bdock\b/, /return/, /\bhome\b/],
  升起: ['升起', '上升', /\bup\b/, /\braise\b/],
  降下: ['降下', '下降', /\bdown\b/, /\blower\b/],
  执行: ['执行', '场景', '激活', /\bactivate\b/, /\bscene\b/, /\brun\b/],
  查询: ['读取', '查询', '获取', '测量', /\bread\b/, /\bget\b/, /\bquery\b/, /\bmeasure/],
};

/** Canonical type hint -> words naming it. Generic words first; subtypes in SUBTYPES. */
export const TYPES: Record<string, string[]> = {
  light: ['灯', '灯光', '电灯', '照明'],
  curtain: ['窗帘', '帘子'],
  airConditioner: ['空调', '冷气', '恒温器', '温控器'],
  fan: ['风扇', '电扇', '电风扇', '排气扇', '换气扇', '排风扇', '抽风机'],
  tv: ['电视', '电视机'],
  speaker: ['音箱', '音响', '喇叭', '播放器'],
  lock: ['门锁', '智能锁', '指纹锁', '锁'],
  switch: ['开关'],
  plug: ['插座', '插头'],
  humidifier: ['加湿器', '加湿机'],
  dehumidifier: ['除湿机', '除湿器'],
  airPurifier: ['净化器', '空气净化器'],
  robotVacuum: ['扫地机', '扫地机器人', '扫拖机器人', '扫拖一体机', '扫地机械人', '吸尘器', '扫拖机'],
  lawnMower: ['割草机', '除草机', '割草机器人'],
  waterHeater: ['热水器'],
  heater: ['暖气', '取暖器', '地暖'],
  washer: ['洗衣机'],
  dryer: ['烘干机'],
  refrigerator: ['冰箱'],
  dishwasher: ['洗碗机'],
  cooker: ['电饭煲', '电饭锅', '饭煲'],
  rangeHood: ['油烟机', '抽油烟机'],
  camera: ['摄像头', '监控'],
  garageDoor: ['车库门', '卷帘门', '卷闸门'],
  valve: ['阀门', '水阀', '总阀', '水龙头', '喷灌', '浇水', '洒水'],
  projector: [],
  freshAir: ['新风机', '新风系统', '新风'],
  temperatureSensor: ['温度传感器', '温度计', '温湿度计', '温湿度传感器'],
  humiditySensor: ['湿度传感器', '湿度计'],
  lightSensor: ['光照传感器', '光线传感器', '光感'],
  motionSensor: ['人体传感器', '人体感应器'],
  doorSensor: ['门磁', '门窗传感器'],
  window: ['窗户', '窗'],
  towelRack: ['毛巾架'],
  bathHeater: ['浴霸'],
  clothesRack: ['晾衣架', '晾衣机', '晒衣架', '升降衣架'],
  // a door said plainly: its lock, a garage door or a door sensor (resolved per home in the parser)
  door: ['大门', '房门', '家门', '门'],
};

/** What 门 can be in a home. */
/** Kinds that play media: what 暂停 / 下一首 / 音量 said to no device address. */
export const MEDIA_KINDS = ['speaker', 'tv', 'projector'];
export const DOOR_KINDS = ['lock', 'garageDoor', 'doorSensor'];

/** Words that name a specific kind of a type (台灯 is a light but sounds like one device). */
export const SUBTYPES: Record<string, string> = {
  台灯: 'light', 吊灯: 'light', 落地灯: 'light', 夜灯: 'light', 小夜灯: 'light', 床头灯: 'light',
  灯带: 'light', 筒灯: 'light', 射灯: 'light', 吸顶灯: 'light', 壁灯: 'light', 镜前灯: 'light',
  氛围灯: 'light', 主灯: 'light', 灯串: 'light', 阅读灯: 'light', 橱柜灯: 'light', 廊灯: 'light',
  纱帘: 'curtain', 布帘: 'curtain', 遮光帘: 'curtain', 卷帘: 'curtain', 百叶帘: 'curtain', 百叶窗: 'curtain', 遮阳帘: 'curtain', 罗马帘: 'curtain',
  吊扇: 'fan', 落地扇: 'fan', 台扇: 'fan', 塔扇: 'fan', 循环扇: 'fan', 壁扇: 'fan',
  柜机: 'airConditioner', 挂机: 'airConditioner', 中央空调: 'airConditioner',
  电视墙: 'tv', 投影仪: 'tv', 投影: 'tv', 幕布: 'curtain',
  智能音箱: 'speaker', 回音壁: 'speaker',
  // a valve said by what it waters (花园浇水阀, 花园喷灌)
  浇水: 'valve', 喷灌: 'valve', 总阀: 'valve', 洒水: 'valve',
  // a roll-up garage door (Taiwan 鐵捲門 reads 卷帘门): longer than the blind 卷帘 inside it, so it wins
  卷帘门: 'garageDoor', 卷闸门: 'garageDoor',
};

/** Words that are nothing but a type: a device named just 灯 is unfindable (lint). */
export const BARE_TYPE_WORDS = new Set<string>([
  ...Object.values(TYPES).flat(),
  '设备', '电器', '传感器', '机器',
]);

/** Type hints that are read-only sensors (conditions look for these). */
export const SENSOR_FOR: Record<string, string> = {
  temperature: 'temperatureSensor',
  humidity: 'humiditySensor',
  illuminance: 'lightSensor',
};

/** Room words people say; the home's own rooms are merged in at run time. */
export const ROOM_WORDS = [
  '客厅', '卧室', '主卧', '次卧', '主卧室', '次卧室', '儿童房', '书房', '厨房', '餐厅', '卫生间', '洗手间', '浴室',
  '阳台', '玄关', '走廊', '过道', '车库', '衣帽间', '客房', '老人房', '影音室', '地下室', '花园', '洗衣房',
  '储物间', '茶室', '门厅', '客餐厅', '起居室', '楼梯', '二楼', '一楼', '院子', '露台', '工作室', '健身房',
  '阁楼', '游戏室', '娱乐室', '小孩房', '孩子房', '宝宝房', '婴儿房', '父母房', '长辈房', '客卧', '大厅', '饭厅', '厨房间',
  '前院', '后院', '庭院', '门口', '保姆房', '三楼', '楼上', '楼下', '主卫', '次卫', '客卫', '公卫', '琴房', '画室', '酒窖',
  '卧房', '厕所', '泳池', '大门口', '家庭厅', '书屋', '会客厅', '办公室',
];

/** Room aliases: saying 卧室 covers 主卧/次卧 when a home splits them. */
export const ROOM_ALIASES: Record<string, string[]> = {
  卧室: ['主卧', '次卧', '主卧室', '次卧室', '卧房'],
  卫生间: ['洗手间', '厕所', '浴室', '卫浴', '公卫', '客卫'],
  // one room said four ways (a home names it one of them)
  洗手间: ['卫生间', '厕所', '浴室', '卫浴'],
  厕所: ['卫生间', '洗手间', '浴室', '卫浴'],
  浴室: ['卫生间', '洗手间', '厕所', '卫浴'],
  餐厅: ['饭厅', '客餐厅'],
  客厅: ['客餐厅', '起居室', '起居厅', '大厅', '会客厅', '家庭厅'],
  玄关: ['门厅', '门口', '大门口'],
  儿童房: ['小孩房', '孩子房', '宝宝房', '婴儿房', '儿童间'],
  老人房: ['父母房', '长辈房'],
  客房: ['客卧'],
  厨房: ['厨房间'],
  花园: ['院子', '庭院', '前院', '后院'],
  露台: ['阳台'],
  阳台: ['露台'],
  车库: ['车房'],
  主卫: ['主卫生间'],
  // an office is the study in a Chinese home, and the other way round
  书房: ['办公室', '工作室', '书屋'],
  办公室: ['书房', '工作室'],
};

/**
 * Rooms of one kind: 所有卧室 means every room people sleep in (主卧, 次卧, 儿童房…), while a plain
 * 卧室 covers only the rooms ROOM_ALIASES gives it and asks which when those are several.
 */
export const SIMILAR_ROOMS: Record<string, string[]> = {
  卧室: ['主卧', '次卧', '主卧室', '次卧室', '卧房', '儿童房', '小孩房', '孩子房', '老人房', '客房', '客卧'],
  卫生间: ['主卫', '次卫', '客卫', '公卫', '洗手间', '浴室'],
};

/** Type -> words used to infer a category from a device's name or type string. */
const TYPE_STRING_HINTS: [RegExp, string][] = [
  // HA exports list scenes and scripts as entities: they are run, like the home's scenes
  [/^(?:.*[:.])?(?:scene|script|automation|场景|脚本|自动化)$/i, 'scene'],
  [/temperature|thermometer|温度|温湿度/i, 'temperatureSensor'],
  [/humidity|湿度/i, 'humiditySensor'],
  [/illuminance|lux|光照|光线/i, 'lightSensor'],
  [/motion|occupancy|presence|人体/i, 'motionSensor'],
  [/contact|door.?sensor|门磁/i, 'doorSensor'],
  [/air.?cond|climate|hvac|thermostat|空调|冷气|恒温器|温控/i, 'airConditioner'],
  [/garage|车库门|卷帘门|卷闸门/i, 'garageDoor'],
  [/clothes.?(?:rack|hanger|airer)|晾衣|晒衣/i, 'clothesRack'],
  [/curtain|shade|blind|cover|窗帘|帘/i, 'curtain'],
  [/valve|阀|喷灌|sprinkler|irrigation/i, 'valve'],
  [/range.?hood|油烟/i, 'rangeHood'],
  [/cooker|电饭|饭煲/i, 'cooker'],
  [/fresh.?air|新风/i, 'freshAir'],
  [/vacuum|扫地|扫拖|吸尘/i, 'robotVacuum'],
  [/lawn.?mower|割草|除草/i, 'lawnMower'],
  [/purifier|净化/i, 'airPurifier'],
  [/dehumid|除湿/i, 'dehumidifier'],
  [/humidifier|加湿/i, 'humidifier'],
  [/lock|门锁|智能锁/i, 'lock'],
  [/light|lamp|bulb|灯/i, 'light'],
  [/fan|风扇|吊扇|排气扇|换气扇|排风扇|抽风机/i, 'fan'],
  [/speaker|音箱|音响|回音壁|soundbar|故事机|精灵|小爱|小度/i, 'speaker'],
  [/\btv\b|television|media_player|电视|投影/i, 'tv'],
  [/water.?heater|热水器/i, 'waterHeater'],
  [/bath.?heater|浴霸/i, 'bathHeater'],
  [/heater|暖气|地暖/i, 'heater'],
  [/washer|洗衣机/i, 'washer'],
  [/dryer|烘干/i, 'dryer'],
  [/fridge|refrigerator|冰箱/i, 'refrigerator'],
  [/dishwasher|洗碗/i, 'dishwasher'],
  [/camera|摄像/i, 'camera'],
  [/outlet|plug|插座/i, 'plug'],
  [/switch|开关/i, 'switch'],
];

/** Type strings that say little about what the device is (a relay, a player, a sensor): the name decides first. */
const GENERIC_TYPE = /^(?:.*[:.])?(?:switch|plug|outlet|socket|relay|media_player|sensor|binary_sensor|fan|humidifier|cover|device|other|appliance|开关|插座|设备|电器|传感器)$/i;

/** Category from the commands when type and name say nothing (set_cover_position -> curtain). */
const COMMAND_HINTS: [RegExp, string][] = [
  [/hvac|set_?temperature.*mode|制冷|制热/i, 'airConditioner'],
  [/cover|开合/i, 'curtain'],
  [/brightness|亮度|color.?temp|色温/i, 'light'],
  [/return_to_base|dock|回充|清扫/i, 'robotVacuum'],
  [/\bunlock\b|解锁|开锁/i, 'lock'],
  [/media|volume|音量|播放/i, 'speaker'],
];

/** A kind inside a broader one: a climate entity named 地暖 is a heater, a cover named 车库门 a garage door. */
const REFINES: Record<string, string[]> = { airConditioner: ['heater'], curtain: ['garageDoor', 'clothesRack', 'window'] };

export function inferCategory(type: string | undefined, name: string, commands: { id: string; description: string }[] = []): string {
  const byType = inferFromType(type, name, commands);
  for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(name)) return REFINES[byType]?.includes(cat) ? cat : byType;
  return byType;
}

function inferFromType(type: string | undefined, name: string, commands: { id: string; description: string }[]): string {
  const t = (type ?? '').trim();
  // a type written as an ecosystem's category (tuya:kt, HeaterCooler, homeassistant:climate) says the kind
  const listed = t && !GENERIC_TYPE.test(t) ? kindOfCategory(t) : null;
  if (listed && listed !== 'other') return listed;
  const byName = (): string | null => {
    // the longest subtype inside the name (车库卷帘门 is a garage door, not a 卷帘 blind)
    const sub = longestFirst(Object.keys(SUBTYPES)).find((w) => name.includes(w));
    if (sub) return SUBTYPES[sub];
    for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(name)) return cat;
    return null;
  };
  if (t && !GENERIC_TYPE.test(t)) for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(t)) return cat;
  const named = byName();
  if (named) return named;
  for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(t)) return cat;
  const text = commands.map((c) => `${c.id} ${c.description}`).join(' ');
  for (const [re, cat] of COMMAND_HINTS) if (re.test(text)) return cat;
  return 'other';
}

/** Kind -> Chinese label (the kinds of vocab/categories.json, plus the umbrella kinds a command may ask for). */
export const TYPE_LABELS: Record<string, string> = { ...CATEGORIES.kinds, media: '播放设备', climate: '空调/温控', mixed: '多种设备', group: '分组' };

/** Longest-first word list for a lexicon map, computed once. */
export function longestFirst(words: Iterable<string>): string[] {
  return [...new Set(words)].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** Room fields that mean "no room" (HA/SmartThings defaults): never a real room. */
export const UNKNOWN_ROOM = /未分配|未知|默认|unassigned|default|unknown|no room/i;
