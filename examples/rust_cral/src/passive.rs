//! Passive learning (Section 3, Theorem 3.1): empirical risk minimisation over all n
//! labels, h_out = argmin_h R^_[1,n](h), ties towards the lowest index
//! (reference/passive.py).

use crate::inputs::{Hypotheses, Tape};
use crate::json::{int, obj, string, Json};
use crate::params::Params;
use crate::rational::Rat;

/// Mistakes of every hypothesis on the recorded rounds, from counts per (x, y): the
/// sums are exactly the paper's, aggregated by point instead of by round.
pub fn mistakes(h: &Hypotheses, counts: &[[u64; 2]], members: impl Iterator<Item = usize>) -> Vec<Option<u64>> {
    let mut out = vec![None; h.rows.len()];
    for i in members {
        let row = &h.rows[i];
        out[i] = Some(row.iter().enumerate().map(|(x, &label)| counts[x][1 - label as usize]).sum());
    }
    out
}

/// argmin over the members (those with a value), ties towards the lowest index; values
/// over one common denominator compare as their numerators.
pub fn argmin_lowest_index(values: &[Option<u64>]) -> usize {
    let mut best: Option<(usize, u64)> = None;
    for (i, v) in values.iter().enumerate() {
        if let Some(v) = *v {
            if best.map_or(true, |(_, b)| v < b) {
                best = Some((i, v));
            }
        }
    }
    best.expect("argmin over an empty set").0
}

/// Each count over t as "p/q" (null off the members).
pub fn risks_json(values: &[Option<u64>], t: u64) -> Json {
    Json::Arr(
        values
            .iter()
            .map(|v| match v {
                Some(c) => Json::Str(Rat::ratio(*c as i64, t).text()),
                None => Json::Null,
            })
            .collect(),
    )
}

pub fn passive(h: &Hypotheses, tape: &Tape, params: &Params) -> Json {
    let mut counts = vec![[0u64; 2]; h.m];
    for (&x, &y) in tape.x.iter().zip(&tape.y) {
        counts[x][y as usize] += 1;
    }
    let n = tape.n() as u64;
    let m = mistakes(h, &counts, 0..h.rows.len());
    obj(vec![
        ("format", string("cral-trace")),
        ("version", int(1)),
        ("algorithm", string("passive")),
        ("params", params.to_json()),
        ("n", int(n)),
        ("empirical_risk", risks_json(&m, n)),
        ("labels_requested", int(n)),
        ("output", int(argmin_lowest_index(&m) as u64)),
    ])
}
