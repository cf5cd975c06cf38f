//! Builds the attack tables from magic numbers, renders them as Rust source, and checks the
//! committed files.

use crate::bitboard::Bitboard;
use crate::magic::Magic;
use crate::search::find_magic;
use crate::slider::{Slider, subsets};
use crate::square::Square;
use anyhow::{Context, Result, bail, ensure};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

const MAGICS_FILE: &str = "magics.rs";
const ORTHOGONAL_FILE: &str = "orthogonal_attacks.rs";
const DIAGONAL_FILE: &str = "diagonal_attacks.rs";

/// Table sizes fixed by the edge-excluded masks (book §2.3.2).
const ORTHOGONAL_SIZE: usize = 102_400;
const DIAGONAL_SIZE: usize = 5_248;

/// The magics of one slider, a1..h8, with the table they index.
struct SliderTables {
    slider: Slider,
    magics: Vec<Magic>,
    attacks: Vec<u64>,
}

impl SliderTables {
    /// Lays out the squares' slices one after another and fills them, failing if a magic is
    /// not a perfect hash for its square.
    fn build(slider: Slider, multipliers: &[u64]) -> Result<SliderTables> {
        let mut magics = Vec::with_capacity(64);
        let mut offset = 0u32;
        for square in Square::all() {
            let mask = slider.relevant_mask(square);
            let magic = Magic {
                mask: mask.0,
                magic: multipliers[square.index()],
                offset,
                shift: 64 - mask.count(),
            };
            offset += 1 << mask.count();
            magics.push(magic);
        }
        let mut attacks = vec![0u64; offset as usize];
        let mut written = vec![false; offset as usize];
        for (square, magic) in Square::all().zip(&magics) {
            for occupied in subsets(Bitboard(magic.mask)) {
                let attack = slider.reachable(square, occupied).0;
                let i = magic.index(occupied);
                if written[i] && attacks[i] != attack {
                    bail!(
                        "{} magic {:#x} for {square} is not a perfect hash: two occupancies \
                         with different moves share slot {i}",
                        name(slider),
                        magic.magic
                    );
                }
                written[i] = true;
                attacks[i] = attack;
            }
        }
        Ok(SliderTables {
            slider,
            magics,
            attacks,
        })
    }
}

fn name(slider: Slider) -> &'static str {
    match slider {
        Slider::Orthogonal => "orthogonal",
        Slider::Diagonal => "diagonal",
    }
}

fn prefix(slider: Slider) -> &'static str {
    match slider {
        Slider::Orthogonal => "O",
        Slider::Diagonal => "D",
    }
}

/// Searches all 128 magics in parallel and writes the three files into each of `dirs` (the
/// workspace's `tables/` and the copy that travels inside `yolah-core`).
pub fn generate(dirs: &[PathBuf], seed: u64) -> Result<()> {
    let start = Instant::now();
    let jobs: Vec<(Slider, Square)> = Slider::ALL
        .iter()
        .flat_map(|&s| Square::all().map(move |q| (s, q)))
        .collect();
    let bar = ProgressBar::new(jobs.len() as u64).with_style(
        ProgressStyle::with_template("searching magics {bar:40} {pos}/{len} squares {elapsed}")
            .expect("the template is valid"),
    );
    let found: Vec<(Slider, Square, u64, u64)> = jobs
        .par_iter()
        .map(|&(slider, square)| {
            let f = find_magic(slider, square, seed);
            bar.inc(1);
            (slider, square, f.magic, f.candidates)
        })
        .collect();
    bar.finish_and_clear();
    let mut sets = Vec::new();
    for slider in Slider::ALL {
        let multipliers: Vec<u64> = found
            .iter()
            .filter(|f| f.0 == slider)
            .map(|f| f.2)
            .collect();
        let tried: u64 = found.iter().filter(|f| f.0 == slider).map(|f| f.3).sum();
        eprintln!("{}: 64 magics found after {tried} candidates", name(slider));
        sets.push(SliderTables::build(slider, &multipliers)?);
    }
    let files = render(&sets, seed);
    for dir in dirs {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (file, text) in &files {
            let path = dir.join(file);
            fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("wrote {} ({} bytes)", path.display(), text.len());
        }
    }
    eprintln!(
        "done in {:.2} s (seed {seed})",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Rebuilds every file from the committed magics (of the first folder) and fails if any file
/// of any folder differs.
pub fn check(dirs: &[PathBuf]) -> Result<()> {
    let path = dirs[0].join(MAGICS_FILE);
    let committed =
        fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let seed = parse_seed(&committed).with_context(|| format!("in {}", path.display()))?;
    let mut sets = Vec::new();
    for slider in Slider::ALL {
        let array = format!("{}_MAGIC", prefix(slider));
        let multipliers =
            parse_array(&committed, &array).with_context(|| format!("in {}", path.display()))?;
        sets.push(SliderTables::build(slider, &multipliers)?);
    }
    let mut stale = Vec::new();
    for (file, expected) in render(&sets, seed) {
        for dir in dirs {
            let path = dir.join(file);
            let actual = fs::read_to_string(&path).unwrap_or_default();
            if actual != expected {
                stale.push(path.display().to_string());
            }
        }
    }
    if !stale.is_empty() {
        bail!(
            "these files do not match what the committed magics give: {}; \
             run `cargo xtask gen-magics` and commit the result",
            stale.join(", ")
        );
    }
    let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    eprintln!("{} consistent with their magics", names.join(" and "));
    Ok(())
}

fn render(sets: &[SliderTables], seed: u64) -> Vec<(&'static str, String)> {
    let header = format!(
        "// @generated by `cargo xtask gen-magics`; do not edit. Check: `cargo xtask gen-magics --check`.\n\
         // seed: {seed}\n"
    );
    let mut magics = header.clone();
    for set in sets {
        let p = prefix(set.slider);
        let n = name(set.slider);
        let column = |f: &dyn Fn(&Magic) -> String| set.magics.iter().map(f).collect::<Vec<_>>();
        write_array(
            &mut magics,
            &format!("{n} magic multipliers, a1..h8"),
            &format!("{p}_MAGIC"),
            "u64",
            &column(&|m| format!("{:#018x}", m.magic)),
            4,
        );
        write_array(
            &mut magics,
            &format!("{n} relevant-occupancy masks"),
            &format!("{p}_MASK"),
            "u64",
            &column(&|m| format!("{:#018x}", m.mask)),
            4,
        );
        write_array(
            &mut magics,
            &format!("{n} shifts: 64 minus the mask's bit count"),
            &format!("{p}_SHIFT"),
            "u32",
            &column(&|m| m.shift.to_string()),
            16,
        );
        write_array(
            &mut magics,
            &format!("start of each square's slice of the {n} attack table"),
            &format!("{p}_OFFSET"),
            "u32",
            &column(&|m| m.offset.to_string()),
            16,
        );
        let _ = writeln!(magics, "/// Number of entries of the {n} attack table.");
        let _ = writeln!(
            magics,
            "pub const {p}_TABLE_SIZE: usize = {};\n",
            set.attacks.len()
        );
    }
    let mut files = vec![(MAGICS_FILE, magics)];
    for set in sets {
        let expected = match set.slider {
            Slider::Orthogonal => ORTHOGONAL_SIZE,
            Slider::Diagonal => DIAGONAL_SIZE,
        };
        assert_eq!(set.attacks.len(), expected, "the masks fix the table sizes");
        let mut text = header.clone();
        let _ = writeln!(
            text,
            "// {} attack sets indexed by `Magic::index`.",
            name(set.slider)
        );
        text.push_str("[\n");
        for row in set.attacks.chunks(8) {
            let cells: Vec<String> = row.iter().map(|a| format!("{a:#x}")).collect();
            let _ = writeln!(text, "{},", cells.join(","));
        }
        text.push_str("]\n");
        files.push((
            match set.slider {
                Slider::Orthogonal => ORTHOGONAL_FILE,
                Slider::Diagonal => DIAGONAL_FILE,
            },
            text,
        ));
    }
    files
}

fn write_array(
    out: &mut String,
    doc: &str,
    name: &str,
    ty: &str,
    cells: &[String],
    per_line: usize,
) {
    let _ = writeln!(out, "/// The {doc}.");
    let _ = writeln!(out, "pub const {name}: [{ty}; 64] = [");
    for row in cells.chunks(per_line) {
        let _ = writeln!(out, "    {},", row.join(", "));
    }
    out.push_str("];\n\n");
}

fn parse_seed(text: &str) -> Result<u64> {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("// seed: "))
        .context("no `// seed: N` line")?;
    line.trim()
        .parse()
        .with_context(|| format!("bad seed line `{line}`"))
}

fn parse_array(text: &str, array: &str) -> Result<Vec<u64>> {
    let start = text
        .find(&format!("pub const {array}: [u64; 64] = ["))
        .with_context(|| format!("no `{array}` array"))?;
    let body = &text[start..];
    let open = body.find("= [").context("no array body")? + 3;
    let close = body
        .find("];")
        .with_context(|| format!("`{array}` is not closed"))?;
    let values: Vec<u64> = body[open..close]
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| {
            let hex = v
                .strip_prefix("0x")
                .with_context(|| format!("`{v}` is not hexadecimal"))?;
            u64::from_str_radix(hex, 16).with_context(|| format!("`{v}` is not a u64"))
        })
        .collect::<Result<_>>()?;
    ensure!(
        values.len() == 64,
        "`{array}` has {} values, expected 64",
        values.len()
    );
    Ok(values)
}
