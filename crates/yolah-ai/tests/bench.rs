//! The bench signature: the total nodes of `yolah bench` at its default depth. It changes only
//! when the search or the evaluation changes; such a commit updates it here and gives it in its
//! message. Every copy of the search this CPU runs ([`Instructions`]) searches the same tree:
//! in a native build both copies have the CPU's instructions, so `.ci/run` also runs these tests
//! in a portable build (`RUSTFLAGS=`), where the portable copy has none of them.

use yolah_ai::eval::{Network, Weights};
use yolah_ai::players::minimax::Instructions;
use yolah_ai::search::bench;

const SIGNATURE: u64 = 945_616;

#[test]
fn the_bench_signature_is_the_committed_one_with_every_instruction_set() {
    let positions = bench::positions();
    assert_eq!(positions.len(), 30);
    for instructions in Instructions::ALL.into_iter().filter(|set| set.available()) {
        let mut seen = 0;
        let totals = bench::run(
            bench::DEFAULT_DEPTH,
            Weights::tuned(),
            instructions,
            |_, outcome| {
                assert!(outcome.depth == bench::DEFAULT_DEPTH || outcome.proven);
                seen += 1;
            },
        );
        assert_eq!(seen, 30);
        assert_eq!(
            totals.nodes,
            SIGNATURE,
            "the search changed ({}): update SIGNATURE",
            instructions.name()
        );
    }
}

#[test]
fn every_instruction_set_searches_the_same_tree_with_the_network() {
    let available: Vec<Instructions> = Instructions::ALL
        .into_iter()
        .filter(|set| set.available())
        .collect();
    if available.len() < 2 {
        eprintln!("only the portable copy runs on this CPU: nothing to compare");
        return;
    }
    let searched: Vec<Vec<String>> = available
        .iter()
        .map(|&instructions| {
            let mut lines = Vec::new();
            bench::run(6, Network::shipped(), instructions, |_, outcome| {
                lines.push(format!(
                    "{} {} {} {:?}",
                    outcome.nodes, outcome.mv, outcome.value, outcome.pv
                ));
            });
            lines
        })
        .collect();
    assert_eq!(searched[0].len(), 30);
    for (set, lines) in available.iter().zip(&searched).skip(1) {
        assert_eq!(
            lines,
            &searched[0],
            "{} against {}",
            set.name(),
            available[0].name()
        );
    }
}
