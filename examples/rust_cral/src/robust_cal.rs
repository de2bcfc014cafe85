//! RobustCAL (Algorithm 1) with the enlarged elimination threshold, and its vanilla form
//! (the remark after Theorem 4.1; the appendix's counter-example section shows why the
//! vanilla rule fails under early corruption). Follows reference/robust_cal.py:
//!
//! * checkpoints at t = 2^k, k >= 1 (line 7, "log(t) in N");
//! * y_t is queried iff x_t is in Dis(V_t) (line 4); L^_t(h) = (1/t) * mistakes of h on
//!   the queried rounds s <= t (line 8), h^_t its argmin over V_t, ties -> lowest index;
//! * rho^_t(h, h^_t) = (1/t) * #{s <= t : h(x_s) != h^_t(x_s)} over all rounds (line 9);
//! * V_{t+1} = {h in V_t : L^_t(h) - L^_t(h^_t) <= threshold} (line 10), decided
//!   exactly (certified::decide_le), with the threshold
//!   modified: sqrt(2 beta_t rho / t) + 3 beta_t / (2t) + rho / 2, or
//!   vanilla: sqrt(2 beta_t rho / t) + 3 beta_t / (2t);
//! * output: argmin_{h in V_{n+1}} L^_n(h), ties -> lowest index.

use crate::certified::{decide_le, sqrt_enclosure, Enclosure, ScaledLog, START_BITS};
use crate::fail::{Fail, Res};
use crate::inputs::{Hypotheses, Tape};
use crate::json::{int, obj, string, Json};
use crate::params::Params;
use crate::passive::{argmin_lowest_index, mistakes, risks_json};
use crate::rational::Rat;

/// Dis(V): the points where two members of V disagree (empty when |V| < 2).
fn disagreement_region(h: &Hypotheses, members: &[usize]) -> Vec<bool> {
    let mut dis = vec![false; h.m];
    if let Some((&first, rest)) = members.split_first() {
        for &other in rest {
            for x in 0..h.m {
                dis[x] |= h.rows[other][x] != h.rows[first][x];
            }
        }
    }
    dis
}

/// The right-hand side of line 10 enclosed from an enclosure of beta_t.
fn threshold_enclosure(beta: &Enclosure, rho: &Rat, t: u64, vanilla: bool, bits: u64) -> Enclosure {
    let two_rho_over_t = rho.mul(&Rat::ratio(2, t));
    let root = sqrt_enclosure(&beta.scale(&two_rho_over_t), bits);
    let bound = root.add(&beta.scale(&Rat::ratio(3, 2 * t)));
    // The deliberately broken build (feature "broken", README.md) drops the corruption
    // term 1/2 rho^ of the modified rule while still reporting the modified rule.
    let corruption_term = !vanilla && !cfg!(feature = "broken");
    if corruption_term {
        bound.add(&Enclosure::point(rho.mul(&Rat::ratio(1, 2))))
    } else {
        bound
    }
}

/// beta_t's enclosures by precision: line 10 asks for the same ones for every h.
struct LogCache {
    beta: ScaledLog,
    done: Vec<(u64, Enclosure)>,
}

impl LogCache {
    fn at(&mut self, bits: u64) -> Enclosure {
        if let Some((_, e)) = self.done.iter().find(|(b, _)| *b == bits) {
            return e.clone();
        }
        let e = self.beta.enclosure(bits);
        self.done.push((bits, e.clone()));
        e
    }
}

fn enclosure_json(e: &Enclosure) -> Json {
    obj(vec![("lo", Json::Str(e.lo.text())), ("hi", Json::Str(e.hi.text()))])
}

fn indices_json(v: &[usize]) -> Json {
    Json::Arr(v.iter().map(|&i| int(i as u64)).collect())
}

/// Lines 8-10 at checkpoint t = 2^k: the checkpoint record and V_{t+1}.
#[allow(clippy::too_many_arguments)]
fn checkpoint_update(
    h: &Hypotheses, version_space: &[usize], seen: &[u64], queried: &[[u64; 2]], labels: u64, t: u64, k: u64,
    params: &Params, vanilla: bool,
) -> Res<(Json, Vec<usize>)> {
    let risks = mistakes(h, queried, version_space.iter().copied()); // line 8 (numerators over t)
    let h_hat = argmin_lowest_index(&risks);
    let mut beta = LogCache { beta: params.robust_cal_beta(k), done: Vec::new() }; // line 9
    let num_h = h.rows.len();
    let mut rho_json = vec![Json::Null; num_h];
    let mut thresholds = vec![Json::Null; num_h];
    let mut kept = Vec::new();
    for &i in version_space {
        let differ: u64 = (0..h.m).filter(|&x| h.rows[i][x] != h.rows[h_hat][x]).map(|x| seen[x]).sum();
        let rho = Rat::ratio(differ as i64, t);
        let gap = Rat::ratio(risks[i].unwrap() as i64 - risks[h_hat].unwrap() as i64, t);
        let (keep, enclosure) =
            decide_le(&gap, |bits| threshold_enclosure(&beta.at(bits), &rho, t, vanilla, bits))
                .map_err(|why| Fail { kind: "ArithmeticError", message: why })?;
        rho_json[i] = Json::Str(rho.text());
        thresholds[i] = enclosure_json(&enclosure);
        if keep {
            kept.push(i); // line 10
        }
    }
    let record = obj(vec![
        ("t", int(t)),
        ("version_space", indices_json(version_space)),
        ("labels_requested", int(labels)),
        ("h_hat", int(h_hat as u64)),
        ("empirical_risk", risks_json(&risks, t)),
        ("disagreement", Json::Arr(rho_json)),
        ("beta", enclosure_json(&beta.at(START_BITS))),
        ("threshold", Json::Arr(thresholds)),
        ("next_version_space", indices_json(&kept)),
    ]);
    Ok((record, kept))
}

pub fn robust_cal(h: &Hypotheses, tape: &Tape, params: &Params, vanilla: bool) -> Res<Json> {
    let mut version_space: Vec<usize> = (0..h.rows.len()).collect(); // V_1 = H
    let mut dis = disagreement_region(h, &version_space);
    let mut seen = vec![0u64; h.m]; // unlabeled rounds per point (rho^, line 9)
    let mut queried = vec![[0u64; 2]; h.m]; // queried labels per (x, y) (L^, line 8)
    let mut labels = 0u64;
    let mut checkpoints = Vec::new();
    let (mut next_checkpoint, mut k) = (2u64, 1u64);
    for (s, (&x, &y)) in tape.x.iter().zip(&tape.y).enumerate() {
        let t = s as u64 + 1;
        seen[x] += 1;
        if dis[x] {
            // line 4: query iff x_t in Dis(V_t)
            queried[x][y as usize] += 1;
            labels += 1;
        }
        if t == next_checkpoint {
            // line 7: log2 t in {1, 2, ...}
            let (record, kept) = checkpoint_update(h, &version_space, &seen, &queried, labels, t, k, params, vanilla)?;
            checkpoints.push(record);
            version_space = kept;
            dis = disagreement_region(h, &version_space);
            next_checkpoint *= 2;
            k += 1;
        }
    }
    let n = tape.n() as u64;
    let final_risks = mistakes(h, &queried, version_space.iter().copied());
    let algorithm = if vanilla { "robust_cal_vanilla" } else { "robust_cal" };
    Ok(obj(vec![
        ("format", string("cral-trace")),
        ("version", int(1)),
        ("algorithm", string(algorithm)),
        ("vanilla", Json::Bool(vanilla)),
        ("params", params.to_json()),
        ("n", int(n)),
        ("checkpoints", Json::Arr(checkpoints)),
        ("final_version_space", indices_json(&version_space)),
        ("final_empirical_risk", risks_json(&final_risks, n)),
        ("labels_requested", int(labels)),
        ("output", int(argmin_lowest_index(&final_risks) as u64)),
    ]))
}
