//! The binary tape layout of docs/protocol.md, section 2: one-dimensional NumPy `.npy`
//! files (format version 1.0; 2.0 and 3.0 differ only in the header length's width, so
//! they are read too), C order: x `<i8`, y `|u1`, u_words `<u8`.
//!
//! The header is a Python dict literal, e.g.
//! `{'descr': '<i8', 'fortran_order': False, 'shape': (16384,), }`, padded with spaces
//! and a newline. Only the three keys NumPy writes are accepted.

/// The element type of one array.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dtype {
    I64Le,
    U8,
    U64Le,
}

impl Dtype {
    fn descr(self) -> &'static [&'static str] {
        match self {
            Dtype::I64Le => &["<i8"],
            // one byte has no byte order: NumPy writes '|u1'; '<u1' and '>u1' mean the same
            Dtype::U8 => &["|u1", "<u1", ">u1"],
            Dtype::U64Le => &["<u8"],
        }
    }

    fn size(self) -> usize {
        match self {
            Dtype::I64Le | Dtype::U64Le => 8,
            Dtype::U8 => 1,
        }
    }
}

/// The raw little-endian data bytes of a 1-D array of `dtype` with `n` elements.
pub fn read_array(path: &str, dtype: Dtype, n: usize) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot be read ({}): {}", path, e))?;
    let (data_start, descr, fortran, shape) = parse_header(&bytes)?;
    if !dtype.descr().contains(&descr.as_str()) {
        return Err(format!("has dtype '{}', expected '{}'", descr, dtype.descr()[0]));
    }
    if fortran {
        return Err("is in Fortran order, expected C order".to_string());
    }
    if shape.len() != 1 {
        return Err(format!("has {} dimensions, expected one", shape.len()));
    }
    if shape[0] != n {
        return Err(format!("has {} entries, expected n = {}", shape[0], n));
    }
    let want = n.checked_mul(dtype.size()).ok_or("is too large")?;
    let data = &bytes[data_start..];
    if data.len() != want {
        return Err(format!("holds {} data bytes, expected {} for {} entries", data.len(), want, n));
    }
    Ok(data.to_vec())
}

/// (offset of the data, descr, fortran_order, shape) of an .npy file's bytes.
fn parse_header(bytes: &[u8]) -> Result<(usize, String, bool, Vec<usize>), String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("is not a NumPy .npy file (bad magic)".to_string());
    }
    let major = bytes[6];
    let (len, start): (usize, usize) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 => {
            if bytes.len() < 12 {
                return Err("has a truncated header".to_string());
            }
            (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12)
        }
        v => return Err(format!("has .npy format version {}, expected 1.0", v)),
    };
    let end = start.checked_add(len).filter(|&e| e <= bytes.len()).ok_or("has a truncated header")?;
    let header = std::str::from_utf8(&bytes[start..end]).map_err(|_| "has a header that is not text".to_string())?;
    let (descr, fortran, shape) = parse_dict(header.trim_end())?;
    Ok((end, descr, fortran, shape))
}

/// The header dict: exactly the keys 'descr' (a string), 'fortran_order' (True/False)
/// and 'shape' (a tuple of integers), in any order, an optional trailing comma.
fn parse_dict(text: &str) -> Result<(String, bool, Vec<usize>), String> {
    let bad = || format!("has a header that is not a NumPy header dict: {:?}", text);
    let inner = text.trim().strip_prefix('{').and_then(|t| t.strip_suffix('}')).ok_or_else(bad)?;
    let mut rest = inner.trim();
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    while !rest.is_empty() {
        let (key, after) = quoted(rest).ok_or_else(bad)?;
        rest = after.trim_start().strip_prefix(':').ok_or_else(bad)?.trim_start();
        match key.as_str() {
            "descr" if descr.is_none() => {
                let (v, after) = quoted(rest).ok_or_else(bad)?;
                descr = Some(v);
                rest = after;
            }
            "fortran_order" if fortran.is_none() => {
                if let Some(after) = rest.strip_prefix("False") {
                    fortran = Some(false);
                    rest = after;
                } else if let Some(after) = rest.strip_prefix("True") {
                    fortran = Some(true);
                    rest = after;
                } else {
                    return Err(bad());
                }
            }
            "shape" if shape.is_none() => {
                let after = rest.strip_prefix('(').ok_or_else(bad)?;
                let close = after.find(')').ok_or_else(bad)?;
                let mut dims = Vec::new();
                for part in after[..close].split(',') {
                    let part = part.trim();
                    if part.is_empty() {
                        continue;
                    }
                    dims.push(part.parse::<usize>().map_err(|_| bad())?);
                }
                shape = Some(dims);
                rest = &after[close + 1..];
            }
            _ => return Err(bad()),
        }
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(',') {
            rest = after.trim_start();
        } else if !rest.is_empty() {
            return Err(bad());
        }
    }
    match (descr, fortran, shape) {
        (Some(d), Some(f), Some(s)) => Ok((d, f, s)),
        _ => Err(bad()),
    }
}

/// A Python string literal in single or double quotes (no escapes: NumPy's keys and
/// type descriptors never need them) and the text after it.
fn quoted(text: &str) -> Option<(String, &str)> {
    let quote = text.chars().next().filter(|&c| c == '\'' || c == '"')?;
    let body = &text[1..];
    let close = body.find(quote)?;
    Some((body[..close].to_string(), &body[close + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npy(header: &str, data: &[u8]) -> Vec<u8> {
        let mut h = header.to_string();
        while (10 + h.len() + 1) % 64 != 0 {
            h.push(' ');
        }
        h.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(h.len() as u16).to_le_bytes());
        out.extend_from_slice(h.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn reads_a_numpy_header() {
        let bytes = npy("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }", &[0u8; 16]);
        let (start, descr, fortran, shape) = parse_header(&bytes).unwrap();
        assert_eq!((start, descr.as_str(), fortran, shape), (bytes.len() - 16, "<i8", false, vec![2]));
        assert_eq!(start % 64, 0);
        assert!(parse_header(&npy("{'descr': '<i8', 'shape': (2,), }", &[])).is_err());
        assert!(parse_header(&npy("{'descr': '<i8', 'fortran_order': Maybe, 'shape': (2,), }", &[])).is_err());
        let (_, _, _, shape) = parse_header(&npy("{'descr': '|u1', 'fortran_order': False, 'shape': (), }", &[])).unwrap();
        assert!(shape.is_empty());
    }
}
