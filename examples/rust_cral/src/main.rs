//! rust_cral: passive ERM and RobustCAL (modified and vanilla rule) of "Corruption
//! Robust Active Learning", in exact rational arithmetic, speaking the run protocol
//! cral-run v1 (docs/protocol.md).
//!
//! Usage: rust_cral [REQUEST]   -- the request from the path, or from stdin without one.
//! The result goes to the request's "output" path (stdout if it names none). Bad input
//! gets a `cral-error` document naming the field, and exit status 2.
//!        rust_cral --serve     -- serve mode (docs/protocol.md, "Serve mode"): one request
//! per line of stdin, one result document per line of stdout (flushed), until stdin ends;
//! bad input gets a `cral-error` line and the next line is read. Its describe says so.

mod bigint;
mod certified;
mod fail;
mod inputs;
mod json;
mod npy;
mod params;
mod passive;
mod rational;
mod robust_cal;
mod values;

use fail::{bad, Fail, Res};
use json::{int, obj, string, Json};
use std::io::{BufRead, Read, Write};

const IMPLEMENTS: [&str; 3] = ["passive", "robust_cal", "robust_cal_vanilla"];

fn describe() -> Json {
    let name = if cfg!(feature = "broken") {
        "rust_cral (BROKEN build: the modified threshold lacks its rho^/2 term)"
    } else {
        "rust_cral (examples/rust_cral: exact rationals, std only)"
    };
    obj(vec![
        ("format", string("cral-describe")),
        ("version", int(1)),
        ("implements", Json::Arr(IMPLEMENTS.iter().map(|s| string(s)).collect())),
        ("arithmetic", string("exact")),
        ("tape_formats", Json::Arr(vec![string("json"), string("npy")])),
        ("name", string(name)),
        ("serve", Json::Bool(true)),
    ])
}

/// One run: the algorithm's inputs validated, the algorithm run, its trace.
fn run_algorithm(request: &Json, algorithm: &str) -> Res<Json> {
    let need = |key: &str| request.get(key).ok_or_else(|| bad(format!("the request is missing field '{}'", key)));
    let h = inputs::hypotheses(need("hypotheses")?)?;
    let raw = inputs::tape(need("tape")?)?;
    let params = params::Params::from_json(need("params")?)?;
    let tape = inputs::check_run_inputs(&h, raw, &params)?;
    match algorithm {
        "passive" => Ok(passive::passive(&h, &tape, &params)),
        "robust_cal" => robust_cal::robust_cal(&h, &tape, &params, false),
        "robust_cal_vanilla" => robust_cal::robust_cal(&h, &tape, &params, true),
        _ => unreachable!("dispatch checked the algorithm"),
    }
}

fn answer(request: &Json) -> Res<Json> {
    if !matches!(request, Json::Obj(_)) {
        return Err(bad(format!("the request must be a JSON object, got {}", request.type_name())));
    }
    match request.get("format") {
        Some(Json::Str(f)) if f == "cral-run-request" => {}
        other => {
            return Err(bad(format!(
                "request.format must be 'cral-run-request', got {}",
                other.map_or("nothing".to_string(), |o| o.to_text())
            )))
        }
    }
    match request.get("version") {
        Some(Json::Num(v)) if v == "1" => {}
        other => {
            return Err(bad(format!(
                "request.version must be 1, got {}", other.map_or("nothing".to_string(), |o| o.to_text())
            )))
        }
    }
    let algorithm = match request.get("algorithm") {
        Some(Json::Str(a)) => a.as_str(),
        other => {
            return Err(bad(format!(
                "request.algorithm must be a string, got {}", other.map_or("nothing".to_string(), |o| o.to_text())
            )))
        }
    };
    match algorithm {
        "describe" => Ok(describe()),
        a if IMPLEMENTS.contains(&a) => run_algorithm(request, a),
        other => Err(Fail {
            kind: "NotImplementedError",
            message: format!(
                "request.algorithm '{}' is not implemented by this program (it implements {})",
                other,
                IMPLEMENTS.join(", ")
            ),
        }),
    }
}

fn error_document(fail: &Fail) -> Json {
    obj(vec![
        ("format", string("cral-error")),
        ("version", int(1)),
        ("error", string(fail.kind)),
        ("message", Json::Str(fail.message.clone())),
    ])
}

/// The document to the output path if there is one, else to stdout.
fn emit(document: &Json, output: Option<&str>) -> std::io::Result<()> {
    let mut text = document.to_text();
    text.push('\n');
    match output {
        Some(path) => std::fs::write(path, text),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()
        }
    }
}

fn read_request() -> Result<String, String> {
    let mut bytes = Vec::new();
    match std::env::args().skip(1).last() {
        Some(path) => {
            bytes = std::fs::read(&path).map_err(|e| format!("cannot read the request {}: {}", path, e))?;
        }
        None => {
            std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read the request from stdin: {}", e))?;
        }
    }
    String::from_utf8(bytes).map_err(|_| "the request is not UTF-8 text".to_string())
}

/// Serve mode: a result line for every request line that is not blank, until stdin ends.
fn serve() -> i32 {
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    loop {
        let mut bytes = Vec::new();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => return 0,
            Ok(_) => {}
            Err(e) => {
                eprintln!("rust_cral: cannot read a request line: {}", e);
                return 1;
            }
        }
        let parsed = String::from_utf8(bytes)
            .map_err(|_| "the request line is not UTF-8 text".to_string())
            .and_then(|text| if text.trim().is_empty() { Ok(None) } else { json::parse(&text).map(Some) });
        let result = match parsed {
            Ok(None) => continue, // a blank line
            Ok(Some(request)) => answer(&request),
            Err(why) => Err(bad(format!("malformed request: {}", why))),
        };
        let document = match &result {
            Ok(doc) => doc.clone(),
            Err(fail) => {
                eprintln!("rust_cral: {}: {}", fail.kind, fail.message);
                error_document(fail)
            }
        };
        let mut text = document.to_text();
        text.push('\n');
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
            eprintln!("rust_cral: cannot write a result: {}", e);
            return 1;
        }
    }
}

fn main() {
    if std::env::args().skip(1).last().as_deref() == Some("--serve") {
        std::process::exit(serve());
    }
    let parsed = read_request().and_then(|text| json::parse(&text));
    let (result, output) = match parsed {
        Ok(request) => {
            let output = match request.get("output") {
                Some(Json::Str(p)) => Some(p.clone()),
                _ => None,
            };
            (answer(&request), output)
        }
        Err(why) => (Err(bad(format!("malformed request: {}", why))), None),
    };
    let (document, status) = match &result {
        Ok(doc) => (doc.clone(), 0),
        Err(fail) => {
            eprintln!("rust_cral: {}: {}", fail.kind, fail.message);
            (error_document(fail), if fail.kind == "ValueError" { 2 } else { 1 })
        }
    };
    if let Err(e) = emit(&document, output.as_deref()) {
        eprintln!("rust_cral: cannot write the result: {}", e);
        std::process::exit(1);
    }
    std::process::exit(status);
}
