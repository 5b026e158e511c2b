// Dates and URLs for the oracle, from docs/PLUGIN-LANGUAGE.md §5 (Dates, URLs) and its notes.
//
// Dates are instants in epoch milliseconds; Beijing is UTC+8 all year (no daylight saving), so a Beijing
// wall-clock reading is the UTC reading of `ms + 8 h`. Results are ISO text in +08:00. URLs are
// JavaScript's own WHATWG `URL` and `encodeURIComponent`: that is what a plugin author knows.

import { blank, entriesOf, isNum, isObj, isText, K, need, Refuse, sig } from './values.mjs';

const HOUR = 3600000;
const DAY = 24 * HOUR;
const BEIJING = 8 * HOUR;

/** The run's `now`, set by the oracle from each case's context (the language binds it for every run). */
export const clock = { now: '2026-11-30T17:05:00+08:00' };

const pad = (n, w = 2) => String(n).padStart(w, '0');
const bad = (x) => new Refuse('bad-arg', `cannot read ${JSON.stringify(x)} as a date`);

/** Epoch ms of a Beijing wall-clock reading; out-of-range fields (Feb 30, 24:00) are refused. */
function beijing(y, mo, d, h = 0, mi = 0, s = 0, ms = 0, offsetMs = BEIJING) {
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const back = new Date(t);
  const fits =
    back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d &&
    h < 24 && mi < 60 && s < 60;
  if (!fits || y < 100) throw bad(`${y}-${mo}-${d} ${h}:${mi}:${s}`);
  return t - offsetMs;
}

const nowParts = () => clock.now.slice(0, 10).split('-').map(Number);

const FORMS = [
  // ISO, or 'YYYY-M-D[ H:mm[:ss]]': one-digit months, days and hours allowed; a fraction kept to the
  // millisecond; with Z or an offset (spaces before it allowed), else Beijing time
  [
    /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?[ \t\n\r\f\v]*(Z|[+-]\d{2}:?\d{2})?$/,
    (m) => {
      const off = !m[8] ? BEIJING : m[8] === 'Z' ? 0 : offset(m[8]);
      const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
      return beijing(+m[1], +m[2], +m[3], +(m[4] || 0), +(m[5] || 0), +(m[6] || 0), ms, off);
    },
  ],
  [
    /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:[ \t\n\r\f\v]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/,
    (m) => beijing(+m[1], +m[2], +m[3], +(m[4] || 0), +(m[5] || 0), +(m[6] || 0)),
  ],
  [
    /^(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号](?:[ \t\n\r\f\v]*(\d{1,2})[:：](\d{2}))?$/,
    (m) => beijing(m[1] ? +m[1] : nowParts()[0], +m[2], +m[3], +(m[4] || 0), +(m[5] || 0)),
  ],
  [/^(\d{1,2}):(\d{2})(?::(\d{2}))?$/, (m) => beijing(...nowParts(), +m[1], +m[2], +(m[3] || 0))],
];

function offset(text) {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  need(Number(m[2]) <= 23 && Number(m[3]) <= 59, 'bad-arg', `the offset ${text} is past ±23:59`); // Invalid Date
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * HOUR + Number(m[3]) * 60000);
}

/** The instant a date argument stands for: epoch ms, or text in one of the documented forms. */
export function instant(x) {
  sig(isText(x) || isNum(x), 'a date is text or epoch milliseconds');
  if (isNum(x)) {
    const t = new Date(x).getTime(); // JavaScript's TimeClip: whole milliseconds, ±8.64e15
    if (Number.isNaN(t)) throw bad(x);
    return t;
  }
  for (const [re, read] of FORMS) {
    const m = re.exec(x.trim());
    if (m) return read(m);
  }
  throw bad(x);
}

/** ISO text in Beijing time, milliseconds shown only when there are some. */
export function iso(t) {
  const d = new Date(t + BEIJING);
  const ms = d.getUTCMilliseconds() ? `.${pad(d.getUTCMilliseconds(), 3)}` : '';
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${ms}+08:00`
  );
}

const WEEK_LONG = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];
const WEEK_SHORT = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
const TOKENS = /\[[^\]]*\]|YYYY|dddd|ddd|MM|M|DD|D|HH|H|mm|ss/g;

function formatDate(x, fmt) {
  const d = new Date(instant(x) + BEIJING);
  const field = {
    YYYY: pad(d.getUTCFullYear(), 4),
    MM: pad(d.getUTCMonth() + 1),
    M: String(d.getUTCMonth() + 1),
    DD: pad(d.getUTCDate()),
    D: String(d.getUTCDate()),
    HH: pad(d.getUTCHours()),
    H: String(d.getUTCHours()),
    mm: pad(d.getUTCMinutes()),
    ss: pad(d.getUTCSeconds()),
    dddd: WEEK_LONG[d.getUTCDay()],
    ddd: WEEK_SHORT[d.getUTCDay()],
  };
  return fmt.replace(TOKENS, (t) => (t.startsWith('[') ? t.slice(1, -1) : field[t]));
}

/** `date(text, fmt)`: the text read by the format's tokens (missing date parts from `now`, as dayjs). */
function readByFormat(text, fmt) {
  sig(isText(text), 'date(text, fmt) reads text');
  const order = [];
  const width = { YYYY: '(\\d{4})', MM: '(\\d{2})', M: '(\\d{1,2})', DD: '(\\d{2})', D: '(\\d{1,2})' };
  Object.assign(width, { HH: '(\\d{2})', H: '(\\d{1,2})', mm: '(\\d{2})', ss: '(\\d{2})' });
  let re = '';
  let last = 0;
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const m of fmt.matchAll(TOKENS)) {
    re += esc(fmt.slice(last, m.index));
    if (m[0].startsWith('[')) re += esc(m[0].slice(1, -1));
    else if (width[m[0]]) {
      re += width[m[0]];
      order.push(m[0][0]);
    } else re += esc(m[0]);
    last = m.index + m[0].length;
  }
  re += esc(fmt.slice(last));
  // letters that are tokens of formatDate or of other libraries but cannot be read: an error naming them
  for (const p of fmt.matchAll(/\[[^\]]*\]|([A-Za-z])\1*|[^]/g)) {
    const unread = /^(?:Y{1,3}|Y{5,}|M{3,}|D{3,}|H{3,}|m{3,}|s{3,}|d{3,4}|h+|A|S+)$/.test(p[0]);
    need(!unread, 'bad-arg', `the format token '${p[0]}' cannot be read`);
  }
  const m = new RegExp(`^${re}$`).exec(text);
  if (!m) throw bad(text);
  const got = { H: 0, m: 0, s: 0 };
  order.forEach((k, i) => {
    got[k] = Number(m[i + 1]);
  });
  // as dayjs: date parts above the largest one given from now, below it the first
  const [y, mo, d] = nowParts();
  const year = got.Y ?? y;
  const month = got.M ?? (got.Y !== undefined ? 1 : mo);
  const day = got.D ?? (got.Y !== undefined || got.M !== undefined ? 1 : d);
  return beijing(year, month, day, got.H, got.m, got.s);
}

const dayIndex = (t) => Math.floor((t + BEIJING) / DAY);
const plus = (unit) => [
  'D,N',
  (d, n) => {
    const t = instant(d) + n * unit;
    need(Math.abs(t) <= 8.64e15, 'bad-arg', 'the date is out of range');
    return iso(t);
  },
];

export const DATES = {
  date: ['D,T?', (x, fmt) => iso(fmt === undefined || fmt === null ? instant(x) : readByFormat(x, fmt))],
  today: ['', () => clock.now.slice(0, 10)],
  formatDate: ['D,T', formatDate],
  addDays: plus(DAY),
  addHours: plus(HOUR),
  addMinutes: plus(60000),
  diffMinutes: ['D,D', (a, b) => (instant(a) - instant(b)) / 60000],
  diffDays: ['D,D', (a, b) => dayIndex(instant(a)) - dayIndex(instant(b))],
  weekday: ['D', (d) => ((((dayIndex(instant(d)) + 3) % 7) + 7) % 7) + 1],
  startOfDay: ['D', (d) => iso(dayIndex(instant(d)) * DAY - BEIJING)],
};

/** `query(obj)`: key=value pairs, encodeURIComponent on both; null left out, lists repeat the key. */
function query(obj) {
  const parts = [];
  const add = (k, v) => {
    if (v === null) return;
    sig(!Array.isArray(v) && !isObj(v), 'query() values are texts, numbers, booleans or lists of them');
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  };
  for (const [k, v] of entriesOf(obj)) {
    if (Array.isArray(v)) v.forEach((x) => add(k, x));
    else add(k, v);
  }
  return parts.join('&');
}

function parseUrl(u) {
  const url = new URL(u);
  const q = blank();
  for (const [k, v] of url.searchParams) q[K(k)] = v;
  const parts = { scheme: url.protocol.slice(0, -1), host: url.hostname, path: url.pathname, query: q, hash: url.hash.slice(1) };
  const out = blank();
  for (const [k, v] of Object.entries(parts)) out[K(k)] = v;
  return out;
}

export const URLS = {
  // url(u) alone is new URL(u); an explicit null relative is not text (§5: the wrong kind of argument fails)
  url: ['T,T?', (base, rel) => (rel === undefined ? new URL(base) : new URL(rel, base)).href],
  query: ['O', query],
  encodeURIComponent: ['T', (s) => encodeURIComponent(s)],
  decodeURIComponent: ['T', (s) => decodeURIComponent(s)],
  parseUrl: ['T', parseUrl],
};
