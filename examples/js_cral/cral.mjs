// A cral-run program in JavaScript (Node 18+), written from docs/spec.md alone: describe,
// passive (S10) and sample_tape (S45-S46, the generator cral-tape-v1), exact arithmetic with
// BigInt rationals, and loss_difference_samples (S27, S44). Run: node examples/js_cral/cral.mjs REQUEST_PATH (or the request on stdin).
//
// JSON.parse reads every number as a double (spec S2): the seed, up to 2^64 - 1, is read from
// the request's raw text as a BigInt, and every rational arrives as a "p/q" string.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const text = process.argv[2] ? readFileSync(process.argv[2], "utf8") : readFileSync(0, "utf8");
const request = JSON.parse(text);

// -- rationals (S1) ---------------------------------------------------------------------------
const abs = (a) => (a < 0n ? -a : a);
const gcd = (a, b) => { a = abs(a); b = abs(b); while (b) [a, b] = [b, a % b]; return a; };
function frac(n, d = 1n) {
  if (d < 0n) { n = -n; d = -d; }
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}
function parse(value) {
  if (typeof value !== "string") throw new Error(`a rational must be a "p/q" string, got ${JSON.stringify(value)}`);
  const [p, q = "1"] = value.split("/");
  return frac(BigInt(p), BigInt(q));
}
const add = (a, b) => frac(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a, b) => frac(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a, b) => frac(a.n * b.n, a.d * b.d);
const le = (a, b) => a.n * b.d <= b.n * a.d; // a <= b
const show = (a) => `${a.n}/${a.d}`;

// -- passive (S10) ------------------------------------------------------------------------------
function passive({ hypotheses, tape, params }) {
  const n = tape.x.length;
  const risks = hypotheses.map((h) => tape.x.reduce((m, x, t) => m + (h[x] !== tape.y[t] ? 1 : 0), 0));
  const best = risks.indexOf(Math.min(...risks)); // lowest index
  return {
    format: "cral-trace", version: 1, algorithm: "passive", params, n,
    empirical_risk: risks.map((r) => show(frac(BigInt(r), BigInt(n)))),
    labels_requested: n, output: best,
  };
}

// -- sample_tape (S45-S46) --------------------------------------------------------------------
const TWO64 = 1n << 64n;
const le8 = (k) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(k)); return b; };
const shake = (parts, bytes) => createHash("shake256", { outputLength: bytes }).update(Buffer.concat(parts)).digest();
const words = (buffer) => Array.from({ length: buffer.length / 8 }, (_, k) => buffer.readBigUInt64LE(8 * k));

function block(seed, b) { // step 1
  return words(shake([Buffer.from("cral-tape-v1/block"), le8(seed), le8(b)], 3 * 1024 * 8));
}

function uniform(word, seed, t, j) { // step 2: U in [P / 2^d, (P + 1) / 2^d)
  let read = 0;
  const u = { P: word, d: 64n };
  u.more = () => {
    read += 1;
    const ext = words(shake([Buffer.from("cral-tape-v1/ext"), le8(seed), le8(t), Buffer.from([j])], 8 * read));
    u.P = u.P * TWO64 + ext[read - 1];
    u.d += 64n;
  };
  return u;
}
const lo = (u) => frac(u.P, 1n << u.d);
const hi = (u) => frac(u.P + 1n, 1n << u.d);

function below(u, c) { // step 3: U < c
  for (;;) {
    if (le(hi(u), c)) return true;
    if (le(c, lo(u))) return false;
    u.more();
  }
}

function inverseCdf(u, cdf) { // step 4: min{i : U < c_i}
  for (;;) {
    const i = cdf.filter((c) => le(c, lo(u))).length;
    if (i < cdf.length && le(hi(u), cdf[i])) return i;
    u.more();
  }
}

function etaAt(instance, adversary, t) { // S45
  const star = instance.eta.map(parse);
  const s = adversary.segments.find((g) => g.start <= t && t <= g.end);
  if (s.target === null) return star;
  const gamma = parse(s.gamma);
  return star.map((e, x) => (s.target[x] === null ? e : add(mul(sub(frac(1n), gamma), e), mul(gamma, parse(s.target[x])))));
}

function sampleTape({ instance, adversary }, seed) {
  const cdf = [];
  let total = frac(0n);
  for (const mass of instance.nu) { total = add(total, parse(mass)); cdf.push(total); }
  const x = [], y = [], u = [];
  let current = -1, w = null;
  for (let t = 1; t <= adversary.n; t += 1) {
    const b = Math.floor((t - 1) / 1024), r = (t - 1) % 1024;
    if (b !== current) { w = block(seed, b); current = b; }
    const xt = inverseCdf(uniform(w[3 * r], seed, t, 0), cdf);
    x.push(xt);
    y.push(below(uniform(w[3 * r + 1], seed, t, 1), etaAt(instance, adversary, t)[xt]) ? 1 : 0);
    u.push(show(frac(w[3 * r + 2], TWO64))); // step 6
  }
  return { format: "cral-tape", version: 1, generator: "cral-tape-v1", seed: "SEED", x, y, u };
}

// -- loss_difference_samples (S27, S44) --------------------------------------------------------
function samples({ hypotheses, calls }) {
  const results = calls.map(({ h, h2, q, counts, length }) => {
    const a = hypotheses[h], b = hypotheses[h2];
    const grouped = new Map(); // "p/q" -> [value, count]
    let nonzero = 0;
    const put = (value, c) => {
      const key = show(value);
      grouped.set(key, [value, (grouped.get(key)?.[1] ?? 0) + c]);
    };
    a.forEach((label, x) => {
      const qx = parse(q[x]);
      if (label === b[x] || qx.n === 0n) return;
      for (const y of [0, 1]) {
        const c = counts.queried[x][y];
        if (c) { put(frac(BigInt((label !== y) - (b[x] !== y)) * qx.d, qx.n), c); nonzero += c; }
      }
    });
    if (length > nonzero) put(frac(0n), length - nonzero);
    const sorted = [...grouped.values()].sort((u, v) => (le(u[0], v[0]) ? -1 : 1));
    return { values: sorted.map(([v]) => show(v)), counts: sorted.map(([, c]) => c) };
  });
  return { format: "cral-samples", version: 1, results };
}

// -- the request --------------------------------------------------------------------------------
let answer;
try {
  if (request.algorithm === "describe") {
    answer = { format: "cral-describe", version: 1, implements: ["passive", "sample_tape", "loss_difference_samples"], arithmetic: "exact", name: "js_cral" };
  } else if (request.algorithm === "passive") {
    answer = passive(request);
  } else if (request.algorithm === "loss_difference_samples") {
    answer = samples(request);
  } else if (request.algorithm === "sample_tape") {
    const seed = BigInt(/"seed"\s*:\s*(\d+)/.exec(text)[1]); // the raw token: beyond 2^53 (S2)
    // the seed goes back as the raw digits too (a double would round it)
    answer = JSON.stringify(sampleTape(request, seed)).replace('"SEED"', seed.toString());
  } else {
    throw new Error(`request.algorithm: ${request.algorithm} is not implemented`);
  }
} catch (error) {
  answer = { format: "cral-error", version: 1, error: "ValueError", message: String(error.message) };
}
const out = typeof answer === "string" ? answer : JSON.stringify(answer);
if (request.output) writeFileSync(request.output, out);
else process.stdout.write(out + "\n");
