// The language's values as the JavaScript oracle holds them (docs/PLUGIN-LANGUAGE.md §1, §2).
//
// Plain JavaScript values, with two rules of the language on top: every object is prototype-free
// (`Object.create(null)`, so only own keys exist) and `undefined` is read as `null`.

/** A refusal the documentation asks for; `row` names the rule (documented.py keys its table by it). */
export class Refuse extends Error {
  constructor(row, msg) {
    super(msg);
    this.row = row;
  }
}

/** A value of `regex(pattern)`: opaque like the engine's (no own keys to spread or read). */
export class Rx {
  #src;
  constructor(src) {
    this.#src = src;
  }
  get source() {
    return this.#src;
  }
  toString() {
    throw new TypeError('Cannot convert a regex value to a string');
  }
}

/** `...x` in a list, an object or a call, as the rendered JavaScript marks it. */
export class Spread {
  constructor(v) {
    this.v = v;
  }
}

/**
 * Library-argument checks (row "sig") run in the strict pass and are off in the lenient rerun. `alt` names
 * other readings of an ambiguous sentence of the docs, asked for by pending.py to recognise a known
 * disagreement (e.g. 'num-leading': num() reads only a number at the start of the text).
 */
export const mode = { strict: true, alt: new Set() };

export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Rx);
export const isScalar = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
export const isText = (v) => typeof v === 'string';
export const isNum = (v) => typeof v === 'number';

/** The language's type name of a value (the `type()` function). */
export function typeName(v) {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Rx) return 'regex';
  if (typeof v === 'object') return 'object';
  return typeof v; // boolean, number, string, function
}

/** undefined → null, also one level inside arrays (native results such as `match` groups). */
export function nz(v) {
  if (v === undefined) return null;
  if (Array.isArray(v) && v.some((x) => x === undefined)) return Array.from(v, (x) => (x === undefined ? null : x));
  return v;
}

/** A fresh prototype-free object. */
export const blank = () => Object.create(null);

// Keys. JavaScript lists integer-like keys ('1', '10') before the others. Under the 'insertion-order'
// reading (asked for by pending.py's "key-order" entry) every key is stored with a mark before it, so
// objects keep insertion order as the engine's do; everything else about the case stays the same.
const MARK = '\uFDD0';
const marked = (k) => k.charCodeAt(0) === 0xfdd0;
/** The stored form of a key. */
export const K = (k) => (mode.alt.has('insertion-order') && !marked(k) ? MARK + k : k);
/** A stored key as the language sees it. */
export const U = (k) => (marked(k) ? k.slice(1) : k);
export const keysOf = (o) => Object.keys(o).map(U);
export const entriesOf = (o) => Object.keys(o).map((k) => [U(k), o[k]]);
export const hasKey = (o, k) => Object.hasOwn(o, K(k));

/** JSON.stringify, keys as the language sees them. */
export function jsonText(v, indent) {
  const text = JSON.stringify(v, null, indent);
  return text === undefined ? undefined : text.replaceAll('"' + MARK, '"');
}

/** JSON.parse into the language's values; under 'insertion-order' keys keep the order of the text. */
export function parseJSON(text) {
  if (!mode.alt.has('insertion-order')) return fromJSON(JSON.parse(text));
  const after = /\s*:/y;
  const keyed = text.replace(/"(?:[^"\\]|\\.)*"/g, (s, at) => {
    after.lastIndex = at + s.length;
    return after.test(text) ? '"' + MARK + s.slice(1) : s;
  });
  return fromJSON(JSON.parse(keyed));
}

/** Outside JSON as the language's values: every object prototype-free, keys in JavaScript's own order. */
export function fromJSON(v) {
  if (Array.isArray(v)) return v.map(fromJSON);
  if (v !== null && typeof v === 'object') {
    const o = blank();
    for (const k of Object.keys(v)) o[K(k)] = fromJSON(v[k]);
    return o;
  }
  return v;
}

/** A value as tagged JSON for Python: -0, NaN and ±Infinity survive, objects keep their key order. */
export function enc(v) {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      if (Object.is(v, -0)) return { $n: '-0' };
      if (Number.isNaN(v)) return { $n: 'NaN' };
      if (!Number.isFinite(v)) return { $n: v > 0 ? 'Infinity' : '-Infinity' };
      return v;
    case 'function':
      return { $x: 'function' };
  }
  if (v instanceof Rx) return { $x: 'regex' };
  if (Array.isArray(v)) return v.map(enc);
  return { $o: entriesOf(v).map(([k, x]) => [k, enc(x)]) };
}

/** True for an array index key: the canonical text of an integer 0 ≤ n < 2³² − 1. */
export const isIndex = (k) => {
  const n = Number(k);
  return String(n) === k && Number.isInteger(n) && n >= 0 && n < 4294967295;
};

/** Own data only (§2): an object's own key, an array's or string's index or `length`; else null. */
export function own(v, k) {
  if (typeof v === 'string' || Array.isArray(v)) {
    if (k === 'length') return v.length;
    return isIndex(k) ? nz(v[k]) : null;
  }
  if (isObj(v)) return hasKey(v, k) ? v[K(k)] : null;
  return null;
}

/** JavaScript's ToPropertyKey, native (an array key is its join; a prototype-free object throws). */
export const pk = (k) => (typeof k === 'string' ? k : String(k));

/** Throw a documented refusal unless `ok`. */
export function need(ok, row, msg) {
  if (!ok) throw new Refuse(row, msg);
}

/** A library-argument check: a refusal (row "sig") in the strict pass, nothing in the lenient one. */
export function sig(ok, msg) {
  if (!ok && mode.strict) throw new Refuse('sig', msg);
}

/** The items of `...v`: a list, or a string's characters (code points, as JavaScript iterates). */
export function spreadItems(v) {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  throw new TypeError(`${typeName(v)} is not iterable`); // native: [...null], [...{}] and [...1] throw
}

/** Deep equality for `equals`, `uniq` …: scalars by `same`, lists in order, objects by key set. */
export function deepEq(a, b, same) {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEq(x, b[i], same));
  }
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEq(a[k], b[k], same));
  }
  if (Array.isArray(a) || Array.isArray(b) || isObj(a) || isObj(b)) return false;
  return same(a, b);
}

/** The language's limits (§8), checked before a big value is built. */
export const MAX_STRING = 1048576;
export const MAX_ITEMS = 100000;
export function capText(n) {
  need(!(n > MAX_STRING), 'limit', `string of ${n} characters is over the limit`);
}
export function capItems(n) {
  need(!(n > MAX_ITEMS), 'limit', `list of ${n} items is over the limit`);
}
