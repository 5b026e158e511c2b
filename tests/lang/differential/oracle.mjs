// The JavaScript oracle of the differential test: one long-lived `node` process, JSON lines in and out.
//
// Python renders every generated expression twice (tree.py): in the plugin language for the engine, and as
// JavaScript for this file, where each operator and library call goes through a small wrapper in `L`. The
// wrappers do what native JavaScript does, plus only what docs/PLUGIN-LANGUAGE.md §2 (the one rule) asks:
// `undefined` is read as null, `==` is `===`, objects are prototype-free, and the documented refusals throw
// a `Refuse` naming the rule (its `row`), so "the engine fails" can be matched with "JavaScript refuses".
//
// In:  {"id": 1, "src": "<JavaScript expression>", "ctx": "<JSON text of {name: value}>", "alt": [...]?}
// Out: {"id": 1, "ok": <tagged value>}                                      the expression's value
//      {"id": 1, "refuse": "<row>", "msg": "...", "lenient": <outcome>}      a documented refusal (§2, §5 ...)
//      {"id": 1, "throw": "TypeError", "msg": "..."}                       native JavaScript threw
// `lenient` is there for library-argument refusals (row "sig"): the outcome of the same case with those
// checks off, i.e. with JavaScript's own coercions; an engine that answers like that still agrees.

import { createInterface } from 'node:readline';
import { clock } from './dates.mjs';
import { LIB, REFUSED_METHODS } from './library.mjs';
import {
  Refuse,
  Spread,
  enc,
  entriesOf,
  hasKey,
  isObj,
  K,
  isScalar,
  mode,
  need,
  nz,
  own,
  parseJSON,
  pk,
  spreadItems,
  typeName,
} from './values.mjs';

/** Thrown by `L.opt` when an optional link meets null; caught at the end of the chain by `L.chain`. */
const SHORT = Symbol('short-circuit');

const nullRead = (k) => new TypeError(`Cannot read properties of null (reading '${k}')`);
const num2 = (op, a, b) => need(typeof a === 'number' && typeof b === 'number', 'coerce', `'${op}' needs numbers`);

function compare(op, a, b) {
  const ok = (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  need(ok, 'compare-types', `'${op}' compares two numbers or two strings`);
}

function strictEq(a, b) {
  need(isScalar(a) || isScalar(b), 'identity', 'comparing two arrays or objects: use equals()');
  return a === b;
}

/** Arguments with `...spread` expanded, as JavaScript expands them. */
function expand(args) {
  const out = [];
  for (const a of args) {
    if (a instanceof Spread) out.push(...spreadItems(a.v));
    else out.push(a);
  }
  return out;
}

export const L = {
  get(v, k) {
    if (v === null || v === undefined) throw nullRead(k);
    return own(v, k);
  },
  index(v, k) {
    if (v === null || v === undefined) throw nullRead(k);
    return own(v, pk(k));
  },
  opt(v) {
    if (v === null || v === undefined) throw SHORT;
    return v;
  },
  chain(f) {
    try {
      return f();
    } catch (e) {
      if (e === SHORT) return null;
      throw e;
    }
  },
  add(a, b) {
    if (typeof a === 'number' && typeof b === 'number') return a + b;
    if (typeof a === 'string' || typeof b === 'string') {
      need(!Array.isArray(a) && !Array.isArray(b) && !isObj(a) && !isObj(b), 'join-array', "'+' with a list");
      need(isScalar(a) && isScalar(b), 'coerce', "'+' with a regex or a function");
      return String(a) + String(b);
    }
    throw new Refuse('coerce', "'+' needs two numbers or a string");
  },
  sub: (a, b) => (num2('-', a, b), a - b),
  mul: (a, b) => (num2('*', a, b), a * b),
  div: (a, b) => (num2('/', a, b), a / b),
  mod: (a, b) => (num2('%', a, b), a % b),
  pow: (a, b) => (num2('**', a, b), a ** b),
  lt: (a, b) => (compare('<', a, b), a < b),
  le: (a, b) => (compare('<=', a, b), a <= b),
  gt: (a, b) => (compare('>', a, b), a > b),
  ge: (a, b) => (compare('>=', a, b), a >= b),
  eq: (a, b) => strictEq(a, b),
  ne: (a, b) => !strictEq(a, b),
  neg: (a) => (need(typeof a === 'number', 'coerce', "'-' needs a number"), -a),
  pos: (a) => (need(typeof a === 'number', 'coerce', "'+' needs a number"), +a),
  /** A `${}` of a backtick literal: String() of a scalar; a list or object is refused (§7). */
  ts(v) {
    need(!Array.isArray(v) && !isObj(v), 'template-array', 'a list or object in a backtick literal');
    return String(v);
  },
  sp: (v) => new Spread(v),
  arr: (items) => expand(items),
  obj(entries) {
    const o = Object.create(null);
    for (const e of entries) {
      if (e instanceof Spread) {
        // native {...x}: null, numbers and booleans add nothing, a list its items, a string its units
        if (typeof e.v === 'string' || Array.isArray(e.v)) for (let i = 0; i < e.v.length; i++) o[K(String(i))] = e.v[i];
        else if (isObj(e.v)) Object.assign(o, e.v);
      } else o[K(e[0])] = e[1];
    }
    return o;
  },
  /** A key of an object literal (`[k]: v`, `3: v`): JavaScript's ToPropertyKey, evaluated in place. */
  key: (k) => pk(k),
  /** An object-pattern parameter `({ a }) =>`: JavaScript throws on null, then reads own data. */
  dobj(v, k) {
    if (v === null || v === undefined) throw new TypeError('Cannot destructure null');
    return own(v, k);
  },
  /** An array-pattern parameter `([a, b]) =>`: needs an iterable (a list, or a string's characters). */
  dit: (v) => spreadItems(v),
  at: (items, i) => nz(items[i]),
  call: (name, args) => LIB[name](...expand(args)),
  mcall(recv, name, args, optCall) {
    if (recv === null || recv === undefined) throw nullRead(name);
    const xs = expand(args);
    if (isObj(recv) && hasKey(recv, name)) {
      const f = recv[K(name)];
      if (typeof f === 'function') return nz(f(...xs));
      if (f === null && optCall) throw SHORT;
      throw new TypeError(`${name} is not a function`);
    }
    if (name === 'sort' && Array.isArray(recv)) throw new Refuse('sort', 'sort() is not provided');
    if (REFUSED_METHODS.includes(name)) throw new Refuse('refused-method', `${name}() is refused`);
    if (Object.hasOwn(LIB, name)) return LIB[name](recv, ...xs);
    if (optCall) throw SHORT;
    throw new TypeError(`${typeName(recv)}.${name} is not a function`);
  },
};

const compiled = new Map();

function compile(src) {
  let f = compiled.get(src);
  if (f === undefined) {
    f = new Function('L', 'C', `"use strict"; return (${src});`);
    if (compiled.size > 20000) compiled.clear();
    compiled.set(src, f);
  }
  return f;
}

function outcome(src, ctx) {
  let f;
  try {
    f = compile(src);
  } catch (e) {
    return { throw: e.name || 'Error', msg: String(e.message) };
  }
  try {
    return { ok: enc(nz(f(L, ctx))) };
  } catch (e) {
    if (e instanceof Refuse) return { refuse: e.row, msg: e.message };
    if (e === SHORT) return { throw: 'OracleBug', msg: 'an optional chain escaped its chain' };
    return { throw: (e && e.name) || 'Error', msg: String(e && e.message) };
  }
}

function evaluate(src, ctx) {
  mode.strict = true;
  const out = outcome(src, ctx);
  if (out.refuse === 'sig') {
    mode.strict = false;
    out.lenient = outcome(src, ctx);
    mode.strict = true;
  }
  return out;
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line.trim()) return;
  const req = JSON.parse(line);
  mode.alt = new Set(req.alt || []);
  // The context comes as JSON text, so that the key order of its objects can be kept; its own keys are names.
  const ctx = Object.create(null);
  for (const [name, value] of entriesOf(parseJSON(req.ctx))) ctx[name] = value;
  clock.now = typeof ctx.now === 'string' ? ctx.now : clock.now;
  const out = evaluate(req.src, ctx);
  out.id = req.id;
  process.stdout.write(JSON.stringify(out) + '\n');
});
