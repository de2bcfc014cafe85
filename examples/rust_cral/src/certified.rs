//! Certified rational enclosures of the irrational quantities RobustCAL compares
//! (Algorithm 1, lines 9-10: beta_t = c ln(r) and a square root), and the exact
//! decision of "rational <= irrational" by refinement.
//!
//! Every enclosure is computed with integers and directed rounding (floor for lower
//! ends, ceiling for upper ends), so [lo, hi] provably contains the real number. The
//! procedures follow reference/certified.py step for step (same precision schedule,
//! same series and stopping rule, same rounding), so the enclosures this program
//! reports are the reference's to the bit: the cross-check compares the midpoints of
//! enclosures of irrationals with a relative tolerance of 2^-60 (properties/tolerances.py),
//! which an equally valid but differently rounded 64-bit enclosure of a small threshold
//! would not meet.

use crate::bigint::{BigInt, BigUint};
use crate::rational::Rat;

/// decide_le's first precision and its cap (reference/certified.py: START_BITS, MAX_BITS).
pub const START_BITS: u64 = 64;
pub const MAX_BITS: u64 = 1 << 15;

/// A closed rational interval [lo, hi] certified to contain a real number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enclosure {
    pub lo: Rat,
    pub hi: Rat,
}

impl Enclosure {
    pub fn point(v: Rat) -> Enclosure {
        Enclosure { lo: v.clone(), hi: v }
    }

    pub fn is_point(&self) -> bool {
        self.lo == self.hi
    }

    pub fn add(&self, o: &Enclosure) -> Enclosure {
        Enclosure { lo: self.lo.add(&o.lo), hi: self.hi.add(&o.hi) }
    }

    /// factor * [lo, hi] for a rational factor >= 0 (the ends keep their order).
    pub fn scale(&self, factor: &Rat) -> Enclosure {
        assert!(!factor.is_negative(), "scale factor must be >= 0");
        Enclosure { lo: self.lo.mul(factor), hi: self.hi.mul(factor) }
    }
}

fn ceil_div(a: &BigUint, b: &BigUint) -> BigUint {
    let (q, r) = a.divmod(b);
    if r.is_zero() {
        q
    } else {
        q.add_small(1)
    }
}

/// Integers L <= 2^P * 2 atanh(p/q) <= U for 0 <= p/q <= 1/3, P = precision.
///
/// 2 atanh(z) = sum_j 2 z^(2j+1) / (2j+1). Each term is rounded down into L and up into
/// U; after j terms the rest of the series is at most 2 z^(2j+1) / ((2j+1)(1 - z^2))
/// (the remaining terms are dominated by a geometric series of ratio z^2), which is
/// added, rounded up, to U once it is at most one unit.
fn atanh_series_bounds(p: &BigUint, q: &BigUint, precision: u64) -> (BigUint, BigUint) {
    let scale = BigUint::one().shl(precision);
    let (mut lower, mut upper) = (BigUint::zero(), BigUint::zero());
    let (pp, qq) = (p.mul(p), q.mul(q));
    let qq_minus_pp = qq.sub(&pp);
    let (mut power_p, mut power_q) = (p.clone(), q.clone()); // z^(2j+1) = power_p / power_q
    let mut j: u64 = 0;
    loop {
        let num = power_p.mul_small(2).mul(&scale);
        let den = power_q.mul(&BigUint::from_u64(2 * j + 1));
        let (floor, rem) = num.divmod(&den);
        upper = upper.add(&if rem.is_zero() { floor.clone() } else { floor.add_small(1) });
        lower = lower.add(&floor);
        j += 1;
        power_p = power_p.mul(&pp);
        power_q = power_q.mul(&qq);
        let tail_num = power_p.mul_small(2).mul(&scale).mul(&qq);
        let tail_den = BigUint::from_u64(2 * j + 1).mul(&power_q).mul(&qq_minus_pp);
        let tail = ceil_div(&tail_num, &tail_den);
        if tail <= BigUint::one() || p.is_zero() {
            return (lower, upper.add(&tail));
        }
    }
}

fn bit_length_u64(v: u64) -> u64 {
    64 - v.leading_zeros() as u64
}

/// [lo, hi] containing ln r for a rational r > 0, of width about 2^-bits; ln 1 = 0 exactly.
///
/// Argument reduction: r = 2^k s with s in [1, 2), so ln r = ln s + k ln 2, and
/// ln s = 2 atanh((s-1)/(s+1)) with (s-1)/(s+1) in [0, 1/3), ln 2 = 2 atanh(1/3). The
/// working precision carries guard bits for the (|k| + 1)(terms + 2) units of rounding.
pub fn ln_enclosure(r: &Rat, bits: u64) -> Enclosure {
    assert!(!r.is_negative() && !r.is_zero(), "ln needs r > 0");
    if *r == Rat::from_int(1) {
        return Enclosure::point(Rat::zero());
    }
    let mut k: i64 = r.numer().magnitude().bits() as i64 - r.denom().bits() as i64;
    let mut s = r.mul_pow2(-k);
    if s < Rat::from_int(1) {
        k -= 1;
        s = s.mul_pow2(1);
    }
    let precision = bits + 4 + bit_length_u64(k.unsigned_abs() + 1) + bit_length_u64(bits);
    let one = Rat::from_int(1);
    let z = s.sub(&one).div(&s.add(&one));
    let (s_lo, s_hi) = atanh_series_bounds(z.numer().magnitude(), z.denom(), precision);
    let (two_lo, two_hi) = atanh_series_bounds(&BigUint::one(), &BigUint::from_u64(3), precision);
    let kk = BigInt::from_i64(k);
    let (s_lo, s_hi) = (BigInt::from_biguint(s_lo), BigInt::from_biguint(s_hi));
    let (two_lo, two_hi) = (BigInt::from_biguint(two_lo), BigInt::from_biguint(two_hi));
    // k ln 2 is bounded below by k * two_lo when k >= 0 and by k * two_hi when k < 0
    let (lo, hi) = if k >= 0 {
        (s_lo.add(&kk.mul(&two_lo)), s_hi.add(&kk.mul(&two_hi)))
    } else {
        (s_lo.add(&kk.mul(&two_hi)), s_hi.add(&kk.mul(&two_lo)))
    };
    let scale = BigUint::one().shl(precision);
    Enclosure { lo: Rat::new(lo, scale.clone()), hi: Rat::new(hi, scale) }
}

/// The square root of a rational whose numerator and denominator are perfect squares.
fn exact_sqrt(a: &Rat) -> Option<Rat> {
    let (n, d) = (a.numer().magnitude(), a.denom());
    let (rn, rd) = (n.isqrt(), d.isqrt());
    if rn.mul(&rn) == *n && rd.mul(&rd) == *d {
        Some(Rat::new(BigInt::from_biguint(rn), rd))
    } else {
        None
    }
}

/// [lo, hi] containing sqrt(v) for every v in `value` (value.lo >= 0): the ends rounded
/// outward to multiples of 2^-bits; exact when value is a point with a rational root.
pub fn sqrt_enclosure(value: &Enclosure, bits: u64) -> Enclosure {
    assert!(!value.lo.is_negative(), "sqrt needs a non-negative argument");
    if value.is_point() {
        if let Some(root) = exact_sqrt(&value.lo) {
            return Enclosure::point(root);
        }
    }
    let lo_scaled = value.lo.mul_pow2(2 * bits as i64);
    let hi_scaled = value.hi.mul_pow2(2 * bits as i64);
    let lo = lo_scaled.floor().magnitude().isqrt();
    let hi = hi_scaled.ceil().magnitude().isqrt().add_small(1);
    let scale = BigUint::one().shl(bits);
    Enclosure {
        lo: Rat::new(BigInt::from_biguint(lo), scale.clone()),
        hi: Rat::new(BigInt::from_biguint(hi), scale),
    }
}

/// A log constant coefficient * ln(argument) (coefficient >= 0, argument >= 1): the form
/// of beta_t (Algorithm 1, line 9) and of CALruption's constants.
#[derive(Clone, Debug)]
pub struct ScaledLog {
    pub coefficient: Rat,
    pub argument: Rat,
}

impl ScaledLog {
    pub fn enclosure(&self, bits: u64) -> Enclosure {
        ln_enclosure(&self.argument, bits).scale(&self.coefficient)
    }
}

/// Whether value <= B, where bound(bits) encloses the real B ever more tightly as bits
/// grows: the precision doubles from START_BITS until the enclosure lies on one side.
/// Returns the decision and the enclosure that settled it, or an error past MAX_BITS
/// (impossible for an irrational B, which never equals the rational value).
pub fn decide_le<F: FnMut(u64) -> Enclosure>(value: &Rat, mut bound: F) -> Result<(bool, Enclosure), String> {
    let mut bits = START_BITS;
    while bits <= MAX_BITS {
        let enclosure = bound(bits);
        if *value <= enclosure.lo {
            return Ok((true, enclosure));
        }
        if *value > enclosure.hi {
            return Ok((false, enclosure));
        }
        bits *= 2;
    }
    Err(format!("could not separate {} from a bound at {} bits", value.text(), MAX_BITS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln2_contains_known_digits() {
        // ln 2 = 0.693147180559945309417232121458176568...
        let e = ln_enclosure(&Rat::from_int(2), 64);
        let below = Rat::ratio(693147180559945309, 1_000_000_000_000_000_000);
        let above = Rat::ratio(693147180559945310, 1_000_000_000_000_000_000);
        assert!(e.lo >= below && e.hi <= above, "{} {}", e.lo.text(), e.hi.text());
        assert!(e.hi.sub(&e.lo) < Rat::ratio(1, 1 << 62));
    }

    #[test]
    fn ln_of_small_and_one() {
        assert!(ln_enclosure(&Rat::from_int(1), 64).is_point());
        // ln(1/2) = -ln 2
        let e = ln_enclosure(&Rat::ratio(1, 2), 64);
        let two = ln_enclosure(&Rat::from_int(2), 64);
        assert!(e.lo <= two.hi.neg() && two.lo.neg() <= e.hi);
    }

    #[test]
    fn sqrt_brackets_and_exact_points() {
        let e = sqrt_enclosure(&Enclosure::point(Rat::from_int(2)), 64);
        assert!(e.lo.mul(&e.lo) <= Rat::from_int(2) && e.hi.mul(&e.hi) >= Rat::from_int(2));
        assert_eq!(sqrt_enclosure(&Enclosure::point(Rat::ratio(9, 4)), 64), Enclosure::point(Rat::ratio(3, 2)));
        assert_eq!(sqrt_enclosure(&Enclosure::point(Rat::zero()), 64), Enclosure::point(Rat::zero()));
    }
}
