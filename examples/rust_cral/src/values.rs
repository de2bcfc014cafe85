//! Reading exact values out of JSON with the reference's rules (reference/exact.py):
//! integers are JSON integers (no bool, no fraction or exponent), rationals are "p/q"
//! strings, labels are the integers 0 and 1. Errors name the field and the value.

use crate::bigint::{BigInt, BigUint};
use crate::fail::{bad, Res};
use crate::json::{is_integer_text, Json};
use crate::rational::{parse_rational_text, Rat};

/// A JSON integer of any size.
pub fn big_int(v: &Json, field: &str) -> Res<BigInt> {
    match v {
        Json::Num(t) if is_integer_text(t) => {
            let (neg, digits) = match t.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, t.as_str()),
            };
            Ok(BigInt::new(neg, BigUint::parse_decimal(digits).expect("the JSON grammar gives digits")))
        }
        _ => Err(bad(format!("{} must be an integer, got {}", field, v.shown()))),
    }
}

/// A JSON integer >= minimum that fits in a u64 (a larger one is reported with its value).
pub fn int_at_least(v: &Json, field: &str, minimum: u64) -> Res<u64> {
    if let Json::Num(t) = v {
        // fast path for the tape's many small integers
        if let Ok(x) = t.parse::<u64>() {
            if x < minimum {
                return Err(bad(format!("{} must be >= {}, got {}", field, minimum, x)));
            }
            return Ok(x);
        }
    }
    let x = big_int(v, field)?;
    if x < BigInt::from_biguint(BigUint::from_u64(minimum)) {
        return Err(bad(format!("{} must be >= {}, got {}", field, minimum, x.to_decimal())));
    }
    x.magnitude().to_u64().ok_or_else(|| bad(format!("{} is too large, got {}", field, x.to_decimal())))
}

/// A binary label: the JSON integer 0 or 1.
pub fn label(v: &Json, field: &str) -> Res<u8> {
    match v {
        Json::Num(t) if t == "0" => Ok(0),
        Json::Num(t) if t == "1" => Ok(1),
        _ => Err(bad(format!("{} must be the integer 0 or 1, got {}", field, v.to_text()))),
    }
}

/// A rational written "p/q" (a string, as the trace and params schemas have it).
pub fn rational(v: &Json, field: &str) -> Res<Rat> {
    match v {
        Json::Str(s) => parse_rational_text(s).map_err(|why| bad(format!("{} {}, got {}", field, why, v.to_text()))),
        _ => Err(bad(format!("{} must be a rational written 'p/q', got {}", field, v.shown()))),
    }
}

pub fn list<'a>(v: &'a Json, field: &str) -> Res<&'a [Json]> {
    match v {
        Json::Arr(items) => Ok(items),
        _ => Err(bad(format!("{} must be a list, got {}", field, v.shown()))),
    }
}

pub fn text<'a>(v: &'a Json, field: &str) -> Res<&'a str> {
    match v {
        Json::Str(s) => Ok(s),
        _ => Err(bad(format!("{} must be a string, got {}", field, v.shown()))),
    }
}

/// The fields of an object that must have exactly `required` and may have `optional`:
/// an unknown or a missing field is named (reference/serialization.py's from_jsonable).
pub fn fields<'a>(v: &'a Json, field: &str, required: &[&str], optional: &[&str]) -> Res<&'a [(String, Json)]> {
    let items = match v {
        Json::Obj(items) => items,
        _ => return Err(bad(format!("{} must be an object, got {}", field, v.shown()))),
    };
    let mut unknown: Vec<&str> = items
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !required.contains(k) && !optional.contains(k))
        .collect();
    unknown.sort();
    if let Some(k) = unknown.first() {
        return Err(bad(format!("{} has unknown field '{}'", field, k)));
    }
    if let Some(k) = required.iter().find(|k| v.get(k).is_none()) {
        return Err(bad(format!("{} is missing field '{}'", field, k)));
    }
    Ok(items)
}

/// The field of an object known to have it (checked by `fields`).
pub fn field<'a>(v: &'a Json, key: &str) -> &'a Json {
    v.get(key).expect("checked by values::fields")
}
