//! Joining CRC-32s of consecutive texts with a precomputed shift per text (zlib's
//! `crc32_combine_gen` and `crc32_combine_op`). `crc32fast::Hasher::combine` works out the
//! shift for the second text's length on every call, by repeated 32×32 matrix squaring:
//! about a microsecond per piece, and a cached page joins up to a dozen pieces per hit
//! (5% of a cached hit's CPU, perf). Neither crc32fast nor flate2 exposes the split, so it
//! is written here: two short functions over GF(2) polynomials, checked against crc32fast.

/// The CRC-32 polynomial, reflected.
const POLY: u32 = 0xedb8_8320;

/// `a * b mod P`, both reflected polynomials.
fn mul_mod_p(a: u32, mut b: u32) -> u32 {
    let mut m = 1u32 << 31;
    let mut p = 0;
    loop {
        if a & m != 0 {
            p ^= b;
            if a & (m - 1) == 0 {
                return p;
            }
        }
        m >>= 1;
        b = if b & 1 != 0 { (b >> 1) ^ POLY } else { b >> 1 };
    }
}

/// The shift of a CRC over `len` more bytes: `x^(8 len) mod P`.
pub fn shift_for(len: usize) -> u32 {
    // x^(2^k) mod P for k = 3, 4, ...: squared on the way up.
    let mut square = 1u32 << 30; // x^1
    for _ in 0..3 {
        square = mul_mod_p(square, square);
    }
    let mut p = 1u32 << 31; // x^0
    let mut n = len as u64;
    while n != 0 {
        if n & 1 != 0 {
            p = mul_mod_p(square, p);
        }
        square = mul_mod_p(square, square);
        n >>= 1;
    }
    p
}

/// The CRC of A followed by B, from A's CRC, B's CRC and B's shift (`shift_for(B.len())`).
pub fn join(crc_a: u32, crc_b: u32, shift_b: u32) -> u32 {
    mul_mod_p(shift_b, crc_a) ^ crc_b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crc(b: &[u8]) -> u32 {
        crc32fast::hash(b)
    }

    #[test]
    fn joined_crcs_equal_the_crc_of_the_whole() {
        let text: Vec<u8> = (0..70_000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        for (a, b) in [
            (0, 0),
            (0, 5),
            (5, 0),
            (1, 1),
            (97, 22),
            (3, 65_536),
            (40_000, 29_999),
        ] {
            let (x, y) = (&text[..a], &text[a..a + b]);
            assert_eq!(
                join(crc(x), crc(y), shift_for(y.len())),
                crc(&text[..a + b]),
                "{a} + {b}"
            );
        }
    }
}
