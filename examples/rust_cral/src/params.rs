//! The run's parameters (reference/params.py, params.schema.json), validated as the
//! reference validates them, and written back in the reference's canonical JSON form
//! (the trace records the parameters it ran with).

use crate::bigint::BigUint;
use crate::certified::ScaledLog;
use crate::fail::{bad, Res};
use crate::json::{obj, string, Json};
use crate::rational::Rat;
use crate::values::{field, fields, rational, text};

/// A constant of the paper: coefficient * ln(argument) or an exact rational.
#[derive(Clone, Debug)]
pub enum Constant {
    Log(ScaledLog),
    Value(Rat),
}

impl Constant {
    fn from_json(v: &Json, name: &str) -> Res<Constant> {
        let mut keys: Vec<&str> = match v {
            Json::Obj(items) => items.iter().map(|(k, _)| k.as_str()).collect(),
            _ => Vec::new(),
        };
        keys.sort();
        if keys == ["argument", "coefficient"] {
            let coefficient = rational(field(v, "coefficient"), &format!("{}.coefficient", name))?;
            let argument = rational(field(v, "argument"), &format!("{}.argument", name))?;
            if coefficient.is_negative() {
                return Err(bad(format!("{}.coefficient must be >= 0, got {}", name, coefficient.text())));
            }
            if argument < Rat::from_int(1) {
                return Err(bad(format!(
                    "{}.argument must be >= 1 (a non-negative log), got {}", name, argument.text()
                )));
            }
            Ok(Constant::Log(ScaledLog { coefficient, argument }))
        } else if keys == ["value"] {
            Ok(Constant::Value(rational(field(v, "value"), &format!("{}.value", name))?))
        } else {
            Err(bad(format!(
                "{} must be {{\"coefficient\", \"argument\"}} or {{\"value\"}}, got {}", name, v.shown()
            )))
        }
    }

    /// Not > 0: a zero coefficient, ln 1, or a rational <= 0.
    fn is_not_positive(&self) -> bool {
        match self {
            Constant::Log(l) => l.coefficient.is_zero() || l.argument == Rat::from_int(1),
            Constant::Value(v) => v.is_negative() || v.is_zero(),
        }
    }

    fn same(&self, other: &Constant) -> bool {
        match (self, other) {
            (Constant::Log(a), Constant::Log(b)) => a.coefficient == b.coefficient && a.argument == b.argument,
            (Constant::Value(a), Constant::Value(b)) => a == b,
            _ => false,
        }
    }

    fn describe(&self) -> String {
        match self {
            Constant::Log(l) => format!("{}*ln({})", l.coefficient.text(), l.argument.text()),
            Constant::Value(v) => v.text(),
        }
    }

    fn to_json(&self) -> Json {
        match self {
            Constant::Log(l) => obj(vec![
                ("coefficient", Json::Str(l.coefficient.text())),
                ("argument", Json::Str(l.argument.text())),
            ]),
            Constant::Value(v) => obj(vec![("value", Json::Str(v.text()))]),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Params {
    pub regime: String,
    pub n: BigUint,
    pub num_hypotheses: BigUint,
    pub delta: Rat,
    pub beta_scale: Rat,
    pub beta1: Constant,
    pub beta2: Rat,
    pub beta3: Constant,
}

const NAMES: [&str; 8] = ["regime", "n", "num_hypotheses", "delta", "beta_scale", "beta1", "beta2", "beta3"];

/// A positive JSON integer of any size (params.n, params.num_hypotheses).
fn positive(v: &Json, name: &str) -> Res<BigUint> {
    let x = crate::values::big_int(v, name)?;
    if x.is_negative() || x.is_zero() {
        return Err(bad(format!("{} must be >= 1, got {}", name, x.to_decimal())));
    }
    Ok(x.magnitude().clone())
}

impl Params {
    pub fn from_json(v: &Json) -> Res<Params> {
        fields(v, "params", &NAMES, &[])?;
        let regime = text(field(v, "regime"), "params.regime")?.to_string();
        let n = positive(field(v, "n"), "params.n")?;
        let num_hypotheses = positive(field(v, "num_hypotheses"), "params.num_hypotheses")?;
        let delta = rational(field(v, "delta"), "params.delta")?;
        let beta_scale = rational(field(v, "beta_scale"), "params.beta_scale")?;
        let beta1 = Constant::from_json(field(v, "beta1"), "params.beta1")?;
        let beta2 = rational(field(v, "beta2"), "params.beta2")?;
        let beta3 = Constant::from_json(field(v, "beta3"), "params.beta3")?;
        if regime != "paper" && regime != "scaled" {
            return Err(bad(format!("params.regime must be one of ('paper', 'scaled'), got '{}'", regime)));
        }
        if !(Rat::zero() < delta && delta < Rat::from_int(1)) {
            return Err(bad(format!("params.delta must lie in (0, 1), got {}", delta.text())));
        }
        if beta_scale <= Rat::zero() {
            return Err(bad(format!("params.beta_scale must be > 0, got {}", beta_scale.text())));
        }
        for (name, c) in [("beta1", &beta1), ("beta3", &beta3)] {
            if c.is_not_positive() {
                return Err(bad(format!("params.{} must be > 0, got {}", name, c.describe())));
            }
        }
        if beta2.is_negative() {
            return Err(bad(format!("params.beta2 must be >= 0, got {}", beta2.text())));
        }
        let params = Params { regime, n, num_hypotheses, delta, beta_scale, beta1, beta2, beta3 };
        if params.regime == "paper" {
            params.check_paper_constants()?;
        }
        Ok(params)
    }

    /// In the paper regime the constants must be those printed in the paper
    /// (reference/params.py, _paper_constants): beta_scale = 1, beta2 = 5/32,
    /// beta3 = 2 ln(a), beta1 = 32 * 640 * beta3, a = 3/2 max(1, floor(log2 n)) |H|^2 / delta.
    fn check_paper_constants(&self) -> Res<()> {
        let log2_n = (self.n.bits() - 1).max(1);
        let h2 = self.num_hypotheses.mul(&self.num_hypotheses);
        let argument = Rat::ratio(3 * log2_n as i64, 2)
            .mul(&Rat::from_big(crate::bigint::BigInt::from_biguint(h2)))
            .div(&self.delta);
        let log = |c: i64| Constant::Log(ScaledLog { coefficient: Rat::from_int(c), argument: argument.clone() });
        let expected: [(&str, Constant, Constant); 4] = [
            ("beta_scale", Constant::Value(Rat::from_int(1)), Constant::Value(self.beta_scale.clone())),
            ("beta1", log(2 * 32 * 640), self.beta1.clone()),
            ("beta2", Constant::Value(Rat::ratio(5, 32)), Constant::Value(self.beta2.clone())),
            ("beta3", log(2), self.beta3.clone()),
        ];
        for (name, want, got) in expected.iter() {
            if !want.same(got) {
                return Err(bad(format!(
                    "params.{} must be the paper's value in the paper regime, got {}", name, got.describe()
                )));
            }
        }
        Ok(())
    }

    /// beta_t of Algorithm 1, line 9, at the checkpoint t = 2^k (k >= 1):
    /// beta_scale * ln(3 k |H|^2 / delta) -- the paper's log(t) inside beta_t read as
    /// log2 t = k, the checkpoint's index (FINDINGS.md R3).
    pub fn robust_cal_beta(&self, k: u64) -> ScaledLog {
        let h2 = self.num_hypotheses.mul(&self.num_hypotheses);
        let argument = Rat::from_big(crate::bigint::BigInt::from_biguint(h2.mul(&BigUint::from_u64(3 * k))))
            .div(&self.delta);
        ScaledLog { coefficient: self.beta_scale.clone(), argument }
    }

    /// The reference's JSON form (reference.serialization.to_jsonable(params)).
    pub fn to_json(&self) -> Json {
        obj(vec![
            ("regime", string(&self.regime)),
            ("n", Json::Num(self.n.to_decimal())),
            ("num_hypotheses", Json::Num(self.num_hypotheses.to_decimal())),
            ("delta", Json::Str(self.delta.text())),
            ("beta_scale", Json::Str(self.beta_scale.text())),
            ("beta1", self.beta1.to_json()),
            ("beta2", Json::Str(self.beta2.text())),
            ("beta3", self.beta3.to_json()),
        ])
    }
}
