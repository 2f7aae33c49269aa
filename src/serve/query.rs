//! The query string of a request (`?time_limit=2&format=svg`), decoded by hand: names and
//! values are percent-decoded, `+` is a space, and a repeated name keeps its first value.

/// The decoded parameters of one request.
#[derive(Debug, Default)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// The parameters of `raw` (the part after `?`, if any).
    pub fn parse(raw: Option<&str>) -> Self {
        let pairs = raw
            .unwrap_or("")
            .split('&')
            .filter(|part| !part.is_empty())
            .map(|part| {
                let (name, value) = part.split_once('=').unwrap_or((part, ""));
                (decode(name), decode(value))
            })
            .collect();
        Query { pairs }
    }

    /// The value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `name` is given as a true flag: `name`, `name=1`, `name=true`, `yes` or `on`;
    /// false when absent or `0`, `false`, `no`, `off`; any other value is an error naming it.
    pub fn flag(&self, name: &str) -> Result<bool, String> {
        match self.get(name) {
            None | Some("0" | "false" | "no" | "off") => Ok(false),
            Some("" | "1" | "true" | "yes" | "on") => Ok(true),
            Some(other) => Err(format!(
                "{name} '{}' is not a yes or no (1, true, yes, on; 0, false, no, off)",
                crate::format::shorten(other)
            )),
        }
    }
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let pair = bytes.get(i + 1).zip(bytes.get(i + 2));
        match (
            bytes[i],
            pair.and_then(|(&h, &l)| Some(hex(h)? * 16 + hex(l)?)),
        ) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_values_are_decoded() {
        let q = Query::parse(Some("format=svg&time_limit=1.5&x=a%20b+c&bad=%zz&unique"));
        assert_eq!(q.get("format"), Some("svg"));
        assert_eq!(q.get("time_limit"), Some("1.5"));
        assert_eq!(q.get("x"), Some("a b c"));
        assert_eq!(q.get("bad"), Some("%zz"));
        assert_eq!(q.flag("unique"), Ok(true));
        assert_eq!(q.flag("none"), Ok(false));
        let err = q.flag("format").unwrap_err();
        assert!(err.starts_with("format 'svg' is not a yes or no"), "{err}");
        assert_eq!(
            Query::parse(Some("independent=0")).flag("independent"),
            Ok(false)
        );
        assert_eq!(Query::parse(None).get("format"), None);
    }
}
