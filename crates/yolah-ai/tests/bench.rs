//! The bench signature: the total nodes of `yolah bench` at its default depth. It changes only
//! when the search or the evaluation changes; such a commit updates it here and gives it in its
//! message.

use yolah_ai::eval::Weights;
use yolah_ai::search::bench;

const SIGNATURE: u64 = 1_841_196;

#[test]
fn the_bench_signature_is_the_committed_one() {
    let positions = bench::positions();
    assert_eq!(positions.len(), 30);
    let mut seen = 0;
    let totals = bench::run(bench::DEFAULT_DEPTH, Weights::tuned(), |_, outcome| {
        assert!(outcome.depth == bench::DEFAULT_DEPTH || outcome.proven);
        seen += 1;
    });
    assert_eq!(seen, 30);
    assert_eq!(
        totals.nodes, SIGNATURE,
        "the search changed: update SIGNATURE"
    );
}
