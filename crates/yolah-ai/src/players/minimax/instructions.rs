//! Which instructions the search runs with, chosen at run time.
//!
//! The search's recursion ([`super::searcher`]) is compiled twice: once for the build's target
//! CPU and once for x86-64 CPUs with AVX2, BMI1/2, POPCNT, LZCNT and FMA (x86-64-v3), with the
//! evaluation (always inlined: its flood fills were most of the difference) and whatever else
//! the compiler inlines into it. A portable build (no
//! `target-cpu=native`) thus searches with popcounts and bit scans in one instruction on the
//! CPUs that have them, as perft and random games do. Both copies search the same tree: the
//! same moves, values and node counts (tested).

/// The instruction set a search runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instructions {
    /// The copy compiled for x86-64-v3: AVX2, BMI1, BMI2, POPCNT, LZCNT, FMA.
    Avx2,
    /// The copy compiled for the build's target CPU (any CPU, for a portable build).
    Portable,
}

impl Instructions {
    /// Every instruction set, fastest first.
    pub const ALL: [Instructions; 2] = [Instructions::Avx2, Instructions::Portable];

    /// The fastest this CPU runs.
    pub fn best() -> Instructions {
        Instructions::ALL
            .into_iter()
            .find(|set| set.available())
            .unwrap_or(Instructions::Portable)
    }

    /// Whether this CPU runs it.
    pub fn available(self) -> bool {
        match self {
            Instructions::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Instructions::Avx2 => {
                std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("bmi2")
                    && std::is_x86_feature_detected!("popcnt")
                    && std::is_x86_feature_detected!("lzcnt")
                    && std::is_x86_feature_detected!("fma")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Instructions::Avx2 => false,
        }
    }

    /// Its name: `avx2` or `portable`.
    pub fn name(self) -> &'static str {
        match self {
            Instructions::Avx2 => "avx2",
            Instructions::Portable => "portable",
        }
    }

    /// The instruction set of this name, if there is one.
    pub fn named(name: &str) -> Option<Instructions> {
        Instructions::ALL.into_iter().find(|set| set.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_best_is_available() {
        for set in Instructions::ALL {
            assert_eq!(Instructions::named(set.name()), Some(set));
        }
        assert_eq!(Instructions::named("avx512"), None);
        assert!(Instructions::best().available());
        assert!(Instructions::Portable.available());
    }
}
