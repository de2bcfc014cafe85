//! Why a call is refused: becomes a `cral-error` document (docs/protocol.md, section 3).

#[derive(Debug)]
pub struct Fail {
    /// The Python exception kind the harness maps it to: "ValueError" for bad input.
    pub kind: &'static str,
    pub message: String,
}

/// Bad input: the message names the field and the value.
pub fn bad(message: impl Into<String>) -> Fail {
    Fail { kind: "ValueError", message: message.into() }
}

pub type Res<T> = Result<T, Fail>;
