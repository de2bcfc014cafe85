//! The algorithm inputs of a run request (docs/protocol.md, section 2): the hypothesis
//! class and the tape (inline JSON or the .npy layout), validated with the reference's
//! rules (reference/instance.py validate_hypotheses, reference/tape.py Tape,
//! reference/empirical.py check_run_inputs). Passive ERM and RobustCAL never read the
//! coins u_t, but the coins are still checked: a tape with a coin outside [0, 1) is
//! not a tape.

use crate::bigint::BigUint;
use crate::fail::{bad, Res};
use crate::json::Json;
use crate::npy::{read_array, Dtype};
use crate::params::Params;
use crate::rational::parse_rational_parts;
use crate::values::{field, fields, int_at_least, label, list, text};

/// H as rows of 0/1 labels over the points 0..m-1.
pub struct Hypotheses {
    pub rows: Vec<Vec<u8>>,
    pub m: usize,
}

pub struct Tape {
    pub x: Vec<usize>,
    pub y: Vec<u8>,
}

impl Tape {
    pub fn n(&self) -> usize {
        self.x.len()
    }
}

pub fn hypotheses(v: &Json) -> Res<Hypotheses> {
    let name = "hypotheses";
    let rows = match v {
        Json::Arr(rows) => rows,
        _ => return Err(bad(format!("{} must be a sequence of label sequences, got {}", name, v.shown()))),
    };
    if rows.is_empty() {
        return Err(bad(format!("{} must not be empty", name)));
    }
    let mut m = None;
    let mut out = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let labels = match row {
            Json::Arr(labels) => labels,
            _ => return Err(bad(format!("{}[{}] must be a sequence of labels, got {}", name, i, row.to_text()))),
        };
        let m = *m.get_or_insert(labels.len());
        if labels.len() != m {
            return Err(bad(format!("{}[{}] has {} labels, expected {}", name, i, labels.len(), m)));
        }
        let row: Res<Vec<u8>> =
            labels.iter().enumerate().map(|(x, l)| label(l, &format!("{}[{}][{}]", name, i, x))).collect();
        out.push(row?);
    }
    let m = m.unwrap_or(0);
    if m == 0 {
        return Err(bad(format!("{} must label at least one point", name)));
    }
    Ok(Hypotheses { rows: out, m })
}

/// x values as read, before the range check against the hypotheses' points: each fits
/// a u64 or is kept as a big integer for the message.
struct RawTape {
    x: Vec<u64>,
    too_big: Option<(usize, BigUint)>,
    y: Vec<u8>,
}

pub fn tape(v: &Json) -> Res<RawTapeChecked> {
    let format = v.get("format");
    let raw = match format {
        Some(Json::Str(f)) if f == "cral-tape" => inline_tape(v)?,
        Some(Json::Str(f)) if f == "cral-tape-npy" => npy_tape(v)?,
        _ => {
            if !matches!(v, Json::Obj(_)) {
                return Err(bad(format!("tape must be a JSON object, got {}", v.type_name())));
            }
            return Err(bad(format!(
                "tape.format must be 'cral-tape' or 'cral-tape-npy', got {}",
                format.map_or("nothing".to_string(), |f| f.to_text())
            )));
        }
    };
    Ok(RawTapeChecked(raw))
}

/// A tape whose values are valid but not yet checked against the hypotheses.
pub struct RawTapeChecked(RawTape);

fn version_one(v: &Json) -> Res<()> {
    match v.get("version") {
        Some(Json::Num(t)) if t == "1" => Ok(()),
        other => Err(bad(format!(
            "tape.version must be 1, got {}", other.map_or("nothing".to_string(), |o| o.to_text())
        ))),
    }
}

/// seed: null or an integer in [0, 2^64); generator: null or a string.
fn provenance(v: &Json) -> Res<()> {
    if let Some(seed) = v.get("seed") {
        if *seed != Json::Null {
            let s = crate::values::big_int(seed, "tape.seed")?;
            if s.is_negative() {
                return Err(bad(format!("tape.seed must be >= 0, got {}", s.to_decimal())));
            }
            if s.magnitude().bits() > 64 {
                return Err(bad(format!("tape.seed must be <= 18446744073709551615, got {}", s.to_decimal())));
            }
        }
    }
    if let Some(g) = v.get("generator") {
        if *g != Json::Null && !matches!(g, Json::Str(_)) {
            return Err(bad(format!("tape.generator must be a string, got {}", g.to_text())));
        }
    }
    Ok(())
}

fn read_x(items: &[Json]) -> Res<(Vec<u64>, Option<(usize, BigUint)>)> {
    let mut xs = Vec::with_capacity(items.len());
    let mut too_big: Option<(usize, BigUint)> = None;
    for (i, v) in items.iter().enumerate() {
        let name = format!("tape.x[{}]", i);
        match int_at_least(v, &name, 0) {
            Ok(x) => xs.push(x),
            Err(e) if e.message.contains("too large") => {
                // a valid point index beyond any hypothesis class: kept for the range message
                let big = crate::values::big_int(v, &name)?.magnitude().clone();
                if too_big.as_ref().map_or(true, |(_, b)| big > *b) {
                    too_big = Some((i, big));
                }
                xs.push(u64::MAX);
            }
            Err(e) => return Err(e),
        }
    }
    Ok((xs, too_big))
}

fn inline_tape(v: &Json) -> Res<RawTape> {
    fields(v, "tape", &["format", "version", "x", "y", "u"], &["generator", "seed"])?;
    version_one(v)?;
    let (x, y, u) = (field(v, "x"), field(v, "y"), field(v, "u"));
    let (x, y, u) = (list(x, "tape.x")?, list(y, "tape.y")?, list(u, "tape.u")?);
    if x.is_empty() {
        return Err(bad("tape.x must not be empty (n >= 1)"));
    }
    if !(x.len() == y.len() && y.len() == u.len()) {
        return Err(bad(format!("tape fields differ in length: x {}, y {}, u {}", x.len(), y.len(), u.len())));
    }
    let (xs, too_big) = read_x(x)?;
    let ys: Res<Vec<u8>> = y.iter().enumerate().map(|(i, v)| label(v, &format!("tape.y[{}]", i))).collect();
    for (i, c) in u.iter().enumerate() {
        coin(c, i)?;
    }
    provenance(v)?;
    Ok(RawTape { x: xs, too_big, y: ys? })
}

/// A coin u_t: a rational ("p/q" or an integer) in [0, 1).
fn coin(v: &Json, i: usize) -> Res<()> {
    let name = format!("tape.u[{}]", i);
    let (neg, p, q) = match v {
        Json::Str(s) => parse_rational_parts(s).map_err(|why| bad(format!("{} {}, got {}", name, why, v.to_text())))?,
        Json::Num(t) if crate::json::is_integer_text(t) => {
            let b = crate::values::big_int(v, &name)?;
            (b.is_negative(), b.magnitude().clone(), BigUint::one())
        }
        _ => return Err(bad(format!("{} must be an exact rational (int or 'p/q'), got {}", name, v.shown()))),
    };
    if (neg && !p.is_zero()) || p >= q {
        return Err(bad(format!("{} must lie in [0, 1), got {}", name, v.to_text())));
    }
    Ok(())
}

fn npy_tape(v: &Json) -> Res<RawTape> {
    fields(v, "tape", &["format", "version", "n", "x", "y", "u_words"], &["generator", "seed"])?;
    version_one(v)?;
    let n = int_at_least(field(v, "n"), "tape.n", 1)?;
    let n = usize::try_from(n).map_err(|_| bad(format!("tape.n is too large, got {}", n)))?;
    let path = |key: &str| text(field(v, key), &format!("tape.{}", key)).map(|s| s.to_string());
    let (xp, yp, up) = (path("x")?, path("y")?, path("u_words")?);
    let xb = read_array(&xp, Dtype::I64Le, n).map_err(|e| bad(format!("tape.x {}", e)))?;
    let yb = read_array(&yp, Dtype::U8, n).map_err(|e| bad(format!("tape.y {}", e)))?;
    // every 64-bit word w is a coin w / 2^64 in [0, 1): only the layout needs checking
    read_array(&up, Dtype::U64Le, n).map_err(|e| bad(format!("tape.u_words {}", e)))?;
    let mut xs = Vec::with_capacity(n);
    for (i, chunk) in xb.chunks_exact(8).enumerate() {
        let x = i64::from_le_bytes(chunk.try_into().unwrap());
        if x < 0 {
            return Err(bad(format!("tape.x[{}] must be >= 0, got {}", i, x)));
        }
        xs.push(x as u64);
    }
    for (i, &y) in yb.iter().enumerate() {
        if y > 1 {
            return Err(bad(format!("tape.y[{}] must be the integer 0 or 1, got {}", i, y)));
        }
    }
    provenance(v)?;
    Ok(RawTape { x: xs, too_big: None, y: yb })
}

/// check_run_inputs: the parameters are for this tape and class, and every x_t is a
/// point the hypotheses label.
pub fn check_run_inputs(h: &Hypotheses, raw: RawTapeChecked, params: &Params) -> Res<Tape> {
    let raw = raw.0;
    let n = raw.x.len();
    if params.n != BigUint::from_u64(n as u64) {
        return Err(bad(format!("params.n is {} but the tape has n = {} rounds", params.n.to_decimal(), n)));
    }
    if params.num_hypotheses != BigUint::from_u64(h.rows.len() as u64) {
        return Err(bad(format!(
            "params.num_hypotheses is {} but {} hypotheses were given", params.num_hypotheses.to_decimal(), h.rows.len()
        )));
    }
    let (top_index, top_text) = match raw.too_big {
        Some((i, big)) => (Some(i), big.to_decimal()),
        None => {
            // the first index of the largest x (Python's tape.x.index(max(tape.x)))
            let top = *raw.x.iter().max().unwrap();
            let i = raw.x.iter().position(|&x| x == top).unwrap();
            (if top >= h.m as u64 { Some(i) } else { None }, top.to_string())
        }
    };
    if let Some(i) = top_index {
        return Err(bad(format!(
            "tape.x[{}] is {}, but the hypotheses label only points 0..{}", i, top_text, h.m - 1
        )));
    }
    Ok(Tape { x: raw.x.iter().map(|&x| x as usize).collect(), y: raw.y })
}
