#!/usr/bin/env python3
"""Builds the book's chapter-2 C++ program for same-run comparisons with ours.

    python3 benches/book/extract.py BOOK.txt OUT.cpp

BOOK.txt is the text extraction of the Yolah book (the project's source document
`shared/seeds/000_67cd6f41ae3dabe4.txt`); its section 2.6 holds the complete program (listings
39-42) with line numbers. This takes the listing, strips the numbers, joins the lines the
extraction wrapped (they start with an arrow), and makes three changes, each said below; the
engine itself is the book's, untouched. Build with `benches/book/compare.sh`.
"""
import re
import sys

book, out = sys.argv[1], sys.argv[2]
text = open(book, encoding="utf-8").read().split("\n")
start = next(i for i, l in enumerate(text) if l.startswith("2.6 Complete Board Game Code"))
end = next(i for i, l in enumerate(text) if l.startswith("Listing 42:"))
code = []
for line in text[start + 1 : end]:
    if line.startswith("```") or line.startswith("Listing ") or not line.strip():
        continue
    if line.lstrip().startswith("\u21aa"):
        code[-1] += line.lstrip()[1:].lstrip()
        continue
    numbered = re.match(r"^\s*(\d+) ?(.*)$", line)
    if numbered:
        code.append(numbered.group(2))
s = "\n".join(code)

# 1. The extraction garbled black's start (d5 came out as e5): the book's rules put black on
#    a1, d5, e4, h8. With this fix perft(1..5) equals ours (56, 2988, 164512, 8655628,
#    456814328).
garbled = "0b10000000'00000000'00000000'00010000'00010000'00000000'00000000'00000001;"
assert garbled in s, "the black start literal"
s = s.replace(garbled, "0b10000000'00000000'00000000'00001000'00010000'00000000'00000000'00000001;")
lines = s.split("\n")
# 2. The tests of listing 42 are cut: their extracted text does not compile, and main does not
#    call them.
tests = next(i for i, l in enumerate(lines) if l.startswith("// Differential and property-based tests"))
# 3. main is replaced by a benchmark entry (the listing's main plays one million games through
#    moves(), as `moves 1000000` does).
lines = lines[:tests] + [
    """// Perft with the book's move list: the last ply counted as moves().size() (bulk counting).
uint64_t perft(Yolah& yolah, int depth) {
    MoveList moves;
    yolah.moves(moves);
    if (depth == 1) return moves.size();
    uint64_t leaves = 0;
    for (const Move& m : moves) {
        yolah.play(m);
        leaves += perft(yolah, depth - 1);
        yolah.undo(m);
    }
    return leaves;
}

// Benchmark entry (added; the engine above is the book's):
//   chapter02 moves N   N random games through moves() (the listing's main)
//   chapter02 fast N    N random games through random_move() (listing 37)
//   chapter02 perft D   perft(D) from the start
int main(int argc, char** argv) {
    init_all_magics();
    string what = argc > 1 ? argv[1] : "moves";
    uint64_t n = argc > 2 ? stoull(argv[2]) : 1000000;
    if (what == "perft") {
        Yolah yolah;
        cout << perft(yolah, int(n)) << '\\n';
    } else if (what == "fast") {
        play_random_games_fast(n, 42);
    } else {
        play_random_games<false>(n, 42);
    }
}"""
]
open(out, "w", encoding="utf-8").write("\n".join(lines) + "\n")
