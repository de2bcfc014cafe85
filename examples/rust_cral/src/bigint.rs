//! Arbitrary-precision integers: an unsigned magnitude (`BigUint`, 32-bit limbs) and a
//! signed integer on top (`BigInt`). Only what the algorithms need: exact rationals
//! (gcd, division) and certified enclosures (shifts, integer square roots).
//!
//! Limbs are little-endian `u32`s with no zero limb at the top, so the representation
//! of a value is unique and `==` is value equality. Products of two limbs fit a `u64`.

use std::cmp::Ordering;

const BASE_BITS: u32 = 32;
const MASK: u64 = 0xFFFF_FFFF;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BigUint {
    limbs: Vec<u32>,
}

impl BigUint {
    pub fn zero() -> Self {
        BigUint { limbs: Vec::new() }
    }

    pub fn one() -> Self {
        BigUint::from_u64(1)
    }

    pub fn from_u64(v: u64) -> Self {
        let mut r = BigUint { limbs: vec![v as u32, (v >> 32) as u32] };
        r.trim();
        r
    }

    fn from_limbs(limbs: Vec<u32>) -> Self {
        let mut r = BigUint { limbs };
        r.trim();
        r
    }

    fn trim(&mut self) {
        while let Some(&0) = self.limbs.last() {
            self.limbs.pop();
        }
    }

    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// Python's int.bit_length(): 0 for 0.
    pub fn bits(&self) -> u64 {
        match self.limbs.last() {
            None => 0,
            Some(&top) => (self.limbs.len() as u64 - 1) * 32 + (32 - top.leading_zeros()) as u64,
        }
    }

    pub fn to_u64(&self) -> Option<u64> {
        match self.limbs.len() {
            0 => Some(0),
            1 => Some(self.limbs[0] as u64),
            2 => Some(self.limbs[0] as u64 | (self.limbs[1] as u64) << 32),
            _ => None,
        }
    }

    pub fn add(&self, other: &BigUint) -> BigUint {
        let (long, short) = if self.limbs.len() >= other.limbs.len() { (self, other) } else { (other, self) };
        let mut out = Vec::with_capacity(long.limbs.len() + 1);
        let mut carry = 0u64;
        for i in 0..long.limbs.len() {
            let s = long.limbs[i] as u64 + short.limbs.get(i).copied().unwrap_or(0) as u64 + carry;
            out.push(s as u32);
            carry = s >> BASE_BITS;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        BigUint::from_limbs(out)
    }

    /// self - other; the caller guarantees other <= self.
    pub fn sub(&self, other: &BigUint) -> BigUint {
        assert!(self.cmp(other) != Ordering::Less, "BigUint subtraction would be negative");
        let mut out = Vec::with_capacity(self.limbs.len());
        let mut borrow = 0i64;
        for i in 0..self.limbs.len() {
            let mut d = self.limbs[i] as i64 - other.limbs.get(i).copied().unwrap_or(0) as i64 - borrow;
            if d < 0 {
                d += 1 << 32;
                borrow = 1;
            } else {
                borrow = 0;
            }
            out.push(d as u32);
        }
        BigUint::from_limbs(out)
    }

    pub fn mul(&self, other: &BigUint) -> BigUint {
        if self.is_zero() || other.is_zero() {
            return BigUint::zero();
        }
        let mut out = vec![0u32; self.limbs.len() + other.limbs.len()];
        for (i, &a) in self.limbs.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.limbs.iter().enumerate() {
                let t = a as u64 * b as u64 + out[i + j] as u64 + carry;
                out[i + j] = t as u32;
                carry = t >> BASE_BITS;
            }
            let mut k = i + other.limbs.len();
            while carry > 0 {
                let t = out[k] as u64 + carry;
                out[k] = t as u32;
                carry = t >> BASE_BITS;
                k += 1;
            }
        }
        BigUint::from_limbs(out)
    }

    pub fn mul_small(&self, m: u32) -> BigUint {
        let mut out = Vec::with_capacity(self.limbs.len() + 1);
        let mut carry = 0u64;
        for &a in &self.limbs {
            let t = a as u64 * m as u64 + carry;
            out.push(t as u32);
            carry = t >> BASE_BITS;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        BigUint::from_limbs(out)
    }

    pub fn add_small(&self, a: u32) -> BigUint {
        self.add(&BigUint::from_u64(a as u64))
    }

    /// (self div d, self mod d) for a one-limb divisor d > 0.
    pub fn divmod_small(&self, d: u32) -> (BigUint, u32) {
        assert!(d != 0, "division by zero");
        let mut out = vec![0u32; self.limbs.len()];
        let mut rem = 0u64;
        for i in (0..self.limbs.len()).rev() {
            let cur = rem << BASE_BITS | self.limbs[i] as u64;
            out[i] = (cur / d as u64) as u32;
            rem = cur % d as u64;
        }
        (BigUint::from_limbs(out), rem as u32)
    }

    /// (self div d, self mod d): Knuth's Algorithm D (TAOCP 4.3.1) on 32-bit limbs.
    pub fn divmod(&self, d: &BigUint) -> (BigUint, BigUint) {
        assert!(!d.is_zero(), "division by zero");
        if self.cmp(d) == Ordering::Less {
            return (BigUint::zero(), self.clone());
        }
        if d.limbs.len() == 1 {
            let (q, r) = self.divmod_small(d.limbs[0]);
            return (q, BigUint::from_u64(r as u64));
        }
        let n = d.limbs.len();
        let m = self.limbs.len();
        // normalise so that the divisor's top limb has its high bit set (D1)
        let s = d.limbs[n - 1].leading_zeros();
        let vn = shl_limbs(&d.limbs, s, n);
        let mut un = shl_limbs(&self.limbs, s, m + 1);
        let mut q = vec![0u32; m - n + 1];
        let b: u64 = 1 << 32;
        let vtop = vn[n - 1] as u64;
        let vnext = vn[n - 2] as u64;
        for j in (0..=m - n).rev() {
            // D3: estimate qhat from the top two limbs, correct it at most twice
            let num = (un[j + n] as u64) << 32 | un[j + n - 1] as u64;
            let mut qhat = num / vtop;
            let mut rhat = num % vtop;
            while qhat >= b || qhat * vnext > (rhat << 32 | un[j + n - 2] as u64) {
                qhat -= 1;
                rhat += vtop;
                if rhat >= b {
                    break;
                }
            }
            // D4: multiply and subtract
            let mut borrow: i64 = 0;
            for i in 0..n {
                let p = qhat * vn[i] as u64;
                let t = un[i + j] as i64 - borrow - (p & MASK) as i64;
                un[i + j] = t as u32;
                borrow = (p >> 32) as i64 - (t >> 32);
            }
            let t = un[j + n] as i64 - borrow;
            un[j + n] = t as u32;
            // D5-D6: qhat was one too large (rare): add the divisor back
            if t < 0 {
                qhat -= 1;
                let mut carry = 0u64;
                for i in 0..n {
                    let s2 = un[i + j] as u64 + vn[i] as u64 + carry;
                    un[i + j] = s2 as u32;
                    carry = s2 >> 32;
                }
                un[j + n] = un[j + n].wrapping_add(carry as u32);
            }
            q[j] = qhat as u32;
        }
        // D8: unnormalise the remainder
        let mut r = vec![0u32; n];
        for i in 0..n {
            let lo = (un[i] as u64) >> s;
            let hi = if s == 0 { 0 } else { (un[i + 1] as u64) << (32 - s) };
            r[i] = (lo | hi) as u32;
        }
        (BigUint::from_limbs(q), BigUint::from_limbs(r))
    }

    pub fn shl(&self, n: u64) -> BigUint {
        if self.is_zero() {
            return BigUint::zero();
        }
        let limbs = (n / 32) as usize;
        let bits = (n % 32) as u32;
        let mut out = vec![0u32; limbs];
        out.extend(shl_limbs(&self.limbs, bits, self.limbs.len() + 1));
        BigUint::from_limbs(out)
    }

    pub fn shr(&self, n: u64) -> BigUint {
        let limbs = (n / 32) as usize;
        if limbs >= self.limbs.len() {
            return BigUint::zero();
        }
        let bits = (n % 32) as u32;
        let src = &self.limbs[limbs..];
        let mut out = Vec::with_capacity(src.len());
        for i in 0..src.len() {
            let lo = (src[i] as u64) >> bits;
            let hi = if bits == 0 { 0 } else { (src.get(i + 1).copied().unwrap_or(0) as u64) << (32 - bits) };
            out.push((lo | hi) as u32);
        }
        BigUint::from_limbs(out)
    }

    pub fn gcd(a: &BigUint, b: &BigUint) -> BigUint {
        let (mut x, mut y) = (a.clone(), b.clone());
        while !y.is_zero() {
            if let (Some(xs), Some(ys)) = (x.to_u64(), y.to_u64()) {
                return BigUint::from_u64(gcd_u64(xs, ys));
            }
            let (_, r) = x.divmod(&y);
            x = y;
            y = r;
        }
        x
    }

    /// floor(sqrt(self)) by Newton's iteration from above (Python's math.isqrt).
    pub fn isqrt(&self) -> BigUint {
        if self.is_zero() {
            return BigUint::zero();
        }
        // x0 = 2^ceil(bits/2) >= sqrt(self); the iteration decreases monotonically to the floor
        let mut x = BigUint::one().shl((self.bits() + 1) / 2);
        loop {
            let (q, _) = self.divmod(&x);
            let y = x.add(&q).shr(1);
            if y.cmp(&x) != Ordering::Less {
                return x;
            }
            x = y;
        }
    }

    /// A string of ASCII decimal digits (at least one); None otherwise.
    pub fn parse_decimal(s: &str) -> Option<BigUint> {
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let mut r = BigUint::zero();
        let bytes = s.as_bytes();
        let mut i = 0;
        // nine digits at a time: 10^9 < 2^32
        while i < bytes.len() {
            let end = (i + 9).min(bytes.len());
            let mut chunk = 0u32;
            let mut scale = 1u32;
            for &c in &bytes[i..end] {
                chunk = chunk * 10 + (c - b'0') as u32;
                scale *= 10;
            }
            r = r.mul_small(scale).add_small(chunk);
            i = end;
        }
        Some(r)
    }

    pub fn to_decimal(&self) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let mut chunks = Vec::new();
        let mut x = self.clone();
        while !x.is_zero() {
            let (q, r) = x.divmod_small(1_000_000_000);
            chunks.push(r);
            x = q;
        }
        let mut s = chunks.last().unwrap().to_string();
        for c in chunks.iter().rev().skip(1) {
            s.push_str(&format!("{:09}", c));
        }
        s
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.limbs.len() != other.limbs.len() {
            return self.limbs.len().cmp(&other.limbs.len());
        }
        for i in (0..self.limbs.len()).rev() {
            if self.limbs[i] != other.limbs[i] {
                return self.limbs[i].cmp(&other.limbs[i]);
            }
        }
        Ordering::Equal
    }
}

/// limbs << s (0 <= s < 32) as exactly `len` limbs (the caller sizes it to fit).
fn shl_limbs(limbs: &[u32], s: u32, len: usize) -> Vec<u32> {
    let mut out = vec![0u32; len];
    let mut carry = 0u32;
    for (i, &l) in limbs.iter().enumerate() {
        let wide = (l as u64) << s;
        out[i] = wide as u32 | carry;
        carry = (wide >> 32) as u32;
    }
    if limbs.len() < len {
        out[limbs.len()] = carry;
    } else {
        assert!(carry == 0, "shl_limbs: result does not fit");
    }
    out
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// A signed integer: sign and magnitude, zero never negative.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BigInt {
    neg: bool,
    mag: BigUint,
}

impl BigInt {
    pub fn new(neg: bool, mag: BigUint) -> Self {
        let neg = neg && !mag.is_zero();
        BigInt { neg, mag }
    }

    pub fn from_i64(v: i64) -> Self {
        BigInt::new(v < 0, BigUint::from_u64(v.unsigned_abs()))
    }

    pub fn from_biguint(mag: BigUint) -> Self {
        BigInt::new(false, mag)
    }

    pub fn is_negative(&self) -> bool {
        self.neg
    }

    pub fn is_zero(&self) -> bool {
        self.mag.is_zero()
    }

    pub fn magnitude(&self) -> &BigUint {
        &self.mag
    }

    pub fn neg(&self) -> BigInt {
        BigInt::new(!self.neg, self.mag.clone())
    }

    pub fn add(&self, other: &BigInt) -> BigInt {
        if self.neg == other.neg {
            return BigInt::new(self.neg, self.mag.add(&other.mag));
        }
        match self.mag.cmp(&other.mag) {
            Ordering::Less => BigInt::new(other.neg, other.mag.sub(&self.mag)),
            _ => BigInt::new(self.neg, self.mag.sub(&other.mag)),
        }
    }

    pub fn mul(&self, other: &BigInt) -> BigInt {
        BigInt::new(self.neg != other.neg, self.mag.mul(&other.mag))
    }

    pub fn mul_unsigned(&self, other: &BigUint) -> BigInt {
        BigInt::new(self.neg, self.mag.mul(other))
    }

    /// floor(self / d) for d > 0 (Python's //).
    pub fn floor_div(&self, d: &BigUint) -> BigInt {
        let (q, r) = self.mag.divmod(d);
        if !self.neg {
            BigInt::new(false, q)
        } else if r.is_zero() {
            BigInt::new(true, q)
        } else {
            BigInt::new(true, q.add_small(1))
        }
    }

    /// ceil(self / d) for d > 0.
    pub fn ceil_div(&self, d: &BigUint) -> BigInt {
        self.neg().floor_div(d).neg()
    }

    pub fn to_decimal(&self) -> String {
        if self.neg {
            format!("-{}", self.mag.to_decimal())
        } else {
            self.mag.to_decimal()
        }
    }
}

impl PartialOrd for BigInt {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BigInt {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.neg, other.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.mag.cmp(&other.mag),
            (true, true) => other.mag.cmp(&self.mag),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift) so the tests need no crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn big(&mut self, max_limbs: u64) -> BigUint {
            let n = self.next() % (max_limbs + 1);
            let mut limbs: Vec<u32> = (0..n).map(|_| self.next() as u32).collect();
            // sparse top limbs exercise Algorithm D's correction steps
            if let Some(top) = limbs.last_mut() {
                if self.next() % 3 == 0 {
                    *top &= 1;
                }
            }
            BigUint::from_limbs(limbs)
        }
    }

    #[test]
    fn divmod_identity() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..5000 {
            let a = rng.big(12);
            let mut b = rng.big(6);
            if b.is_zero() {
                b = BigUint::from_u64(7);
            }
            let (q, r) = a.divmod(&b);
            assert!(r < b);
            assert_eq!(q.mul(&b).add(&r), a);
        }
    }

    #[test]
    fn decimal_round_trip_and_known_values() {
        let text = "340282366920938463463374607431768211456"; // 2^128
        let x = BigUint::parse_decimal(text).unwrap();
        assert_eq!(x, BigUint::one().shl(128));
        assert_eq!(x.to_decimal(), text);
        assert_eq!(x.bits(), 129);
        assert_eq!(BigUint::parse_decimal("000123").unwrap().to_decimal(), "123");
        assert!(BigUint::parse_decimal("12a").is_none());
        assert!(BigUint::parse_decimal("").is_none());
    }

    #[test]
    fn isqrt_is_floor_sqrt() {
        let mut rng = Rng(12345);
        for _ in 0..2000 {
            let a = rng.big(8);
            let s = a.isqrt();
            assert!(s.mul(&s) <= a);
            let s1 = s.add_small(1);
            assert!(s1.mul(&s1) > a);
        }
    }

    #[test]
    fn shifts_and_gcd() {
        let mut rng = Rng(777);
        for _ in 0..1000 {
            let a = rng.big(5);
            let k = rng.next() % 100;
            assert_eq!(a.shl(k).shr(k), a);
            assert_eq!(a.shl(k), a.mul(&BigUint::one().shl(k)));
        }
        let a = BigUint::parse_decimal("123456789012345678901234567890").unwrap();
        let b = BigUint::parse_decimal("987654321098765432109876543210").unwrap();
        assert_eq!(BigUint::gcd(&a, &b).to_decimal(), "9000000000900000000090");
    }

    #[test]
    fn signed_floor_and_ceil() {
        let d = BigUint::from_u64(3);
        assert_eq!(BigInt::from_i64(-7).floor_div(&d), BigInt::from_i64(-3));
        assert_eq!(BigInt::from_i64(-7).ceil_div(&d), BigInt::from_i64(-2));
        assert_eq!(BigInt::from_i64(7).floor_div(&d), BigInt::from_i64(2));
        assert_eq!(BigInt::from_i64(7).ceil_div(&d), BigInt::from_i64(3));
        assert_eq!(BigInt::from_i64(-6).floor_div(&d), BigInt::from_i64(-2));
        assert_eq!(BigInt::from_i64(-5).add(&BigInt::from_i64(5)), BigInt::from_i64(0));
    }
}
