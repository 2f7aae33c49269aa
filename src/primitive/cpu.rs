//! The x86-64 instruction-set levels that hot search code is compiled for, and the one choice
//! among them made at run time (the build itself targets plain x86-64, so the binary runs on
//! any CPU). Hot code keeps one `#[target_feature]` copy per level and calls the copy of
//! [`Level::current`] (or of the level it chose) that [`has_v3`] / [`has_v4`] allow; the guard
//! counting, guard and completion searches make their copies with
//! [`level_copies!`](crate::primitive::cpu::level_copies), where each level's feature list is written
//! once, and call them through [`on_level!`](crate::primitive::cpu::on_level), the one place that checks
//! the CPU before an `unsafe` call of a copy.

use std::sync::OnceLock;

/// The instruction sets hot code is compiled for, lowest first. Each level above `Baseline`
/// is a copy compiled with `#[target_feature]`, run only on a CPU that has those features
/// (checked at the call). There is no level for x86-64-v2 (POPCNT, SSE4.2): measured, it
/// counted no faster than `Baseline`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// Plain x86-64 (SSE2; popcount by shifts and masks), and every other architecture.
    #[default]
    Baseline,
    /// x86-64-v3 (AVX2, BMI1, BMI2, LZCNT, FMA), without `pext`: for CPUs whose `pext` is
    /// slow microcode (AMD before Zen 3).
    V3,
    /// x86-64-v3 with BMI2's `pext` used where the code has a use for it (the count's tail).
    V3Pext,
    /// x86-64-v4 (AVX-512 F, VL, BW, DQ, CD) with VPOPCNTDQ, and `pext`.
    V4,
}

impl Level {
    /// Every level, lowest first.
    pub(crate) const ALL: [Level; 4] = [Level::Baseline, Level::V3, Level::V3Pext, Level::V4];

    /// The level's name for `QUEENS_CPU`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Level::Baseline => "baseline",
            Level::V3 => "v3",
            Level::V3Pext => "v3-pext",
            Level::V4 => "v4",
        }
    }

    /// Whether the running CPU has every feature the level's code uses.
    pub(crate) fn supported(self) -> bool {
        match self {
            Level::Baseline => true,
            Level::V3 | Level::V3Pext => has_v3(),
            Level::V4 => has_v4(),
        }
    }

    /// The best supported level, without the override: `V4` or `V3Pext` where `pext` is fast,
    /// `V3` where it is slow, else `Baseline`. Intel's `pext` takes 3 cycles since
    /// Haswell, as does AMD's since Zen 3; on Excavator, Zen 1 and Zen 2 it is microcoded (tens
    /// to hundreds of cycles, growing with the bits of the mask). Those are told by features
    /// alone (no `cpuid` call): SSE4a, which only AMD and Hygon implement, and none of VAES,
    /// VPCLMULQDQ (both new in Zen 3) and AVX-512 (Zen 4).
    pub(crate) fn detected() -> Level {
        if has_v4() {
            // (No CPU with AVX-512 has a slow `pext`.)
            Level::V4
        } else if has_v3() {
            if slow_pext() {
                Level::V3
            } else {
                Level::V3Pext
            }
        } else {
            Level::Baseline
        }
    }

    /// BMI2 where code at this level uses `pext` (`V3Pext` and `V4`, on a CPU that has it);
    /// `None` gathers bits without it.
    pub(crate) fn fast_pext(self) -> Option<Bmi2> {
        if self >= Level::V3Pext {
            Bmi2::detect()
        } else {
            None
        }
    }

    /// The level every search uses, chosen at the first call: [`Level::detected`], capped by
    /// the environment variable `QUEENS_CPU` when it names a level (`baseline`, `v3`,
    /// `v3-pext`, `v4`; any other value is ignored). `QUEENS_CPU=baseline` runs the portable code
    /// on any CPU, for tests and comparisons.
    pub(crate) fn current() -> Level {
        static CURRENT: OnceLock<Level> = OnceLock::new();
        *CURRENT.get_or_init(|| {
            let detected = Level::detected();
            let wanted = std::env::var("QUEENS_CPU").ok().and_then(|name| {
                Level::ALL
                    .into_iter()
                    .find(|l| l.name() == name.trim().to_ascii_lowercase())
            });
            match wanted {
                Some(wanted) if wanted.supported() => wanted,
                Some(wanted) => wanted.min(detected),
                None => detected,
            }
        })
    }
}

/// Defines one copy of a hot function per instruction-set level, each level's
/// `#[target_feature]` list written here once: `level_copies!(copy, base, v3)` or
/// `level_copies!(copy, base, v3, v4)`, where `copy` is a macro taking attributes and
/// `fn name` that defines the function (its recursive calls calling `name`, so each copy
/// recurses within its level). The `_v3` copy may be called only where [`has_v3`] holds, the
/// `_v4` one only where [`has_v4`] holds (both are `unsafe` to call, and x86-64 only).
macro_rules! level_copies {
    ($copy:ident, $base:ident, $v3:ident $(, $v4:ident)?) => {
        $copy!(
            /// The portable copy, for every CPU.
            fn $base
        );
        $copy!(
            /// The copy for x86-64-v3 (what `has_v3` checks): to be called only where the CPU
            /// has those features.
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,avx,avx2,bmi1,bmi2,lzcnt,fma")]
            fn $v3
        );
        $(
            $copy!(
                /// The copy for x86-64-v4 with VPOPCNTDQ (what `has_v4` checks): to be called
                /// only where the CPU has those features.
                #[cfg(target_arch = "x86_64")]
                #[target_feature(
                    enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,avx,avx2,bmi1,bmi2,lzcnt,fma,avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx512vpopcntdq"
                )]
                fn $v4
            );
        )?
    };
}
pub(crate) use level_copies;

/// Calls the copy made by [`level_copies!`] for the best level that both `level` allows and
/// the CPU has: `on_level!(level, base(args), v3(args))` or `on_level!(level, base(args),
/// v3(args), v4(args))`, where each argument is the call of that level's copy.
macro_rules! on_level {
    ($level:expr, $base:expr, $v3:expr, $v4:expr) => {{
        let level: $crate::primitive::cpu::Level = $level;
        #[cfg(target_arch = "x86_64")]
        let value =
            if level >= $crate::primitive::cpu::Level::V4 && $crate::primitive::cpu::has_v4() {
                #[allow(unsafe_code)]
                // SAFETY: the CPU has every feature the `_v4` copies are compiled with (`has_v4`
                // was just checked at run time).
                unsafe {
                    $v4
                }
            } else {
                $crate::primitive::cpu::on_level!(level, $base, $v3)
            };
        #[cfg(not(target_arch = "x86_64"))]
        let value = {
            let _ = level;
            $base
        };
        value
    }};
    ($level:expr, $base:expr, $v3:expr) => {{
        let level: $crate::primitive::cpu::Level = $level;
        #[cfg(target_arch = "x86_64")]
        let value =
            if level >= $crate::primitive::cpu::Level::V3 && $crate::primitive::cpu::has_v3() {
                #[allow(unsafe_code)]
                // SAFETY: the CPU has every feature the `_v3` copies are compiled with (`has_v3`
                // was just checked at run time).
                unsafe {
                    $v3
                }
            } else {
                $base
            };
        #[cfg(not(target_arch = "x86_64"))]
        let value = {
            let _ = level;
            $base
        };
        value
    }};
}
pub(crate) use on_level;

/// Proof that the running CPU has BMI2 (so `pext`): [`Bmi2::detect`] is the only way to get
/// one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2(());

impl Bmi2 {
    /// `Some` when the running CPU has BMI2.
    pub(crate) fn detect() -> Option<Bmi2> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            return Some(Bmi2(()));
        }
        None
    }
}

/// The bits of `x` at the set bits of `mask`, packed low in their order (what BMI2's `pext`
/// computes): by the instruction where `bmi2` is given, else one bit at a time.
#[inline(always)]
pub(crate) fn pext(x: u64, mask: u64, bmi2: Option<Bmi2>) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if bmi2.is_some() {
        #[allow(unsafe_code)]
        // SAFETY: a `Bmi2` exists only where the CPU has BMI2 (`Bmi2::detect`).
        return unsafe { core::arch::x86_64::_pext_u64(x, mask) };
    }
    let _ = bmi2;
    let (mut out, mut m, mut i) = (0, mask, 0);
    while m != 0 {
        out |= (x >> m.trailing_zeros() & 1) << i;
        i += 1;
        m &= m - 1;
    }
    out
}

/// The low bits of `x` deposited at the set bits of `mask`, in their order (what BMI2's `pdep`
/// computes): by the instruction where `bmi2` is given, else one bit at a time.
#[inline(always)]
pub(crate) fn pdep(x: u64, mask: u64, bmi2: Option<Bmi2>) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if bmi2.is_some() {
        #[allow(unsafe_code)]
        // SAFETY: a `Bmi2` exists only where the CPU has BMI2 (`Bmi2::detect`).
        return unsafe { core::arch::x86_64::_pdep_u64(x, mask) };
    }
    let _ = bmi2;
    let (mut out, mut m, mut i) = (0, mask, 0);
    while m != 0 {
        out |= (x >> i & 1) << m.trailing_zeros();
        i += 1;
        m &= m - 1;
    }
    out
}

/// Whether the CPU has the features of x86-64-v3 that the `_v3` copies are compiled with
/// (SSE3 to SSE4.2 and POPCNT, which x86-64-v2 adds, and AVX, AVX2, BMI1, BMI2, LZCNT, FMA).
pub(crate) fn has_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("sse3")
            && std::arch::is_x86_feature_detected!("ssse3")
            && std::arch::is_x86_feature_detected!("sse4.1")
            && std::arch::is_x86_feature_detected!("sse4.2")
            && std::arch::is_x86_feature_detected!("avx")
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether the CPU has the features the `_v4` copies are compiled with.
pub(crate) fn has_v4() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_v3()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512cd")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether `pext` is likely microcoded (see [`Level::detected`]).
fn slow_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("sse4a")
            && !std::arch::is_x86_feature_detected!("vaes")
            && !std::arch::is_x86_feature_detected!("vpclmulqdq")
            && !std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(test)]
mod tests {
    use super::{pdep, pext, Bmi2, Level};

    #[test]
    fn pdep_undoes_pext_with_and_without_the_instruction() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mask = x.rotate_left(23) & x.rotate_left(41);
            let packed = pext(x, mask, None);
            assert_eq!(pdep(packed, mask, None), x & mask);
            // Bits of the source above the mask's count are dropped.
            assert_eq!(pdep(u64::MAX, mask, None), mask);
            if let Some(bmi2) = Bmi2::detect() {
                assert_eq!(pdep(x, mask, Some(bmi2)), pdep(x, mask, None));
            }
        }
    }

    #[test]
    fn levels_are_named_ordered_and_detected() {
        for (i, level) in Level::ALL.into_iter().enumerate() {
            assert_eq!(
                Level::ALL
                    .iter()
                    .filter(|l| l.name() == level.name())
                    .count(),
                1
            );
            assert!(Level::ALL[..i].iter().all(|&lower| lower < level));
        }
        assert!(Level::Baseline.supported());
        assert!(Level::detected().supported());
        assert!(Level::current().supported());
        assert!(Level::current() <= Level::detected());
    }
}
