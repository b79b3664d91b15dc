import { isHan, searchTerms } from './search-text';

/**
 * Words that mean the same thing to a tool search, across English and Chinese. Users speak
 * Chinese to xiaozhi while many MCP servers describe their tools in English (and the other way
 * round), and people say "remember" where a server says "memory": a query that uses one word of a
 * group also looks, with less weight, for the others. After ` > `, what the group is a kind of
 * (rain is weather): looked for with less weight again, and never a reason to use the group.
 * General concepts of what people ask a voice assistant for, not tuned to any one server.
 */
const GROUPS = [
  // weather
  'weather|forecast|天气|预报|天气预报',
  'outside|outdoors|outdoor|外面|室外|户外|出门 > weather|天气',
  'now|current|currently|real-time|现在|当前|实时|目前|此刻',
  'rain|snow|precipitation|umbrella|下雨|降雨|降水|下雪|带伞 > weather|天气',
  'wind|windy|humidity|风大|刮风|风力|大风|湿度|潮湿 > weather|天气',
  'temperature|degrees|温度|气温|多少度|冷不冷|热不热 > weather|天气',
  'air quality|aqi|pollution|smog|haze|空气|空气质量|雾霾|污染',
  'warning|alert|typhoon|storm|预警|警报|台风|暴雨',
  'sunrise|sunset|日出|日落',
  // travel
  'train|railway|rail|火车|列车|高铁|动车|车次|12306',
  'ticket|tickets|票|车票|余票|火车票|门票',
  'flight|plane|airline|airport|航班|机票|飞机|机场',
  'drive|driving|car|开车|驾车|自驾',
  'route|directions|navigate|navigation|路线|导航|怎么走|怎么去|路径|规划',
  'walk|walking|步行|走路',
  'bike|bicycle|cycling|骑行|骑车|自行车',
  'bus|subway|metro|transit|公交|地铁',
  'taxi|cab|打车|出租车|叫车|网约车',
  'nearby|near|around|附近|周边|周围|旁边',
  'restaurant|food|eat|dinner|lunch|餐厅|饭店|好吃|美食|吃饭|餐馆',
  'hotel|酒店|宾馆|住宿',
  'distance|how far|距离|多远',
  // memory, notes, reminders, calendar, mail, tasks
  'remember|memory|memorize|forget|记住|记得|记下|记忆|别忘|忘记',
  'remind|reminder|reminders|提醒|提醒我|叫我记得',
  'calendar|schedule|event|events|meeting|appointment|agenda|日程|安排|日历|会议|开会|行程|约会',
  'email|mail|inbox|邮件|邮箱|电子邮件',
  'send|发送|发一封|发给|发条|发个|发一条',
  'message|messages|sms|text message|texting|消息|短信|留言|私信|发消息',
  'wechat|weixin|微信',
  'contact|contacts|address book|phone number|联系人|通讯录|电话号码',
  'note|notes|notebook|memo|memos|笔记|便签|记事本|备忘|备忘录|记一下',
  'task|tasks|todo|to-do|待办|任务|待办事项',
  // Not "shopping list": its "list" would find every tool that lists something.
  'shopping|grocery|groceries|buy|购物|购物清单|要买|买点|买些',
  'birthday|anniversary|生日|纪念日',
  // music and media
  'music|song|songs|track|tune|音乐|歌|歌曲|听歌|曲子',
  'play|播放|放一首|来一首|放首',
  'pause|暂停|停一下',
  'resume|continue|unpause|继续播放|继续',
  'next|skip|下一首|下一曲|切歌|换一首',
  'previous|上一首|上一曲',
  'volume|louder|quieter|音量|声音|大声|小声|大点声|小点声',
  'mute|unmute|silence|静音|取消静音',
  'radio|fm|station|podcast|电台|广播|收音机|播客',
  'playlist|歌单',
  'jazz|classical|genre|爵士|古典|轻音乐|风格',
  'relax|relaxing|calm|soothing|放松|轻松|舒缓',
  'lyrics|歌词',
  'singer|artist|歌手|艺人',
  'movie|film|cinema|电影|影院',
  'tv|television|电视|电视机',
  // smart home
  'light|lights|lamp|灯|灯光|台灯|电灯',
  'turn on|switch on|开灯|打开|开启|开一下',
  'turn off|switch off|关掉|关闭|关上|关一下|关灯|灯关',
  'curtain|curtains|blind|blinds|cover|shade|窗帘|百叶窗|卷帘',
  'air conditioner|thermostat|climate|heater|hvac|空调|暖气|地暖|温控',
  'fan|风扇|电扇',
  'vacuum|robot vacuum|扫地机|扫地|吸尘器|拖地',
  // locking and unlocking are opposite things done to the same door lock
  'door lock|smart lock|门锁|智能锁',
  'lock|锁门|上锁|锁上',
  'unlock|开锁|解锁',
  'timer|countdown|计时|计时器|倒计时|定时',
  // Waking someone is what an alarm is for: "叫我起床" names no alarm, and "wake me" no clock.
  'alarm|alarms|alarm clock|wake|wake up|wake me|闹钟|闹铃|叫醒|起床|叫我起来',
  'brightness|亮度|调亮|调暗',
  'living room|bedroom|kitchen|客厅|卧室|厨房|书房',
  // information
  'news|headline|headlines|新闻|头条|资讯|要闻',
  'trending|hot|热搜|热榜|热点|热门',
  'stock|stocks|share price|quote|market|股票|股价|行情|股市|涨跌',
  'currency|exchange rate|dollar|dollars|yuan|rmb|euro|yen|汇率|美元|人民币|欧元|日元|兑换',
  'package|parcel|delivery|shipment|tracking|courier|express|快递|包裹|物流|单号|到哪了',
  'translate|translation|翻译|英文|英语|日语|日文|中文|韩语',
  'time|clock|timezone|时间|几点|时区|钟点',
  'date|日期|几号|星期几',
  'calculate|calculator|math|arithmetic|compute|sum|multiply|multiplied|divided|plus|minus|计算|算一下|求和|相加|乘以|除以|加上|减去',
  'convert|conversion|unit|换算|转换|单位',
  'holiday|vacation|放假|假期|节假日',
  'lunar|农历|阴历',
  'joke|funny|笑话|段子|搞笑',
  'story|bedtime|故事|睡前',
  'poem|poetry|诗|古诗|诗词',
  'recipe|cook|cooking|dish|菜谱|做法|怎么做|食谱',
  'web|internet|online|website|网上|上网|网页|网址|网站',
  'image|picture|photo|jpg|jpeg|png|图片|照片',
  'camera|take a photo|take a picture|snapshot|拍照|拍张|拍一张|相机|摄像头',
  'text|txt|plain text|文本|文字',
  'price|cost|how much|价格|多少钱|价钱',
  // files and code
  'file|files|document|文件|文档',
  'folder|directory|desktop|documents|文件夹|目录|桌面',
  'read|view|读|读一下|看一下|内容',
  'write|save|写入|保存',
  'github|repository|repo|仓库|代码库',
  'issue|issues|bug|问题|缺陷',
  'pull request|pr|合并请求',
  'open|unresolved|没处理|未处理|未解决|待处理',
  // what the user wants done
  'search|find|look up|lookup|query|搜索|查找|找|查|查询|搜',
  'list|show|display|有哪些|哪些|列出|所有',
  'create|add|new|创建|新建|添加|加到|加入|增加',
  'delete|remove|forget|erase|trash|wipe|purge|删除|删掉|删了|去掉|移除|忘掉|清除|清空|清掉|擦除',
  'cancel|call off|取消|撤销|不去了',
  'set|adjust|change|调到|调成|设置|设为|调节|改成',
].map(parseGroup);

interface Group {
  /** Chinese members, matched anywhere in the query. */
  han: string[];
  /** English members as terms; a member matches when all its terms are in the query. */
  english: string[][];
  /** The terms the group adds. */
  terms: string[];
  /** The terms of what the group is a kind of. */
  broader: string[];
}

function parseGroup(line: string): Group {
  const [own = '', kindOf = ''] = line.split(' > ');
  const members = own.split('|');
  const han = members.filter(isHan);
  const english = members
    .filter((m) => !isHan(m))
    .map(searchTerms)
    .filter((t) => t.length > 0);
  const terms = [...new Set(members.flatMap(searchTerms))];
  const broader = [...new Set(kindOf.split('|').flatMap(searchTerms))];
  return { han, english, terms, broader };
}

/** Every term of the groups that have `word` as a member (its other words, in both languages). */
export function groupTerms(word: string): string[] {
  const own = searchTerms(word);
  const groups = GROUPS.filter((g) => (isHan(word) ? g.han.includes(word) : g.english.some((t) => t.join(' ') === own.join(' '))));
  return [...new Set(groups.flatMap((g) => g.terms))];
}

/**
 * Numbers with an operator between them ("17 plus 25", "17加25", "128 + 256"), or adding that is about
 * numbers ("add two numbers", "add these up"), ask for arithmetic; "add" alone means storing something.
 */
const NUMBER = '(?:[0-9]+(?:\\.[0-9]+)?|[零一二两三四五六七八九十百千万]+)';
const ARITHMETIC = new RegExp(
  `${NUMBER}\\s*(?:[+*×÷^]|\\s[-/]\\s|加上?|减去?|乘以?|除以|\\b(?:plus|minus|times|multiplied by|divided by)\\b)\\s*${NUMBER}|\\badd(?:ing)?\\s+(?:\\S+\\s+){0,3}(?:numbers?|digits|figures|up|together)\\b`,
  'i',
);
const CALCULATE = GROUPS.find((g) => g.terms.includes('calcul')) as Group;

/**
 * A question asks for something to be looked up: tools that search, list or read answer it. A yes/no
 * question is one that starts with its verb ("did anyone…", "is the door…", "do you remember…").
 */
const QUESTION =
  /\b(what|which|who|whose|where|when|how|is there|are there|do i have|any)\b|^\s*(?:did|do|does|is|are|was|were|has|have|had)\s+(?:i|you|we|they|he|she|it|there|anyone|anybody|someone|somebody|the|my)\b|什么|哪|吗|多少|几|谁|有没有|是否/i;
const LOOK_UP = ['search', 'find', 'list', 'read', 'open', 'query', '查询', '查看', '获取'].flatMap(searchTerms);
/** A statement or request that is not a question usually wants something stored, added or set. */
const STORE = ['create', 'add', 'save', 'set', '添加', '创建', '保存', '设置'].flatMap(searchTerms);

/** A word right after a "don't" or "never". */
const NEGATED_ENGLISH = /\b(?:don['’]?t|do not|never)\s+([a-z]+)/gi;
/** Chinese that says "don't" right before a word: 别忘掉 is no 忘掉 (要不要带伞 asks, it does not forbid). */
const NEGATING_HAN = /(?:别|(?<!要)不要|(?<!用)不用|不必|甭)$/;

/** Whether the query says this Chinese word somewhere other than right after a "don't". */
function saysHan(query: string, word: string): boolean {
  for (let at = query.indexOf(word); at >= 0; at = query.indexOf(word, at + 1)) {
    if (!NEGATING_HAN.test(query.slice(Math.max(0, at - 3), at))) return true;
  }
  return false;
}

export interface Expansion {
  /** Terms for the same things the query names, in other words or the other language. */
  related: string[];
  /** Terms for what those things are a kind of. */
  broader: string[];
  /** Terms for what a question wants done (look something up). */
  intent: string[];
  /** Whether the query asks something (its intent is to look up) rather than says to do something. */
  question: boolean;
}

/** The terms the query's words stand for in other words, not counting terms it already has. */
export function expandQuery(query: string, queryTerms: readonly string[]): Expansion {
  const have = new Set(queryTerms);
  // "Don't forget to buy milk" asks for no forgetting (nor deleting): a word said only after a "don't" stands for nothing.
  const saying = new Set(queryTerms);
  for (const [, word] of query.matchAll(NEGATED_ENGLISH)) for (const term of searchTerms(word as string)) saying.delete(term);
  const added = new Set<string>();
  const kinds = new Set<string>();
  for (const group of GROUPS) {
    const hit =
      group.han.some((word) => saysHan(query, word)) ||
      group.english.some((terms) => terms.every((t) => saying.has(t))) ||
      (group === CALCULATE && ARITHMETIC.test(query));
    if (!hit) continue;
    for (const term of group.terms) if (!have.has(term)) added.add(term);
    for (const term of group.broader) kinds.add(term);
  }
  const broader = [...kinds].filter((t) => !have.has(t) && !added.has(t));
  const question = QUESTION.test(query);
  const intent = (question ? LOOK_UP : STORE).filter((t) => !have.has(t) && !added.has(t) && !kinds.has(t));
  return { related: [...added], broader, intent, question };
}
