/**
 * Chinese smart-home vocabulary: actions and their synonyms, device types, room words.
 * Data, not logic, so the rule parser, the capability check and the lint share one source.
 */

/** Canonical action -> phrases that express it (longest phrases are matched first). */
export const ACTIONS: Record<string, string[]> = {
  打开: ['打开', '开启', '开开', '开一下', '启动', '开起来', '点亮', '拉开', '开了', '开下', '开'],
  关闭: ['关闭', '关掉', '关上', '关一下', '关了', '熄灭', '关下', '拉上', '合上', '停掉', '关'],
  调亮度: ['调亮度', '亮度调', '调亮', '调暗', '调高亮度', '调低亮度', '亮一点', '暗一点'],
  调温度: ['调温度', '温度调', '升温', '降温', '调高温度', '调低温度', '温度设', '设置温度'],
  调风速: ['调风速', '风速调', '风量调'],
  设置模式: ['切换模式', '设置模式', '调成', '切到', '切换到', '换成'],
  调音量: ['调音量', '音量调', '大声', '小声', '调大声', '调小声'],
  播放: ['播放', '放歌', '放音乐', '继续播放'],
  暂停: ['暂停', '停一下'],
  锁上: ['锁上', '上锁', '锁门', '反锁'],
  解锁: ['解锁', '开锁'],
  执行: ['执行', '运行', '激活', '进入'],
  查询: ['查询', '查看', '看看', '看一下', '是多少', '多少度', '读取', '检查'],
};

/** Pairs that must never match each other (seed 001: 打开 must never match 关闭设备). */
export const OPPOSITES: Record<string, string[]> = {
  打开: ['关闭', '锁上', '暂停'],
  关闭: ['打开', '解锁', '播放', '执行'],
  锁上: ['解锁', '打开'],
  解锁: ['锁上', '关闭'],
  播放: ['暂停', '关闭'],
  暂停: ['播放', '打开'],
};

/** Words in command descriptions that express an action (for description -> action). */
export const DESCRIPTION_WORDS: Record<string, string[]> = {
  打开: ['打开', '开启', '启动', '开灯', '开机', '拉开', '升起'],
  关闭: ['关闭', '关掉', '关机', '关灯', '拉上', '降下', '停止'],
  调亮度: ['亮度', '调光'],
  调温度: ['温度', '制冷', '制热', '设定温度'],
  调风速: ['风速', '风量'],
  设置模式: ['模式'],
  调音量: ['音量'],
  播放: ['播放'],
  暂停: ['暂停'],
  锁上: ['上锁', '锁上', '锁定'],
  解锁: ['解锁', '开锁'],
  执行: ['执行', '场景', '激活'],
  查询: ['读取', '查询', '获取', '测量'],
};

/** Canonical type hint -> words naming it. Generic words first; subtypes in SUBTYPES. */
export const TYPES: Record<string, string[]> = {
  light: ['灯', '灯光', '电灯', '照明'],
  curtain: ['窗帘', '帘子'],
  airConditioner: ['空调', '冷气'],
  fan: ['风扇', '电扇', '电风扇'],
  tv: ['电视', '电视机'],
  speaker: ['音箱', '音响', '喇叭'],
  lock: ['门锁', '智能锁', '锁'],
  switch: ['开关'],
  plug: ['插座', '插头'],
  humidifier: ['加湿器'],
  dehumidifier: ['除湿机', '除湿器'],
  airPurifier: ['净化器', '空气净化器'],
  robotVacuum: ['扫地机', '扫地机器人', '扫拖机器人'],
  waterHeater: ['热水器'],
  heater: ['暖气', '取暖器', '地暖'],
  washer: ['洗衣机'],
  dryer: ['烘干机'],
  refrigerator: ['冰箱'],
  dishwasher: ['洗碗机'],
  cooker: ['电饭煲', '电饭锅'],
  rangeHood: ['油烟机', '抽油烟机'],
  camera: ['摄像头', '监控'],
  temperatureSensor: ['温度传感器', '温度计', '温湿度计'],
  humiditySensor: ['湿度传感器', '湿度计'],
  lightSensor: ['光照传感器', '光线传感器', '光感'],
  motionSensor: ['人体传感器', '人体感应器'],
  doorSensor: ['门磁', '门窗传感器'],
  window: ['窗户', '窗'],
  towelRack: ['毛巾架'],
  bathHeater: ['浴霸'],
};

/** Words that name a specific kind of a type (台灯 is a light but sounds like one device). */
export const SUBTYPES: Record<string, string> = {
  台灯: 'light', 吊灯: 'light', 落地灯: 'light', 夜灯: 'light', 小夜灯: 'light', 床头灯: 'light',
  灯带: 'light', 筒灯: 'light', 射灯: 'light', 吸顶灯: 'light', 壁灯: 'light', 镜前灯: 'light',
  氛围灯: 'light', 主灯: 'light', 灯串: 'light', 阅读灯: 'light', 橱柜灯: 'light', 廊灯: 'light',
  纱帘: 'curtain', 布帘: 'curtain', 遮光帘: 'curtain', 卷帘: 'curtain', 百叶帘: 'curtain',
  吊扇: 'fan', 落地扇: 'fan', 台扇: 'fan', 塔扇: 'fan',
  柜机: 'airConditioner', 挂机: 'airConditioner', 中央空调: 'airConditioner',
  电视墙: 'tv', 投影仪: 'tv', 投影: 'tv',
  智能音箱: 'speaker', 回音壁: 'speaker',
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
];

/** Room aliases: saying 卧室 covers 主卧/次卧 when a home splits them. */
export const ROOM_ALIASES: Record<string, string[]> = {
  卧室: ['主卧', '次卧', '主卧室', '次卧室', '卧房'],
  卫生间: ['洗手间', '厕所', '浴室'],
  洗手间: ['卫生间', '厕所'],
  餐厅: ['饭厅', '客餐厅'],
  客厅: ['客餐厅', '起居室', '起居厅'],
  玄关: ['门厅'],
};

/** Type -> words used to infer a category from a device's name or type string. */
const TYPE_STRING_HINTS: [RegExp, string][] = [
  [/temperature|thermometer|温度/i, 'temperatureSensor'],
  [/humidity|湿度/i, 'humiditySensor'],
  [/illuminance|lux|光照|光线/i, 'lightSensor'],
  [/motion|occupancy|presence|人体/i, 'motionSensor'],
  [/contact|door.?sensor|门磁/i, 'doorSensor'],
  [/air.?cond|climate|hvac|thermostat|空调/i, 'airConditioner'],
  [/curtain|shade|blind|cover|窗帘/i, 'curtain'],
  [/vacuum|扫地/i, 'robotVacuum'],
  [/purifier|净化/i, 'airPurifier'],
  [/dehumid|除湿/i, 'dehumidifier'],
  [/humidifier|加湿/i, 'humidifier'],
  [/lock|门锁|智能锁/i, 'lock'],
  [/light|lamp|bulb|灯/i, 'light'],
  [/fan|风扇|吊扇/i, 'fan'],
  [/\btv\b|television|media_player|电视|投影/i, 'tv'],
  [/speaker|音箱|音响/i, 'speaker'],
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

export function inferCategory(type: string, name: string): string {
  for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(type)) return cat;
  // type strings like smartthings:device-type say nothing: fall back to the name
  for (const [sub, cat] of Object.entries(SUBTYPES)) if (name.includes(sub)) return cat;
  for (const [re, cat] of TYPE_STRING_HINTS) if (re.test(name)) return cat;
  return 'other';
}

export const TYPE_LABELS: Record<string, string> = {
  light: '灯', curtain: '窗帘', airConditioner: '空调', fan: '风扇', tv: '电视', speaker: '音箱', lock: '门锁',
  switch: '开关', plug: '插座', humidifier: '加湿器', dehumidifier: '除湿机', airPurifier: '空气净化器',
  robotVacuum: '扫地机', waterHeater: '热水器', heater: '暖气', washer: '洗衣机', dryer: '烘干机',
  refrigerator: '冰箱', dishwasher: '洗碗机', cooker: '电饭煲', rangeHood: '油烟机', camera: '摄像头',
  temperatureSensor: '温度传感器', humiditySensor: '湿度传感器', lightSensor: '光照传感器',
  motionSensor: '人体传感器', doorSensor: '门磁', window: '窗户', towelRack: '毛巾架', bathHeater: '浴霸',
};

/** Longest-first word list for a lexicon map, computed once. */
export function longestFirst(words: Iterable<string>): string[] {
  return [...new Set(words)].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** Room fields that mean "no room" (HA/SmartThings defaults): never a real room. */
export const UNKNOWN_ROOM = /未分配|未知|默认|unassigned|default|unknown|no room/i;
