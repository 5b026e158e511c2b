// The standard library as the oracle computes it, written from docs/PLUGIN-LANGUAGE.md §5 and §6 alone.
//
// Where JavaScript has a method of that name for the receiver's type (`'a,b'.split(',')`, `[1].includes(1)`,
// `(2.5).toFixed(0)`), the method itself answers: that is the rule the docs state. The other functions follow
// the sentence of their table row and the notes under the tables. Every function first checks its arity
// (row "arity") and the kinds of its arguments (row "sig", skipped in the lenient rerun, see values.mjs).

import { DATES, URLS } from './dates.mjs';
import { jsRegExp, REGEX } from './regex.mjs';
import {
  blank,
  capItems,
  capText,
  deepEq,
  entriesOf,
  hasKey,
  isIndex,
  isNum,
  isObj,
  isScalar,
  isText,
  jsonText,
  K,
  keysOf,
  mode,
  need,
  nz,
  own,
  parseJSON,
  pk,
  Refuse,
  Rx,
  sig,
  typeName,
  U,
} from './values.mjs';

/** Methods the language refuses with a message saying what to use instead (§3); `sort` has its own row. */
export const REFUSED_METHODS = [
  'push', 'pop', 'shift', 'unshift', 'splice', 'fill', 'forEach', 'toString', 'valueOf', 'hasOwnProperty',
  'call', 'apply', 'bind',
];

// Argument kinds, one letter each; a parameter may allow several (`LT`: a list or a text).
const KINDS = {
  L: Array.isArray,
  T: isText,
  N: isNum,
  O: isObj,
  F: (v) => typeof v === 'function',
  A: () => true,
  P: (v) => isText(v) || v instanceof Rx, // a pattern: text or regex()
  R: (v) => isText(v) || typeof v === 'function', // a replacement: text or a function
  K: (v) => isText(v) || typeof v === 'function', // a key: a field name or a function
  D: (v) => isText(v) || isNum(v), // a date: text or epoch milliseconds
  Z: (v) => v === null, // null where the docs allow it (`merge` skips it)
};

/**
 * Register a function: `spec` lists its parameters (`'L,F,A?'`; `?` optional, `*` rest); `impl` gets the
 * arguments; `native` says JavaScript's own method answers when the receiver's type has one.
 */
function def(name, spec, impl, native = false) {
  const params = spec ? spec.split(',') : [];
  const rest = params.length && params.at(-1).endsWith('*');
  const min = params.filter((p) => !p.endsWith('?') && !p.endsWith('*')).length;
  const max = rest ? Infinity : params.length;
  LIB[name] = (...given) => {
    const args = mode.alt.has('null-absent') ? nullAbsent(given, params) : given;
    need(args.length >= min && args.length <= max, 'arity', `${name}() takes ${min} to ${max} arguments`);
    args.forEach((a, i) => {
      const p = params[Math.min(i, params.length - 1)];
      const kinds = p.replace(/[?*]$/, '');
      const optional = p.endsWith('?') || p.endsWith('*');
      const ok = [...kinds].some((k) => KINDS[k](a)) || (optional && a === null && !p.endsWith('*'));
      sig(ok, `${name}() argument ${i + 1} must be ${kinds}, got ${typeName(a)}`);
    });
    const recv = args[0];
    if (native && (isText(recv) || Array.isArray(recv) || isNum(recv)) && typeof recv[name] === 'function') {
      return nz(recv[name](...args.slice(1)));
    }
    return nz(impl(...args));
  };
}

export const LIB = Object.create(null);

/** The 'null-absent' reading: an optional parameter given null is read as not given (JavaScript's
 * `'x'.split(',', null)` is [], its `'ab'.padEnd(4, null)` is 'abnu'). */
function nullAbsent(args, params) {
  const out = args.map((a, i) => (a === null && (params[i] || '').endsWith('?') ? undefined : a));
  while (out.length && out.at(-1) === undefined) out.pop();
  return out;
}

/** A key given as a function `(item, index)` or a field name (own data of the item, §2). */
const keyOf = (key) => (typeof key === 'function' ? (x, i) => nz(key(x, i)) : (x) => own(x, pk(key)));

/** Keys of groupBy/keyBy/countBy as text "as String() does"; a list or object key is refused. */
function textKey(k) {
  sig(isScalar(k), `a ${typeName(k)} cannot be a key`);
  return String(k);
}

const sameValueZero = (a, b) => a === b || (Number.isNaN(a) && Number.isNaN(b));

function dedupe(items, keys) {
  const seen = [];
  return items.filter((_, i) => {
    if (seen.some((k) => deepEq(k, keys[i], sameValueZero))) return false;
    seen.push(keys[i]);
    return true;
  });
}

// sortBy: numbers, then texts (by code point), then booleans; null and NaN always last (§5 notes).
const rank = (k) => (k === null || Number.isNaN(k) ? 3 : isNum(k) ? 0 : isText(k) ? 1 : 2);
function codePointCmp(a, b) {
  const x = [...a].map((c) => c.codePointAt(0));
  const y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
function sortKeyCmp(a, b) {
  if (isNum(a)) return a < b ? -1 : a > b ? 1 : 0;
  if (isText(a)) return codePointCmp(a, b);
  return Number(a) - Number(b);
}

const aggregate = (items, key) => (key === undefined || key === null ? items : items.map(keyOf(key)));

function minmax(name, items, key, pickSmaller) {
  const vals = aggregate(items, key);
  if (!vals.length) return null;
  const allNum = vals.every(isNum);
  const allText = vals.every(isText);
  sig(allNum || allText, `${name}() expects numbers or texts`);
  if (allNum) return pickSmaller ? Math.min(...vals) : Math.max(...vals);
  return vals.reduce((m, v) => ((pickSmaller ? v < m : v > m) ? v : m));
}

function total(name, items, key) {
  const vals = aggregate(items, key);
  sig(vals.every(isNum), `${name}() expects numbers`);
  return vals.reduce((a, b) => a + b, 0);
}

// ---- lists (§5 Lists) ----
def('len', 'LTO', (x) => (isObj(x) ? Object.keys(x).length : x.length));
for (const f of ['map', 'filter', 'find', 'findIndex', 'some', 'every', 'flatMap']) def(f, 'L,F', null, true);
def('reduce', 'L,F,A?', null, true);
function needleKind(hay, needle) {
  sig(!isText(hay) || isText(needle), 'a text is searched for a text');
}
def('includes', 'LT,A,N?', null, true);
def('indexOf', 'LT,A,N?', null, true);
def('lastIndexOf', 'LT,A,N?', null, true);
for (const f of ['includes', 'indexOf', 'lastIndexOf']) {
  const inner = LIB[f];
  LIB[f] = (...args) => (args.length > 1 && needleKind(args[0], args[1]), inner(...args));
}
def('join', 'L,T?', null, true);
def('slice', 'LT,N?,N?', null, true);
def('concat', 'LT,A*', null, true);
const concat = LIB.concat;
// "texts joined": a list or object joined to a text is refused, as '+' refuses it (§2).
LIB.concat = (x, ...more) => (isText(x) && more.forEach((m) => sig(isScalar(m), 'concat() joins texts')), concat(x, ...more));
def('flat', 'L,N?', null, true);
def('reverse', 'L', (xs) => [...xs].reverse());
def('at', 'LT,N', null, true);
def('last', 'L', (xs) => (xs.length ? xs[xs.length - 1] : null));
def('first', 'LZ', (xs) => (xs !== null && xs.length ? xs[0] : null)); // first(null) is null (§5 notes)
def('take', 'L,N', (xs, n) => xs.slice(0, Math.max(0, n)));
def('drop', 'L,N', (xs, n) => xs.slice(Math.max(0, n)));
def('chunk', 'L,N', (xs, size) => {
  const n = Math.trunc(size);
  need(n >= 1, 'bad-arg', 'chunk() size must be at least 1');
  const out = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
});
def('range', 'N,N?,N?', (a, b, step) => {
  const [start, end] = b === undefined || b === null ? [0, a] : [a, b];
  const by = step === undefined || step === null ? 1 : step;
  need(by !== 0, 'bad-arg', 'range() step cannot be 0');
  const count = Math.max(0, Math.ceil((end - start) / by)) || 0;
  capItems(count);
  return Array.from({ length: count }, (_, i) => start + i * by);
});
def('zip', 'L*', (...lists) => {
  const n = Math.max(0, ...lists.map((l) => l.length));
  return Array.from({ length: n }, (_, i) => lists.map((l) => nz(l[i])));
});
def('compact', 'L', (xs) => xs.filter(Boolean));
def('uniq', 'L', (xs) => dedupe(xs, xs));
def('uniqBy', 'L,K', (xs, key) => dedupe(xs, xs.map(keyOf(key))));
def('sortBy', 'L,K,T?', (xs, key, order) => {
  need(order === undefined || order === null || order === 'asc' || order === 'desc', 'bad-arg', 'order');
  const keys = xs.map(keyOf(key));
  need(keys.every((k) => isScalar(k)), 'bad-arg', 'sortBy() keys must be numbers, texts or booleans');
  const sign = order === 'desc' ? -1 : 1;
  const idx = xs.map((_, i) => i);
  idx.sort((i, j) => {
    const [a, b] = [keys[i], keys[j]];
    const ra = rank(a);
    const rb = rank(b);
    if (ra === 3 || rb === 3) return ra - rb || i - j; // null and NaN last, also in 'desc'
    return sign * (ra - rb || sortKeyCmp(a, b)) || i - j;
  });
  return idx.map((i) => xs[i]);
});
function grouping(xs, key, add) {
  const out = blank();
  const f = keyOf(key);
  xs.forEach((x, i) => {
    const k = textKey(f(x, i));
    out[K(k)] = add(hasKey(out, k) ? out[K(k)] : undefined, x);
  });
  return out;
}
def('groupBy', 'L,K', (xs, key) => grouping(xs, key, (prev, x) => [...(prev || []), x]));
def('keyBy', 'L,K', (xs, key) => grouping(xs, key, (_, x) => x));
def('countBy', 'L,K', (xs, key) => grouping(xs, key, (prev) => (prev || 0) + 1));
def('sum', 'L,K?', (xs, key) => total('sum', xs, key));
def('avg', 'L,K?', (xs, key) => (xs.length ? total('avg', xs, key) / xs.length : null));
def('min', 'L,K?', (xs, key) => minmax('min', xs, key, true));
def('max', 'L,K?', (xs, key) => minmax('max', xs, key, false));

// ---- objects (§5 Objects) ----
def('keys', 'O', (o) => keysOf(o));
def('values', 'O', (o) => Object.values(o));
def('entries', 'O', (o) => entriesOf(o));
def('fromEntries', 'L', (pairs) => {
  const o = blank();
  for (const p of pairs) {
    sig(Array.isArray(p), 'fromEntries() takes [key, value] pairs');
    o[K(pk(nz(p[0])))] = nz(p[1]);
  }
  return o;
});
def('pick', 'O,L', (o, ks) => {
  const out = blank();
  for (const k of ks.map(pk)) if (hasKey(o, k)) out[K(k)] = o[K(k)];
  return out;
});
def('omit', 'O,L', (o, ks) => {
  const drop = new Set(ks.map(pk));
  const out = blank();
  for (const k of Object.keys(o)) if (!drop.has(U(k))) out[k] = o[k];
  return out;
});
def('merge', 'OZ*', (...objs) => Object.assign(blank(), ...objs.filter((o) => o !== null)));
def('get', 'A,TL,A?', (o, path, dflt) => {
  // 'get-engine' reading: '' is the value itself, texts have no steps, and null gives the default.
  const engine = mode.alt.has('get-engine');
  if (engine && path === '') return o;
  const steps = isText(path) ? path.split('.') : path.map(pk);
  let cur = o;
  for (const k of steps) {
    const indexed = Array.isArray(cur) || (isText(cur) && !engine);
    if (indexed && k === 'length') {
      cur = cur.length; // lodash reads .length of an array or a string
      continue;
    }
    const present = indexed ? isIndex(k) && Number(k) < cur.length : isObj(cur) && hasKey(cur, k);
    if (!present) return dflt === undefined ? null : dflt;
    cur = own(cur, k);
  }
  return cur === null && engine && dflt !== undefined ? dflt : cur; // 'get-engine': a null value is missing
});
def('has', 'OL,A', (o, key) => {
  const k = pk(key);
  return Array.isArray(o) ? isIndex(k) && Number(k) < o.length : hasKey(o, k);
});
def('equals', 'A,A', (a, b) => deepEq(a, b, (x, y) => x === y));

// ---- strings (§5 Strings, Text) ----
for (const f of ['trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase']) def(f, 'T', null, true);
def('lower', 'T', (s) => s.toLowerCase());
def('upper', 'T', (s) => s.toUpperCase());
def('split', 'T,P?,N?', (s, sep, limit) => s.split(sep instanceof Rx ? jsRegExp(sep.source, '') : sep, limit));
const replacer = (all) => (s, pat, given) => {
  // The replacement function's result becomes text as String() makes it; a list or object is refused (§2).
  const repl = typeof given === 'function' ? (...a) => (((r) => (sig(isScalar(r), 'replace() text'), r))(nz(given(...a)))) : given;
  if (pat instanceof Rx) return s.replace(jsRegExp(pat.source, 'g'), repl); // with regex(): every match
  return all ? s.replaceAll(pat, repl) : s.replace(pat, repl); // with text: JavaScript's own, $& and all
};
def('replace', 'T,P,R', replacer(false));
def('replaceAll', 'T,P,R', replacer(true));
def('startsWith', 'T,T,N?', null, true);
def('endsWith', 'T,T,N?', null, true);
for (const f of ['padStart', 'padEnd']) {
  def(f, 'T,N,T?', null, true);
  const inner = LIB[f];
  LIB[f] = (...args) => (capText(args[1]), inner(...args));
}
def('repeat', 'T,N', null, true);
const repeat = LIB.repeat;
LIB.repeat = (s, n, ...more) => (isText(s) && isNum(n) && capText(s.length * Math.trunc(n)), repeat(s, n, ...more));
def('substring', 'T,N,N?', null, true);
def('charAt', 'T,N?', null, true);
def('str', 'A', (v) => {
  sig(!(v instanceof Rx) && typeof v !== 'function', 'a regex or function cannot become text');
  return Array.isArray(v) || isObj(v) ? jsonText(v) : String(v);
});

// ---- numbers (§5 Numbers) ----
/** `num` reads the first number in the text after thousands separators are removed (§5 notes). */
function readNumber(x) {
  // NaN stays NaN (the docs only say what text gives); the 'nan-as-nothing' reading makes it "no number".
  if (isNum(x)) return Number.isNaN(x) && mode.alt.has('nan-as-nothing') ? null : x;
  if (x === null) return null;
  sig(isText(x), 'num() reads a number or a text');
  if (!isText(x)) return Number(x);
  const number = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/;
  const re = mode.alt.has('num-leading') ? new RegExp(`^\\s*${number.source}`) : number;
  const m = re.exec(x.replace(/(\d),(?=\d{3}(?!\d))/g, '$1'));
  return m ? Number(m[0]) : null;
}
const orDefault = (v, d) => (v === null ? (d === undefined ? null : d) : v);
def('num', 'A,A?', (x, d) => orDefault(readNumber(x), d));
def('int', 'A,A?', (x, d) => {
  const v = readNumber(x);
  return orDefault(v === null ? null : Math.trunc(v), d);
});
def('round', 'N,N?', (x, digits) => {
  if (digits === undefined || digits === null || digits === 0) return Math.round(x);
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 53) return x; // nothing after the point to round
  // "shifts by the decimal exponent in text before rounding": x·10^d and back, both through text.
  const [m, e] = String(x).split('e');
  const shifted = Math.round(Number(`${m}e${Number(e || 0) + digits}`));
  const [m2, e2] = String(shifted).split('e');
  return Number(`${m2}e${Number(e2 || 0) - digits}`);
});
for (const f of ['floor', 'ceil', 'abs']) def(f, 'N', (x) => Math[f](x));
def('clamp', 'N,N,N', (x, lo, hi) => Math.min(Math.max(x, lo), hi));
def('toFixed', 'N,N?', null, true);
def('isNumber', 'A', (x) => isNum(x) && !Number.isNaN(x));
def('pct', 'N,N', (part, whole) => {
  const r = whole === 0 ? 0 : Math.min(1, Math.max(0, part / whole)); // "between 0 and 1"
  return Number.isNaN(r) && mode.alt.has('nan-as-nothing') ? 0 : r;
});

// ---- JSON and the rest (§5 JSON, Other) ----
def('json', 'T', (t) => parseJSON(t));
def('stringify', 'A,N?', (v, indent) => {
  sig(!(v instanceof Rx), 'a regex cannot become JSON');
  return nz(jsonText(v, indent ?? undefined));
});
def('type', 'A', typeName);
def('coalesce', 'A*', (...xs) => xs.find((x) => x !== null) ?? null);
def('error', 'T', (msg) => {
  throw new Refuse('user', msg);
});

for (const [name, [spec, impl]] of Object.entries({ ...REGEX, ...DATES, ...URLS })) def(name, spec, impl);

