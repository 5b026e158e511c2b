// Regular expressions for the oracle (docs/PLUGIN-LANGUAGE.md §6): patterns are RE2 text; JavaScript runs
// them as RegExp with the `u` flag (RE2 matches code points, as `u` does).
//
// Only spelling is translated: leading `(?ims)` flags become RegExp flags, `(?P<n>` becomes `(?<n>`,
// `\z` and `\A` become anchors. What RE2 refuses and JavaScript allows (lookaround, backreferences) is left
// to JavaScript, so the engine's refusal shows up as "project refuses where JS answers", which the
// documented "RE2" row of §10 then explains.

import { Refuse, Rx } from './values.mjs';

/** A RegExp for an RE2 pattern text; `extra` adds flags (`g` for replace-every and matchAll). */
export function jsRegExp(pattern, extra) {
  let src = pattern;
  let flags = 'u' + extra;
  const lead = /^\(\?([A-Za-z]+)\)/.exec(src);
  if (lead) {
    for (const c of new Set(lead[1])) {
      if (c === 'U') throw new Refuse('re2', 'flag U means "ungreedy" in RE2 and is refused');
      if ('ims'.includes(c)) flags += c;
      else if (c !== 'u') throw new SyntaxError(`invalid flag ${c}`);
    }
    src = src.slice(lead[0].length);
  }
  const multiline = flags.includes('m');
  src = src
    .replace(/\(\?P</g, '(?<')
    .replace(/\\z/g, multiline ? '(?![\\s\\S])' : '$')
    .replace(/\\A/g, multiline ? '(?<![\\s\\S])' : '^')
    .replace(/\\p\{(Han|Latin|Greek|Cyrillic|Hiragana|Katakana)\}/g, '\\p{Script=$1}');
  return new RegExp(src, flags);
}

const source = (p) => (p instanceof Rx ? p.source : p);
const groups = (m) => Array.from(m, (x) => (x === undefined ? null : x));

export const REGEX = {
  regex: [
    'T',
    (p) => {
      jsRegExp(p, ''); // a pattern JavaScript cannot compile is refused where it is made
      return new Rx(p);
    },
  ],
  test: ['T,P', (s, p) => jsRegExp(source(p), '').test(s)],
  match: [
    'T,P',
    (s, p) => {
      const m = jsRegExp(source(p), '').exec(s);
      return m ? groups(m) : null;
    },
  ],
  matchAll: ['T,P', (s, p) => [...s.matchAll(jsRegExp(source(p), 'g'))].map(groups)],
};

