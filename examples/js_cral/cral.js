#!/usr/bin/env node
'use strict';
// Corruption Robust Active Learning (Chen, Du, Jamieson) -- exact implementation
// speaking the cral-run protocol v1. Exact rational arithmetic with BigInt.
const fs = require('fs');
const crypto = require('crypto');

class BadInput extends Error {}
function bad(msg) { throw new BadInput(msg); }

// ---------------------------------------------------------------- JSON
class FloatTok { constructor(raw) { this.raw = raw; } }
function parseJSON(text) {
  let i = 0;
  const n = text.length;
  function ws() { while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++; }
  function val() {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; const o = {}; ws();
      if (text[i] === '}') { i++; return o; }
      for (;;) {
        ws(); if (text[i] !== '"') throw new SyntaxError('expected key at ' + i);
        const k = str(); ws();
        if (text[i] !== ':') throw new SyntaxError('expected : at ' + i);
        i++; const v = val();
        if (Object.prototype.hasOwnProperty.call(o, k)) throw new SyntaxError('duplicate key ' + k);
        o[k] = v; ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return o; }
        throw new SyntaxError('bad object at ' + i);
      }
    }
    if (c === '[') {
      i++; const a = []; ws();
      if (text[i] === ']') { i++; return a; }
      for (;;) {
        a.push(val()); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return a; }
        throw new SyntaxError('bad array at ' + i);
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 4000));
    if (!m) throw new SyntaxError('bad value at ' + i);
    i += m[0].length;
    if (m[2] || m[3]) return new FloatTok(m[0]);
    const b = BigInt(m[0]);
    if (b >= -9007199254740991n && b <= 9007199254740991n) return Number(b);
    return b;
  }
  function str() {
    i++; let s = '';
    for (;;) {
      const c = text[i];
      if (c === undefined) throw new SyntaxError('unterminated string');
      if (c === '"') { i++; return s; }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') { s += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)); i += 6; continue; }
        s += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/', '\\': '\\', '"': '"' })[e];
        i += 2; continue;
      }
      s += c; i++;
    }
  }
  const v = val(); ws();
  if (i !== n) throw new SyntaxError('trailing data');
  return v;
}
function toJSON(v) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Rat) return JSON.stringify(v.toString());
  if (Array.isArray(v)) return '[' + v.map(toJSON).join(',') + ']';
  if (v instanceof FloatTok) return v.raw;
  return '{' + Object.keys(v).map(k => JSON.stringify(k) + ':' + toJSON(v[k])).join(',') + '}';
}

// ---------------------------------------------------------------- rationals
function bgcd(a, b) { if (a < 0n) a = -a; if (b < 0n) b = -b; while (b) { const t = a % b; a = b; b = t; } return a; }
function babs(a) { return a < 0n ? -a : a; }
function bitlen(a) { a = babs(a); return a === 0n ? 0 : a.toString(2).length; }
function floorDiv(a, b) { // b > 0
  const q = a / b; return (a % b !== 0n && a < 0n) ? q - 1n : q;
}
class Rat {
  constructor(n, d) { // d > 0
    if (d === undefined) d = 1n;
    if (d < 0n) { n = -n; d = -d; }
    const g = bgcd(n, d);
    if (g > 1n) { n /= g; d /= g; }
    if (n === 0n) d = 1n;
    this.n = n; this.d = d;
  }
  static raw(n, d) { const r = Object.create(Rat.prototype); r.n = n; r.d = d; return r; }
  static int(k) { return Rat.raw(BigInt(k), 1n); }
  add(o) { return new Rat(this.n * o.d + o.n * this.d, this.d * o.d); }
  sub(o) { return new Rat(this.n * o.d - o.n * this.d, this.d * o.d); }
  mul(o) { return new Rat(this.n * o.n, this.d * o.d); }
  div(o) { if (o.n === 0n) throw new Error('division by zero'); return new Rat(this.n * o.d, this.d * o.n); }
  neg() { return Rat.raw(-this.n, this.d); }
  cmp(o) { const a = this.n * o.d, b = o.n * this.d; return a < b ? -1 : a > b ? 1 : 0; }
  lt(o) { return this.cmp(o) < 0; } le(o) { return this.cmp(o) <= 0; }
  gt(o) { return this.cmp(o) > 0; } ge(o) { return this.cmp(o) >= 0; }
  eq(o) { return this.n === o.n && this.d === o.d; }
  sign() { return this.n < 0n ? -1 : this.n > 0n ? 1 : 0; }
  isZero() { return this.n === 0n; }
  floor() { return floorDiv(this.n, this.d); }
  ceil() { return -floorDiv(-this.n, this.d); }
  toString() { return this.n.toString() + '/' + this.d.toString(); }
  toNumber() { return Number(this.n) / Number(this.d); }
}
const ZERO = Rat.int(0), ONE = Rat.int(1), HALF = new Rat(1n, 2n);
function rmin(a, b) { return a.le(b) ? a : b; }
function rmax(a, b) { return a.ge(b) ? a : b; }
function pow2(k) { return k >= 0 ? Rat.raw(1n << BigInt(k), 1n) : Rat.raw(1n, 1n << BigInt(-k)); }

function parseRat(v, field) {
  if (v instanceof FloatTok) bad(`${field} must be an exact rational (a "p/q" string), got the float ${v.raw}`);
  if (typeof v === 'number') return Rat.int(v);
  if (typeof v === 'bigint') return new Rat(v, 1n);
  if (typeof v !== 'string') bad(`${field} must be a rational "p/q", got ${toJSON(v)}`);
  const m = /^(-?[0-9]+)(?:\/([0-9]+))?$/.exec(v);
  if (!m) bad(`${field} must be a rational "p/q", got ${JSON.stringify(v)}`);
  const d = m[2] === undefined ? 1n : BigInt(m[2]);
  if (d === 0n) bad(`${field} has a zero denominator: ${JSON.stringify(v)}`);
  return new Rat(BigInt(m[1]), d);
}
function parseInt_(v, field, lo) {
  if (v instanceof FloatTok) bad(`${field} must be an integer, got ${v.raw}`);
  let b;
  if (typeof v === 'number' && Number.isInteger(v)) b = BigInt(v);
  else if (typeof v === 'bigint') b = v;
  else bad(`${field} must be an integer, got ${toJSON(v)}`);
  if (lo !== undefined && b < BigInt(lo)) bad(`${field} must be >= ${lo}, got ${b}`);
  return b;
}
function parseSmallInt(v, field, lo, hi) {
  const b = parseInt_(v, field, lo);
  if (hi !== undefined && b > BigInt(hi)) bad(`${field} must be <= ${hi}, got ${b}`);
  return Number(b);
}
function parseList(v, field, len) {
  if (!Array.isArray(v)) bad(`${field} must be a list`);
  if (len !== undefined && v.length !== len) bad(`${field} must have ${len} entries, got ${v.length}`);
  return v;
}

// ---------------------------------------------------------------- certified ln / sqrt
function isqrt(a) { // floor sqrt, a >= 0
  if (a < 0n) throw new Error('isqrt of negative');
  if (a < 2n) return a;
  let x = 1n << BigInt(Math.ceil(bitlen(a) / 2));
  for (;;) { const y = (x + a / x) >> 1n; if (y >= x) return x; x = y; }
}
// 2*atanh(s) for s = sn/sd in [0, 1/3]; returns [value*2^P approx, error bound (ulps)]
function atanh2(sn, sd, P) {
  const PB = BigInt(P);
  const s = (sn << PB) / sd;
  const s2 = (s * s) >> PB;
  let sum = 0n, pw = s, j = 1n, terms = 0;
  while (pw > 0n) { sum += pw / j; pw = (pw * s2) >> PB; j += 2n; terms++; }
  return [2n * sum, BigInt(12 * terms + 64)];
}
const ln2Cache = new Map();
function ln2(P) { if (!ln2Cache.has(P)) ln2Cache.set(P, atanh2(1n, 3n, P)); return ln2Cache.get(P); }
// certified ln(r), r > 0 rational: returns [lo, hi] as BigInt numerators over 2^P
function lnFixed(r, P) {
  const n = r.n, d = r.d;
  if (n <= 0n) throw new Error('ln of nonpositive');
  let k = bitlen(n) - bitlen(d);
  // m = n / (d 2^k) in [1, 2)
  let A, B; // m = A/B
  const set = () => { if (k >= 0) { A = n; B = d << BigInt(k); } else { A = n << BigInt(-k); B = d; } };
  set();
  if (A < B) { k -= 1; set(); }
  if (A >= 2n * B) { k += 1; set(); }
  const [v, e] = atanh2(A - B, A + B, P);
  const [l2, e2] = ln2(P);
  const K = BigInt(k);
  const val = v + K * l2;
  const err = e + babs(K) * e2 + 2n;
  return [val - err, val + err];
}
// interval [lo, hi] (Rats) of a log constant or value
function constInterval(c, P) {
  if (c.value !== undefined) return [c.value, c.value];
  const co = c.coefficient, a = c.argument;
  if (co.isZero() || a.eq(ONE)) return [ZERO, ZERO];
  const [l, h] = lnFixed(a, P);
  const den = 1n << BigInt(P);
  const lo = co.mul(new Rat(l < 0n ? 0n : l, den)), hi = co.mul(new Rat(h, den));
  return [lo, hi];
}
function sqrtFloor(r, K) { // floor(sqrt(r) 2^K)/2^K
  if (r.sign() <= 0) return ZERO;
  const KB = BigInt(K);
  return new Rat(isqrt((r.n << (2n * KB)) / r.d), 1n << KB);
}
function sqrtCeil(r, K) {
  if (r.sign() <= 0) return ZERO;
  const KB = BigInt(K);
  const num = r.n << (2n * KB);
  let t = num / r.d; if (t * r.d < num) t += 1n;
  let s = isqrt(t); if (s * s < t) s += 1n;
  return new Rat(s, 1n << KB);
}
function sqrtBitsK(r, bits) { // K such that sqrt(r)*2^K >= 2^bits
  const e = Math.floor((bitlen(r.n) - bitlen(r.d) - 1) / 2);
  return Math.max(0, bits - e + 2);
}
function sqrtRel(r, bits) { return sqrtFloor(r, sqrtBitsK(r, bits)); }

// ---------------------------------------------------------------- catoni
// sign of f(z) = sum c_i psi(alpha (v_i - z)); +1, -1 or 0 (undetermined at P)
function catoniSign(vals, cnts, alpha, z, P) {
  let lo = 0n, hi = 0n;
  for (let i = 0; i < vals.length; i++) {
    const y = alpha.mul(vals[i].sub(z));
    if (y.isZero()) continue;
    const yy = y.sign() > 0 ? y : y.neg();
    const g = ONE.add(yy).add(yy.mul(yy).mul(HALF));
    const [l, h] = lnFixed(g, P);
    const c = cnts[i];
    if (y.sign() > 0) { lo += c * l; hi += c * h; } else { lo -= c * h; hi -= c * l; }
  }
  if (lo > 0n) return 1; if (hi < 0n) return -1;
  if (lo === 0n && hi === 0n) return 0;
  return 0;
}
function catoniFloat(vals, cnts, alpha, z) {
  let s = 0;
  for (let i = 0; i < vals.length; i++) {
    const y = alpha * (vals[i] - z);
    const p = y >= 0 ? Math.log1p(y + y * y / 2) : -Math.log1p(-y + y * y / 2);
    s += cnts[i] * p;
  }
  return s;
}
function dyadic(x, bits) { // rational near double x on grid 2^-bits
  return new Rat(BigInt(Math.round(x * Math.pow(2, bits))), 1n << BigInt(bits));
}
// vals: Rat[], cnts: BigInt[] (>0), alpha Rat > 0 -> [lo, hi] Rats, width <= 2^-64
function catoniRoot(vals, cnts, alpha) {
  // group
  const map = new Map();
  for (let i = 0; i < vals.length; i++) {
    if (cnts[i] === 0n) continue;
    const k = vals[i].toString();
    if (map.has(k)) map.get(k)[1] += cnts[i]; else map.set(k, [vals[i], cnts[i]]);
  }
  const ent = [...map.values()].sort((a, b) => a[0].cmp(b[0]));
  const V = ent.map(e => e[0]), C = ent.map(e => e[1]);
  if (V.length === 0) bad('counts must contain a positive count');
  const vmin = V[0], vmax = V[V.length - 1];
  if (vmin.eq(vmax)) return [vmin, vmin];
  // symmetric about the centre -> exact root
  const ctr = vmin.add(vmax).mul(HALF);
  let sym = true;
  for (let i = 0, j = V.length - 1; i <= j; i++, j--) {
    if (!V[i].add(V[j]).eq(ctr.add(ctr)) || C[i] !== C[j]) { sym = false; break; }
  }
  if (sym) return [ctr, ctr];
  let P = 256;
  const W = pow2(-65);
  let lo = vmin, hi = vmax;
  // float approximation to narrow the bracket
  try {
    const fv = V.map(v => v.toNumber()), fc = C.map(c => Number(c)), fa = alpha.toNumber();
    let a = fv[0], b = fv[fv.length - 1];
    if (isFinite(a) && isFinite(b) && isFinite(fa) && fa > 0) {
      for (let it = 0; it < 200 && b - a > 0; it++) {
        const m = (a + b) / 2; if (m <= a || m >= b) break;
        if (catoniFloat(fv, fc, fa, m) > 0) a = m; else b = m;
      }
      const r = (a + b) / 2;
      const eps = Math.max(1, Math.abs(r)) * Math.pow(2, -24);
      const l0 = dyadic(r - eps, 80), h0 = dyadic(r + eps, 80);
      if (l0.gt(lo) && h0.lt(hi) && catoniSign(V, C, alpha, l0, P) > 0 && catoniSign(V, C, alpha, h0, P) < 0) { lo = l0; hi = h0; }
    }
  } catch (e) { /* fall back */ }
  while (hi.sub(lo).gt(W)) {
    const mid = lo.add(hi).mul(HALF);
    let s = catoniSign(V, C, alpha, mid, P);
    if (s === 0) {
      for (let P2 = P * 2; P2 <= 2048 && s === 0; P2 *= 2) s = catoniSign(V, C, alpha, mid, P2);
    }
    if (s > 0) lo = mid;
    else if (s < 0) hi = mid;
    else {
      // mid is (numerically) the root: tight bracket around it
      const e = pow2(-67);
      let a = mid.sub(e), b = mid.add(e);
      let ok = false;
      for (let P2 = 256; P2 <= 4096; P2 *= 2) {
        if (catoniSign(V, C, alpha, a, P2) > 0 && catoniSign(V, C, alpha, b, P2) < 0) { ok = true; break; }
      }
      if (ok) return [rmax(a, lo), rmin(b, hi)];
      return [mid, mid];
    }
  }
  return [lo, hi];
}

// ---------------------------------------------------------------- inputs
function parseHypotheses(v) {
  const H = parseList(v, 'hypotheses');
  if (H.length < 1) bad('hypotheses must not be empty');
  const m = parseList(H[0], 'hypotheses[0]').length;
  if (m < 1) bad('hypotheses[0] must not be empty');
  return H.map((h, i) => parseList(h, `hypotheses[${i}]`, m).map((b, x) => {
    if (b !== 0 && b !== 1) bad(`hypotheses[${i}][${x}] must be 0 or 1, got ${toJSON(b)}`);
    return b;
  }));
}
function parseConst(v, field) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) bad(`${field} must be an object`);
  if (v.value !== undefined) return { value: parseRat(v.value, field + '.value') };
  const c = parseRat(v.coefficient, field + '.coefficient'), a = parseRat(v.argument, field + '.argument');
  if (c.sign() < 0) bad(`${field}.coefficient must be >= 0`);
  if (a.lt(ONE)) bad(`${field}.argument must be >= 1`);
  return { coefficient: c, argument: a };
}
function parseParams(p, nH) {
  if (p === null || typeof p !== 'object') bad('params must be an object');
  const r = { raw: p };
  r.delta = parseRat(p.delta, 'params.delta');
  r.beta_scale = parseRat(p.beta_scale, 'params.beta_scale');
  r.beta2 = parseRat(p.beta2, 'params.beta2');
  r.beta1 = parseConst(p.beta1, 'params.beta1');
  r.beta3 = parseConst(p.beta3, 'params.beta3');
  if (p.n !== undefined) r.n = parseSmallInt(p.n, 'params.n', 0);
  if (r.delta.sign() <= 0 || r.delta.ge(ONE)) bad(`params.delta must lie in (0, 1), got ${r.delta}`);
  if (r.beta_scale.sign() <= 0) bad(`params.beta_scale must be > 0, got ${r.beta_scale}`);
  if (r.beta2.sign() < 0) bad(`params.beta2 must be >= 0, got ${r.beta2}`);
  for (const k of ['beta1', 'beta3']) {
    const c = r[k];
    const pos = c.value !== undefined ? c.value.sign() > 0 : (c.coefficient.sign() > 0 && c.argument.gt(ONE));
    if (!pos) bad(`params.${k} must be > 0`);
  }
  return r;
}
function parseTape(t, m) {
  if (t === null || typeof t !== 'object') bad('tape must be an object');
  if (t.format !== 'cral-tape') bad('tape.format must be "cral-tape" (npy tapes are not read by this program)');
  const X = parseList(t.x, 'tape.x'), n = X.length;
  if (n < 1) bad('tape.x must have at least 1 entry, got []');
  const Y = parseList(t.y, 'tape.y', n), U = parseList(t.u, 'tape.u', n);
  const x = new Int32Array(n), y = new Uint8Array(n), u = new Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = parseSmallInt(X[i], `tape.x[${i}]`, 0, m - 1);
    y[i] = parseSmallInt(Y[i], `tape.y[${i}]`, 0, 1);
    const ui = parseRat(U[i], `tape.u[${i}]`);
    if (ui.sign() < 0 || ui.ge(ONE)) bad(`tape.u[${i}] must be in [0, 1)`);
    u[i] = ui;
  }
  return { n, x, y, u };
}

// ---------------------------------------------------------------- passive
function passive(req) {
  const H = parseHypotheses(req.hypotheses), m = H[0].length;
  const tape = parseTape(req.tape, m);
  parseParams(req.params, H.length);
  const n = tape.n;
  const err = H.map(() => 0);
  for (let t = 0; t < n; t++) for (let h = 0; h < H.length; h++) if (H[h][tape.x[t]] !== tape.y[t]) err[h]++;
  let best = 0;
  for (let h = 1; h < H.length; h++) if (err[h] < err[best]) best = h;
  return {
    format: 'cral-trace', version: 1, algorithm: 'passive', params: req.params, n,
    empirical_risk: err.map(e => n === 0 ? ZERO : new Rat(BigInt(e), BigInt(n))),
    labels_requested: n, output: best,
  };
}

// ---------------------------------------------------------------- robust_cal
function enc(lo, hi) { return { lo, hi }; }
function robustCal(req, vanilla) {
  const H = parseHypotheses(req.hypotheses), m = H[0].length, nH = H.length;
  const tape = parseTape(req.tape, m);
  const params = parseParams(req.params, nH);
  const n = tape.n;
  let V = H.map((_, i) => i);
  const disOf = (V) => { const d = new Uint8Array(m); for (let x = 0; x < m; x++) { const b = H[V[0]][x]; for (const h of V) if (H[h][x] !== b) { d[x] = 1; break; } } return d; };
  let dis = disOf(V);
  const errQ = new Array(nH).fill(0);
  const cnt = new Array(m).fill(0);
  let labels = 0;
  const checkpoints = [];
  let nextCk = 2;
  for (let t = 1; t <= n; t++) {
    const x = tape.x[t - 1], y = tape.y[t - 1];
    cnt[x]++;
    if (dis[x]) { labels++; for (let h = 0; h < nH; h++) if (H[h][x] !== y) errQ[h]++; }
    if (t === nextCk) {
      nextCk *= 2;
      const k = Math.round(Math.log2(t));
      const T = BigInt(t);
      const Lh = V.map(h => new Rat(BigInt(errQ[h]), T));
      let hi = 0; for (let i = 1; i < V.length; i++) if (Lh[i].lt(Lh[hi])) hi = i;
      const hhat = V[hi];
      const rho = V.map(h => { let s = 0; for (let x = 0; x < m; x++) if (H[h][x] !== H[hhat][x]) s += cnt[x]; return new Rat(BigInt(s), T); });
      const arg = new Rat(3n * BigInt(k) * BigInt(nH) * BigInt(nH), 1n).div(params.delta);
      const betaAt = (P) => { const [l, h] = lnFixed(arg, P); const den = 1n << BigInt(P); return [params.beta_scale.mul(new Rat(l, den)), params.beta_scale.mul(new Rat(h, den))]; };
      const thrAt = (P, rh) => {
        const [bl, bh] = betaAt(P);
        const K = P / 2 + 20;
        const a = sqrtFloor(Rat.int(2).mul(bl).mul(rh).div(Rat.int(t)), K);
        const b = sqrtCeil(Rat.int(2).mul(bh).mul(rh).div(Rat.int(t)), K);
        let lo = a.add(Rat.int(3).mul(bl).div(Rat.int(2 * t))), hiv = b.add(Rat.int(3).mul(bh).div(Rat.int(2 * t)));
        if (!vanilla) { lo = lo.add(rh.mul(HALF)); hiv = hiv.add(rh.mul(HALF)); }
        return [lo, hiv];
      };
      const [bl, bh] = betaAt(96);
      const next = [];
      const er = new Array(nH).fill(null), dg = new Array(nH).fill(null), th = new Array(nH).fill(null);
      V.forEach((h, i) => {
        er[h] = Lh[i]; dg[h] = rho[i];
        const [tl, tu] = thrAt(96, rho[i]);
        th[h] = enc(tl, tu);
        const diff = Lh[i].sub(Lh[hi]);
        let keep = null;
        for (let P = 96; P <= 8192 && keep === null; P *= 2) {
          const [a, b] = P === 96 ? [tl, tu] : thrAt(P, rho[i]);
          if (diff.le(a)) keep = true; else if (diff.gt(b)) keep = false;
        }
        if (keep === null) keep = true;
        if (keep) next.push(h);
      });
      checkpoints.push({ t, version_space: V.slice(), labels_requested: labels, h_hat: hhat, empirical_risk: er, disagreement: dg, beta: enc(bl, bh), threshold: th, next_version_space: next });
      V = next; dis = disOf(V);
    }
  }
  const fer = new Array(nH).fill(null);
  let out = V[0];
  for (const h of V) { fer[h] = n === 0 ? ZERO : new Rat(BigInt(errQ[h]), BigInt(n)); if (errQ[h] < errQ[out]) out = h; }
  return {
    format: 'cral-trace', version: 1, algorithm: vanilla ? 'robust_cal_vanilla' : 'robust_cal', vanilla,
    params: req.params, n, checkpoints, final_version_space: V, final_empirical_risk: fer, labels_requested: labels, output: out,
  };
}

// ---------------------------------------------------------------- calruption
function epsI(i) { return pow2(-i); }
function Nenclosure(beta1, l) { // returns {lo, hi, len}
  const f = Rat.raw(1n << BigInt(2 * l), 1n);
  if (beta1.value !== undefined) { const v = beta1.value.mul(f); return { lo: v, hi: v, len: v.ceil() }; }
  for (let P = 128; P <= 16384; P *= 2) {
    const [a, b] = constInterval(beta1, P);
    const lo = a.mul(f), hi = b.mul(f);
    if (lo.eq(hi)) return { lo, hi, len: lo.ceil() };
    if (lo.ceil() === hi.ceil() && lo.floor() !== lo.ceil()) return { lo, hi, len: lo.ceil() };
  }
  bad('params.beta1: cannot decide ceil(beta1 4^l)');
}
function lengthOf(params, l) {
  const e = Nenclosure(params.beta1, l);
  if (e.len <= 0n) bad('params.beta1 must be > 0 (epoch length ceil(beta1 4^l) is 0)');
  return e;
}
function samplesFor(H, h, h2, q, queried, length) {
  // grouped samples of S27
  const map = new Map();
  let nonzero = 0n;
  const addv = (v, c) => { if (c === 0n) return; const k = v.toString(); if (map.has(k)) map.get(k)[1] += c; else map.set(k, [v, c]); nonzero += c; };
  for (let x = 0; x < H[h].length; x++) {
    if (H[h][x] === H[h2][x] || q[x].isZero()) continue;
    const inv = ONE.div(q[x]);
    addv(inv, queried[x][1 - H[h][x]]);
    addv(inv.neg(), queried[x][1 - H[h2][x]]);
  }
  const z = length - nonzero;
  if (z > 0n) { const k = ZERO.toString(); if (map.has(k)) map.get(k)[1] += z; else map.set(k, [ZERO, z]); }
  const ent = [...map.values()].sort((a, b) => a[0].cmp(b[0]));
  return { values: ent.map(e => e[0]), counts: ent.map(e => e[1]) };
}

// exact simplex: maximise c.x s.t. A x <= b, x >= 0, b >= 0. Returns x.
function simplexMax(A, b, c) {
  const mR = A.length, nV = c.length;
  // tableau rows: [coeffs (nV), slacks (mR), rhs]
  const W = nV + mR;
  const T = [];
  for (let i = 0; i < mR; i++) {
    const row = new Array(W + 1).fill(ZERO);
    for (let j = 0; j < nV; j++) row[j] = A[i][j];
    row[nV + i] = ONE; row[W] = b[i];
    T.push(row);
  }
  const obj = new Array(W + 1).fill(ZERO);
  for (let j = 0; j < nV; j++) obj[j] = c[j].neg();
  const basis = []; for (let i = 0; i < mR; i++) basis.push(nV + i);
  for (let iter = 0; iter < 100000; iter++) {
    let e = -1;
    for (let j = 0; j < W; j++) if (obj[j].sign() < 0) { e = j; break; } // Bland
    if (e < 0) break;
    let r = -1, best = null;
    for (let i = 0; i < mR; i++) {
      if (T[i][e].sign() > 0) {
        const ratio = T[i][W].div(T[i][e]);
        if (r < 0 || ratio.lt(best) || (ratio.eq(best) && basis[i] < basis[r])) { r = i; best = ratio; }
      }
    }
    if (r < 0) throw new Error('LP unbounded');
    const pv = T[r][e];
    for (let j = 0; j <= W; j++) if (!T[r][j].isZero()) T[r][j] = T[r][j].div(pv);
    for (let i = 0; i < mR; i++) {
      if (i === r || T[i][e].isZero()) continue;
      const f = T[i][e];
      for (let j = 0; j <= W; j++) if (!T[r][j].isZero()) T[i][j] = T[i][j].sub(f.mul(T[r][j]));
    }
    if (!obj[e].isZero()) { const f = obj[e]; for (let j = 0; j <= W; j++) if (!T[r][j].isZero()) obj[j] = obj[j].sub(f.mul(T[r][j])); }
    basis[r] = e;
  }
  const xs = new Array(nV).fill(ZERO);
  for (let i = 0; i < mR; i++) if (basis[i] < nV) xs[basis[i]] = T[i][W];
  return xs;
}

function epoch(H, state, counts, params) {
  const nH = H.length, m = H[0].length;
  const l = state.l, length = state.length, q = state.q, gapPrev = state.gap_hat;
  const L = Rat.int(0).add(new Rat(length, 1n));
  const Nenc = Nenclosure(params.beta1, l);
  const seen = counts.seen, queried = counts.queried;
  let labels = 0n;
  for (let x = 0; x < m; x++) labels += queried[x][0] + queried[x][1];
  const support = []; for (let x = 0; x < m; x++) if (seen[x] > 0n) support.push(x);
  const px = seen.map(s => new Rat(s, length));
  const mat = (f) => H.map((_, a) => H.map((_, b) => f(a, b)));
  const rho = mat((a, b) => { let s = 0n; for (let x = 0; x < m; x++) if (H[a][x] !== H[b][x]) s += seen[x]; return new Rat(s, length); });
  const minq = mat((a, b) => {
    if (a === b || rho[a][b].isZero()) return null;
    let mq = null; for (const x of support) if (H[a][x] !== H[b][x]) mq = mq === null ? q[x] : rmin(mq, q[x]);
    return mq;
  });
  const [b3lo, b3hi] = constInterval(params.beta3, 512);
  const alpha = mat(() => null), W = mat(() => null), weight = mat(() => null);
  for (let a = 0; a < nH; a++) for (let b = a + 1; b < nH; b++) {
    if (rho[a][b].isZero()) { W[a][b] = enc(ZERO, ZERO); W[b][a] = enc(ZERO, ZERO); continue; }
    const mq = minq[a][b];
    if (mq.isZero()) continue;
    const den = Rat.int(5).mul(L).mul(rho[a][b]);
    const X = Rat.int(2).mul(b3lo).mul(mq).div(den);
    let al;
    if (X.isZero()) al = ZERO; else al = sqrtRel(X, 72);
    alpha[a][b] = al; alpha[b][a] = al;
    const w = sqrtRel(mq.div(rho[a][b]), 72);
    weight[a][b] = w; weight[b][a] = w;
    const smp = samplesFor(H, a, b, q, queried, length);
    let lo, hi;
    if (al.isZero()) { // alpha -> 0 limit: the mean
      let s = ZERO; smp.values.forEach((v, i) => { s = s.add(v.mul(new Rat(smp.counts[i], 1n))); });
      lo = hi = s.div(L);
    } else[lo, hi] = catoniRoot(smp.values, smp.counts, al);
    W[a][b] = enc(lo, hi); W[b][a] = enc(hi.neg(), lo.neg());
  }
  // LP over eta on support
  const S = support, nS = S.length;
  const rows = []; // {coef: Rat[nS], const: Rat} with w*(R(a)-R(b)-Wt) = coef.eta + const
  for (let a = 0; a < nH; a++) for (let b = 0; b < nH; b++) {
    if (a === b || weight[a][b] === null) continue;
    const w = weight[a][b];
    const Wt = W[a][b].lo.add(W[a][b].hi).mul(HALF);
    const coef = new Array(nS).fill(ZERO); let cst = Wt.neg();
    S.forEach((x, j) => {
      if (H[a][x] === H[b][x]) return;
      // R(a)-R(b) at x: h(x)=0 -> p eta, h(x)=1 -> p (1-eta)
      const sa = H[a][x] === 0 ? 1 : -1; // R(a) contribution p*(sa*eta + (H[a][x]))
      coef[j] = coef[j].add(px[x].mul(Rat.int(2 * sa)));
      cst = cst.add(px[x].mul(Rat.int(H[a][x] - H[b][x])));
    });
    rows.push({ coef: coef.map(c => c.mul(w)), cst: cst.mul(w) });
  }
  let eta, lpObj;
  if (rows.length === 0) { eta = S.map(() => HALF); lpObj = ZERO; }
  else {
    // coef.eta + cst <= s ; s = shift0 - t ; coef.eta + t <= shift0 - cst ; t <= shift0 ; eta <= 1
    let shift0 = ZERO;
    for (const r of rows) shift0 = rmax(shift0, r.cst); // need shift0 - cst >= 0
    const A = [], bb = [];
    for (const r of rows) { A.push([...r.coef, ONE]); bb.push(shift0.sub(r.cst)); }
    // coefficients may be negative; eta <= 1 rows
    for (let j = 0; j < nS; j++) { const row = new Array(nS + 1).fill(ZERO); row[j] = ONE; A.push(row); bb.push(ONE); }
    { const row = new Array(nS + 1).fill(ZERO); row[nS] = ONE; A.push(row); bb.push(shift0); }
    const c = new Array(nS + 1).fill(ZERO); c[nS] = ONE;
    const sol = simplexMax(A, bb, c);
    eta = sol.slice(0, nS);
    // exact objective at eta
    lpObj = ZERO;
    for (const r of rows) { let v = r.cst; r.coef.forEach((cf, j) => { v = v.add(cf.mul(eta[j])); }); lpObj = rmax(lpObj, v); }
  }
  const etaFull = new Array(m).fill(null); S.forEach((x, j) => { etaFull[x] = eta[j]; });
  const risk = H.map(h => { let r = ZERO; S.forEach((x, j) => { r = r.add(px[x].mul(h[x] === 0 ? eta[j] : ONE.sub(eta[j]))); }); return r; });
  let hs = 0; let bestv = null;
  for (let h = 0; h < nH; h++) { const v = risk[h].add(params.beta2.mul(gapPrev[h])); if (bestv === null || v.lt(bestv)) { bestv = v; hs = h; } }
  const el = epsI(l);
  const base = risk[hs].add(params.beta2.mul(gapPrev[hs]));
  const gap = risk.map(r => rmax(el, r.sub(base)));
  const layers = []; for (let i = 0; i <= l; i++) { const e = epsI(i); layers.push(H.map((_, h) => h).filter(h => gap[h].le(e))); }
  const level = gap.map(g => { let k = 0; for (let i = 0; i <= l; i++) if (g.le(epsI(i))) k = i; return k; });
  const nextq = [];
  for (let x = 0; x < m; x++) {
    let best = ZERO;
    for (let a = 0; a < nH; a++) for (let b = a + 1; b < nH; b++) {
      if (H[a][x] === H[b][x]) continue;
      const v = rho[a][b].mul(pow2(2 * (Math.min(level[a], level[b]) - l - 1)));
      best = rmax(best, v);
    }
    nextq.push(best);
  }
  const record = {
    l, tau: state.tau, length, N: enc(Nenc.lo, Nenc.hi), q, labels_requested: labels, support, empirical_x: px,
    rho, min_q: minq, alpha, W, weight, eta_hat: etaFull, lp_objective: lpObj, lp_method: 'exact simplex (Bland) over rationals',
    risk_hat: risk, h_star_hat: hs, gap_hat: gap, layers, next_q: nextq,
  };
  const nl = lengthOf(params, l + 1).len;
  const next = { l: l + 1, tau: state.tau + length, length: nl, q: nextq, gap_hat: gap };
  return { record, next };
}
function stateOut(s) { return { l: s.l, tau: s.tau, length: s.length, q: s.q, gap_hat: s.gap_hat }; }

function calruptionEpoch(req) {
  const H = parseHypotheses(req.hypotheses), m = H[0].length, nH = H.length;
  const params = parseParams(req.params, nH);
  const st = req.state; if (st === null || typeof st !== 'object') bad('state must be an object');
  const l = parseSmallInt(st.l, 'state.l', 1, 100000);
  const tau = parseInt_(st.tau, 'state.tau', 1);
  const length = parseInt_(st.length, 'state.length', 1);
  const exp = lengthOf(params, l).len;
  if (length !== exp) bad(`state.length must be ceil(beta1 4^l) = ${exp}, got ${length}`);
  const q = parseList(st.q, 'state.q', m).map((v, x) => { const r = parseRat(v, `state.q[${x}]`); if (r.sign() < 0 || r.gt(ONE)) bad(`state.q[${x}] must be in [0, 1]`); return r; });
  const gap = parseList(st.gap_hat, 'state.gap_hat', nH).map((v, h) => { const r = parseRat(v, `state.gap_hat[${h}]`); if (r.sign() < 0) bad(`state.gap_hat[${h}] must be >= 0`); return r; });
  const counts = parseCounts(req.counts, m, q, length, 'counts');
  const { record, next } = epoch(H, { l, tau, length, q, gap_hat: gap }, counts, params);
  return { format: 'cral-epoch-result', version: 1, record, state: stateOut(next) };
}
function parseCounts(c, m, q, length, f) {
  if (c === null || typeof c !== 'object') bad(`${f} must be an object`);
  const seen = parseList(c.seen, `${f}.seen`, m).map((v, x) => parseInt_(v, `${f}.seen[${x}]`, 0));
  const queried = parseList(c.queried, `${f}.queried`, m).map((v, x) => parseList(v, `${f}.queried[${x}]`, 2).map((w, k) => parseInt_(w, `${f}.queried[${x}][${k}]`, 0)));
  let tot = 0n; for (const s of seen) tot += s;
  if (tot !== length) bad(`${f}.seen must sum to the epoch length ${length}, got ${tot}`);
  for (let x = 0; x < m; x++) {
    if (queried[x][0] + queried[x][1] > seen[x]) bad(`${f}.queried[${x}] sums to more than ${f}.seen[${x}]`);
    if (q && q[x].isZero() && queried[x][0] + queried[x][1] > 0n) bad(`${f}.queried[${x}] must be [0, 0] where q is 0`);
  }
  return { seen, queried };
}

function calruption(req) {
  const H = parseHypotheses(req.hypotheses), m = H[0].length, nH = H.length;
  const tape = parseTape(req.tape, m);
  const params = parseParams(req.params, nH);
  const n = tape.n;
  let state = { l: 1, tau: 1n, length: lengthOf(params, 1).len, q: new Array(m).fill(ONE), gap_hat: new Array(nH).fill(ZERO) };
  const epochs = [];
  let labels = 0n, output = 0;
  const N = BigInt(n);
  for (;;) {
    const end = state.tau + state.length - 1n;
    const seen = new Array(m).fill(0n), queried = []; for (let x = 0; x < m; x++) queried.push([0n, 0n]);
    const last = end <= N ? end : N;
    for (let t = Number(state.tau); t <= Number(last); t++) {
      const x = tape.x[t - 1];
      seen[x] += 1n;
      if (tape.u[t - 1].lt(state.q[x])) { queried[x][tape.y[t - 1]] += 1n; labels += 1n; }
    }
    if (end > N) break;
    const { record, next } = epoch(H, state, { seen, queried }, params);
    epochs.push(record); output = record.h_star_hat;
    state = next;
    if (state.tau > N) break;
  }
  return {
    format: 'cral-trace', version: 1, algorithm: 'calruption', params: req.params, n, epochs,
    final_epoch: state.l, unfinished_rounds: N - state.tau + 1n, labels_requested: labels, output,
  };
}

// ---------------------------------------------------------------- catoni_root request
function catoniReq(req) {
  const vals = req.values, cnts = req.counts;
  if (!Array.isArray(vals)) bad('values must be a list');
  if (!Array.isArray(cnts)) bad('counts must be a list');
  if (vals.length === 0) bad('values must not be empty');
  if (cnts.length === 0) bad('counts must not be empty');
  if (vals.length !== cnts.length) bad(`values and counts must have the same length, got ${vals.length} values and ${cnts.length} counts`);
  const V = vals.map((v, i) => { if (typeof v !== 'string') bad(`values[${i}] must be a rational "p/q" string, got ${toJSON(v)}`); return parseRat(v, `values[${i}]`); });
  const C = cnts.map((c, i) => { const b = parseInt_(c, `counts[${i}]`); if (b < 0n) bad(`counts[${i}] must be >= 0, got ${b}`); return b; });
  if (typeof req.alpha !== 'string') bad(`alpha must be a rational "p/q" string, got ${toJSON(req.alpha)}`);
  const a = parseRat(req.alpha, 'alpha');
  if (a.sign() <= 0) bad(`alpha must be > 0, got ${req.alpha}`);
  if (C.every(c => c === 0n)) bad('counts must contain a positive count');
  const [lo, hi] = catoniRoot(V, C, a);
  return { format: 'cral-catoni-root', version: 1, lo, hi };
}

// ---------------------------------------------------------------- loss_difference_samples
function ldsReq(req) {
  const H = parseHypotheses(req.hypotheses), m = H[0].length, nH = H.length;
  const calls = parseList(req.calls, 'calls');
  const results = calls.map((c, i) => {
    const f = `calls[${i}]`;
    const h = parseSmallInt(c.h, `${f}.h`, 0, nH - 1), h2 = parseSmallInt(c.h2, `${f}.h2`, 0, nH - 1);
    const q = parseList(c.q, `${f}.q`, m).map((v, x) => { const r = parseRat(v, `${f}.q[${x}]`); if (r.sign() < 0 || r.gt(ONE)) bad(`${f}.q[${x}] must be in [0, 1]`); return r; });
    const length = parseInt_(c.length, `${f}.length`, 0);
    const counts = parseCounts(c.counts, m, q, length, `${f}.counts`);
    const s = samplesFor(H, h, h2, q, counts.queried, length);
    return { values: s.values, counts: s.counts };
  });
  return { format: 'cral-samples', version: 1, results };
}

// ---------------------------------------------------------------- sample_tape (cral-tape-v1)
function le8(k) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt.asUintN(64, k)); return b; }
function shake(parts, len) { const h = crypto.createHash('shake256', { outputLength: len }); for (const p of parts) h.update(p); return h.digest(); }
function sampleTape(req) {
  const inst = req.instance; if (inst === null || typeof inst !== 'object') bad('instance must be an object');
  const nu = parseList(inst.nu, 'instance.nu').map((v, i) => { const r = parseRat(v, `instance.nu[${i}]`); if (r.sign() < 0) bad(`instance.nu[${i}] must be >= 0`); return r; });
  const m = nu.length;
  if (m < 1) bad('instance.nu must not be empty');
  let tot = ZERO; for (const v of nu) tot = tot.add(v);
  if (!tot.eq(ONE)) bad('instance.nu must sum to 1');
  const eta = parseList(inst.eta, 'instance.eta', m).map((v, i) => { const r = parseRat(v, `instance.eta[${i}]`); if (r.sign() < 0 || r.gt(ONE)) bad(`instance.eta[${i}] must be in [0, 1]`); return r; });
  const adv = req.adversary; if (adv === null || typeof adv !== 'object') bad('adversary must be an object');
  const n = parseSmallInt(adv.n, 'adversary.n', 0);
  const segs = parseList(adv.segments, 'adversary.segments');
  let expect = 1;
  const etaSeg = segs.map((s, i) => {
    const f = `adversary.segments[${i}]`;
    const st = parseSmallInt(s.start, `${f}.start`, 1), en = parseSmallInt(s.end, `${f}.end`, st);
    if (st !== expect) bad(`${f}.start must be ${expect}, got ${st}`);
    expect = en + 1;
    const g = parseRat(s.gamma, `${f}.gamma`);
    if (g.sign() < 0 || g.gt(ONE)) bad(`${f}.gamma must be in [0, 1]`);
    let tgt = null;
    if (s.target !== null && s.target !== undefined) tgt = parseList(s.target, `${f}.target`, m).map((v, x) => v === null ? null : parseRat(v, `${f}.target[${x}]`));
    const e = eta.map((v, x) => (tgt === null || tgt[x] === null) ? v : ONE.sub(g).mul(v).add(g.mul(tgt[x])));
    return { st, en, e };
  });
  if (n > 0 && expect !== n + 1) bad(`adversary.segments must cover 1..${n}`);
  const seed = parseInt_(req.seed, 'seed', 0);
  if (seed >= (1n << 64n)) bad('seed must be < 2^64');
  const cum = []; { let c = ZERO; for (const v of nu) { c = c.add(v); cum.push(c); } }
  const X = [], Y = [], U = [];
  let blockIdx = -1, block = null;
  const T64 = 1n << 64n;
  function extWord(t, j, k) {
    const buf = shake([Buffer.from('cral-tape-v1/ext', 'ascii'), le8(seed), le8(BigInt(t)), Buffer.from([j])], 8 * (k + 1));
    return buf.readBigUInt64LE(8 * k);
  }
  let si = 0;
  for (let t = 1; t <= n; t++) {
    const b = Math.floor((t - 1) / 1024), r = (t - 1) % 1024;
    if (b !== blockIdx) { block = shake([Buffer.from('cral-tape-v1/block', 'ascii'), le8(seed), le8(BigInt(b))], 24576); blockIdx = b; }
    const wx = block.readBigUInt64LE(8 * 3 * r), wy = block.readBigUInt64LE(8 * (3 * r + 1)), wu = block.readBigUInt64LE(8 * (3 * r + 2));
    // x
    let P = wx, d = 64n, k = 0, x;
    for (;;) {
      const D = 1n << d;
      // i = #{k : c_k <= lo}, lo = P/D
      let i = 0; while (i < m && cum[i].n * D <= P * cum[i].d) i++;
      if (i < m && (P + 1n) * cum[i].d <= cum[i].n * D) { x = i; break; }
      P = P * T64 + extWord(t, 0, k); k++; d += 64n;
    }
    while (si < etaSeg.length && etaSeg[si].en < t) si++;
    const c = etaSeg[si].e[x];
    P = wy; d = 64n; k = 0; let y;
    for (;;) {
      const D = 1n << d;
      if ((P + 1n) * c.d <= c.n * D) { y = 1; break; }
      if (P * c.d >= c.n * D) { y = 0; break; }
      P = P * T64 + extWord(t, 1, k); k++; d += 64n;
    }
    X.push(x); Y.push(y); U.push(new Rat(wu, T64));
  }
  return { format: 'cral-tape', version: 1, generator: 'cral-tape-v1', seed, x: X, y: Y, u: U };
}

// ---------------------------------------------------------------- dispatch
const IMPLEMENTS = ['passive', 'robust_cal', 'robust_cal_vanilla', 'calruption', 'calruption_epoch', 'catoni_root', 'sample_tape', 'loss_difference_samples'];
function answer(req) {
  try {
    if (req === null || typeof req !== 'object' || Array.isArray(req)) bad('the request must be a JSON object');
    switch (req.algorithm) {
      case 'describe': return { format: 'cral-describe', version: 1, implements: IMPLEMENTS, arithmetic: 'exact', tape_formats: ['json'], name: 'outsider-js', serve: true };
      case 'passive': return passive(req);
      case 'robust_cal': return robustCal(req, false);
      case 'robust_cal_vanilla': return robustCal(req, true);
      case 'calruption': return calruption(req);
      case 'calruption_epoch': return calruptionEpoch(req);
      case 'catoni_root': return catoniReq(req);
      case 'sample_tape': return sampleTape(req);
      case 'loss_difference_samples': return ldsReq(req);
      default: bad(`algorithm: unknown algorithm ${JSON.stringify(req.algorithm)}`);
    }
  } catch (e) {
    if (e instanceof BadInput) return { format: 'cral-error', version: 1, error: 'ValueError', message: e.message };
    throw e;
  }
}
function errDoc(msg) { return { format: 'cral-error', version: 1, error: 'ValueError', message: msg }; }

function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--serve' || process.env.CRAL_SERVE === '1') {
    let buf = '';
    const handle = (line) => {
      if (!line.trim()) return;
      let out;
      try { out = answer(parseJSON(line)); }
      catch (e) { out = (e instanceof SyntaxError) ? errDoc('request: invalid JSON: ' + e.message) : { format: 'cral-error', version: 1, error: 'RuntimeError', message: String(e && e.stack || e).slice(0, 2000) }; }
      fs.writeSync(1, toJSON(out) + '\n');
    };
    process.stdin.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      let i;
      while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); handle(line); }
    });
    process.stdin.on('end', () => { if (buf.trim()) handle(buf); process.exit(0); });
    return;
  }
  const path = args[0] || process.env.CRAL_REQUEST;
  const text = path ? fs.readFileSync(path, 'utf8') : fs.readFileSync(0, 'utf8');
  let req, out;
  try { req = parseJSON(text); } catch (e) { out = errDoc('request: invalid JSON: ' + e.message); }
  if (!out) out = answer(req);
  const s = toJSON(out) + '\n';
  const outPath = (req && typeof req.output === 'string') ? req.output : process.env.CRAL_OUTPUT;
  if (outPath) fs.writeFileSync(outPath, s); else fs.writeSync(1, s);
}
main();
