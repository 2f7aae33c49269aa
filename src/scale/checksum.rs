//! The checksums of ledgers and plans: FNV-1a 64 with a SplitMix64 finaliser, written as 16
//! lowercase hex digits. They catch torn writes, bit flips and hand edits; they are not
//! cryptographic signatures.

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// A 64-bit checksum of bytes: FNV-1a followed by a SplitMix64 finaliser.
pub fn checksum_bytes(bytes: &[u8]) -> u64 {
    mix64(fnv(FNV_OFFSET, bytes.iter().copied()))
}

/// Checksum of a sequence of 64-bit words (their little-endian bytes).
pub fn checksum_words(words: impl IntoIterator<Item = u64>) -> u64 {
    mix64(fnv(
        FNV_OFFSET,
        words.into_iter().flat_map(|w| w.to_le_bytes()),
    ))
}

fn fnv(mut h: u64, bytes: impl Iterator<Item = u8>) -> u64 {
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A checksum as written in ledgers and by `queens plan`: 16 lowercase hex digits.
pub fn hex(value: u64) -> String {
    format!("{value:016x}")
}

/// Reads exactly 16 hex digits; `None` for anything else.
pub fn parse_hex(text: &str) -> Option<u64> {
    if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(text, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_their_little_endian_bytes() {
        let words = [1u64, 0x0102_0304_0506_0708];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(checksum_words(words), checksum_bytes(&bytes));
        assert_ne!(checksum_bytes(b"a"), checksum_bytes(b"b"));
    }

    #[test]
    fn hex_round_trips_and_refuses_other_lengths() {
        for v in [0u64, 1, 0xdead_beef, u64::MAX] {
            assert_eq!(parse_hex(&hex(v)), Some(v));
        }
        assert_eq!(hex(255), "00000000000000ff");
        for bad in [
            "",
            "ff",
            "00000000000000fg",
            "+0000000000000ff",
            "00000000000000ff0",
        ] {
            assert_eq!(parse_hex(bad), None, "{bad}");
        }
    }
}
