//! Exact rationals in lowest terms with a positive denominator, so that equal values
//! have equal representations and print as the same "p/q" text (reference/exact.py's
//! fraction_text: always "p/q", zero as "0/1").

use crate::bigint::{BigInt, BigUint};
use std::cmp::Ordering;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rat {
    num: BigInt,
    den: BigUint,
}

impl Rat {
    /// num / den in lowest terms; den > 0.
    pub fn new(num: BigInt, den: BigUint) -> Rat {
        assert!(!den.is_zero(), "zero denominator");
        let g = BigUint::gcd(num.magnitude(), &den);
        if g == BigUint::one() {
            return Rat { num, den };
        }
        if num.is_zero() {
            return Rat { num, den: BigUint::one() };
        }
        let (n, _) = num.magnitude().divmod(&g);
        let (d, _) = den.divmod(&g);
        Rat { num: BigInt::new(num.is_negative(), n), den: d }
    }

    pub fn from_int(v: i64) -> Rat {
        Rat { num: BigInt::from_i64(v), den: BigUint::one() }
    }

    pub fn from_big(v: BigInt) -> Rat {
        Rat { num: v, den: BigUint::one() }
    }

    /// a / b for machine integers, b > 0.
    pub fn ratio(a: i64, b: u64) -> Rat {
        Rat::new(BigInt::from_i64(a), BigUint::from_u64(b))
    }

    pub fn zero() -> Rat {
        Rat::from_int(0)
    }

    pub fn numer(&self) -> &BigInt {
        &self.num
    }

    pub fn denom(&self) -> &BigUint {
        &self.den
    }

    pub fn is_negative(&self) -> bool {
        self.num.is_negative()
    }

    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    pub fn add(&self, o: &Rat) -> Rat {
        if self.den == o.den {
            return Rat::new(self.num.add(&o.num), self.den.clone());
        }
        Rat::new(self.num.mul_unsigned(&o.den).add(&o.num.mul_unsigned(&self.den)), self.den.mul(&o.den))
    }

    pub fn sub(&self, o: &Rat) -> Rat {
        self.add(&o.neg())
    }

    pub fn neg(&self) -> Rat {
        Rat { num: self.num.neg(), den: self.den.clone() }
    }

    pub fn mul(&self, o: &Rat) -> Rat {
        Rat::new(self.num.mul(&o.num), self.den.mul(&o.den))
    }

    /// self / o for o != 0.
    pub fn div(&self, o: &Rat) -> Rat {
        assert!(!o.is_zero(), "division by zero");
        let num = self.num.mul_unsigned(&o.den);
        let num = if o.num.is_negative() { num.neg() } else { num };
        Rat::new(num, self.den.mul(o.num.magnitude()))
    }

    /// self * 2^k for an integer k.
    pub fn mul_pow2(&self, k: i64) -> Rat {
        if k >= 0 {
            Rat::new(BigInt::new(self.num.is_negative(), self.num.magnitude().shl(k as u64)), self.den.clone())
        } else {
            Rat::new(self.num.clone(), self.den.shl(k.unsigned_abs()))
        }
    }

    pub fn floor(&self) -> BigInt {
        self.num.floor_div(&self.den)
    }

    pub fn ceil(&self) -> BigInt {
        self.num.ceil_div(&self.den)
    }

    /// The lossless text form of the project's JSON files: always "p/q".
    pub fn text(&self) -> String {
        format!("{}/{}", self.num.to_decimal(), self.den.to_decimal())
    }
}

impl PartialOrd for Rat {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Rat {
    fn cmp(&self, o: &Self) -> Ordering {
        if self.den == o.den {
            return self.num.cmp(&o.num);
        }
        self.num.mul_unsigned(&o.den).cmp(&o.num.mul_unsigned(&self.den))
    }
}

/// A rational written "p/q" or "p" (reference/exact.py's as_fraction for strings): an
/// optional '-', decimal digits, optionally '/' and decimal digits; surrounding white
/// space is allowed. Err(reason) names what is wrong; the caller adds the field.
pub fn parse_rational_text(text: &str) -> Result<Rat, String> {
    let (neg, num, den) = parse_rational_parts(text)?;
    Ok(Rat::new(BigInt::new(neg, num), den))
}

/// The parts (negative, |p|, q) of a rational text, unreduced (cheap for the tape's
/// coins, which only need a range check).
pub fn parse_rational_parts(text: &str) -> Result<(bool, BigUint, BigUint), String> {
    let t = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (p, q) = match body.split_once('/') {
        Some((p, q)) => (p, Some(q)),
        None => (body, None),
    };
    let num = BigUint::parse_decimal(p).ok_or_else(|| "must be a rational written 'p/q'".to_string())?;
    let den = match q {
        None => BigUint::one(),
        Some(q) => BigUint::parse_decimal(q).ok_or_else(|| "must be a rational written 'p/q'".to_string())?,
    };
    if den.is_zero() {
        return Err("has a zero denominator".to_string());
    }
    Ok((neg, num, den))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowest_terms_and_text() {
        assert_eq!(Rat::ratio(6, 4).text(), "3/2");
        assert_eq!(Rat::ratio(0, 5).text(), "0/1");
        assert_eq!(Rat::ratio(-6, 4).text(), "-3/2");
        assert_eq!(parse_rational_text(" 10/20 ").unwrap().text(), "1/2");
        assert_eq!(parse_rational_text("-0/7").unwrap().text(), "0/1");
        assert_eq!(parse_rational_text("5").unwrap().text(), "5/1");
        assert!(parse_rational_text("1/0").is_err());
        assert!(parse_rational_text("1.5").is_err());
        assert!(parse_rational_text("+1").is_err());
        assert!(parse_rational_text("1/-2").is_err());
    }

    #[test]
    fn arithmetic() {
        let a = Rat::ratio(1, 3);
        let b = Rat::ratio(1, 6);
        assert_eq!(a.add(&b), Rat::ratio(1, 2));
        assert_eq!(a.sub(&b), Rat::ratio(1, 6));
        assert_eq!(a.mul(&b), Rat::ratio(1, 18));
        assert_eq!(a.div(&b), Rat::from_int(2));
        assert_eq!(Rat::ratio(-7, 2).floor(), BigInt::from_i64(-4));
        assert_eq!(Rat::ratio(-7, 2).ceil(), BigInt::from_i64(-3));
        assert_eq!(Rat::ratio(3, 1).mul_pow2(-2), Rat::ratio(3, 4));
        assert!(Rat::ratio(1, 3) < Rat::ratio(1, 2));
        assert!(Rat::ratio(-1, 2) < Rat::ratio(-1, 3));
    }
}
