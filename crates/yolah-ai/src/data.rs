//! Training positions on disk: a compact binary format (`docs/data-format.md`).
//!
//! A file is a 32-byte header (magic `YOLAHPOS`, format version, record size, the fingerprint
//! of the run that wrote it) followed by blocks. A block is its record count and the CRC-32 of
//! its records, then the records: 32 bytes each, a position and its labels. Blocks are written
//! whole, so a file cut by a kill ends in at most one partial block, which the reader reports
//! (with its offset) and a resumed run cuts off.

use crate::arena::shard::Shard;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;
use yolah_core::{Bitboard, Color, Position};

/// A record's byte 27 is 0 when no exact value is known, else the exact margin plus this
/// (1 to 129): version 1's byte 27, the high byte of a ply below 256, reads as none.
const EXACT_OFFSET: i16 = 65;

/// The first 8 bytes of a data file.
pub const MAGIC: &[u8; 8] = b"YOLAHPOS";
/// The format version this code writes; it reads [`OLDEST_VERSION`] to this. Version 3's
/// block checksum covers the block's count as well as its records (so that zero bytes added
/// to a file do not read as an empty game); version 2 added exact values.
pub const VERSION: u16 = 3;
/// The oldest version this code reads: version 1 had no exact values (its byte 27, the high
/// byte of a ply below 256, is always 0).
pub const OLDEST_VERSION: u16 = 1;
/// Bytes per record.
pub const RECORD_SIZE: usize = 32;
/// Bytes of the file header.
pub const HEADER_SIZE: usize = 32;
/// Bytes of a block header (count, checksum).
pub const BLOCK_HEADER_SIZE: usize = 8;
/// The most records a block holds.
pub const BLOCK_RECORDS: usize = 4096;

/// One position and what became of it, all from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position.
    pub position: Position,
    /// The game's result: 1 won, 0 drawn, −1 lost.
    pub result: i8,
    /// The game's final margin in points.
    pub margin: i8,
    /// The search's value of the position, in hundredths of a point (proved results clamped
    /// to ±10000).
    pub score: i16,
    /// The position's exact value when the solver proved it (`selfplay --exact-free`): the
    /// final margin both sides reach with best play, −64 to 64.
    pub exact: Option<i8>,
}

impl Sample {
    /// The 32 bytes of the record (little-endian).
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let p = &self.position;
        let mut bytes = [0; RECORD_SIZE];
        bytes[0..8].copy_from_slice(&p.pieces(Color::Black).0.to_le_bytes());
        bytes[8..16].copy_from_slice(&p.pieces(Color::White).0.to_le_bytes());
        bytes[16..24].copy_from_slice(&p.holes().0.to_le_bytes());
        bytes[24] = p.score(Color::Black);
        bytes[25] = p.score(Color::White);
        bytes[26] = u8::try_from(p.ply()).expect("a game lasts fewer than 256 plies");
        bytes[27] = self
            .exact
            .map_or(0, |m| (i16::from(m) + EXACT_OFFSET) as u8);
        bytes[28] = self.result as u8;
        bytes[29] = self.margin as u8;
        bytes[30..32].copy_from_slice(&self.score.to_le_bytes());
        bytes
    }

    /// Reads a record, checking the position and the labels.
    pub fn from_bytes(bytes: &[u8; RECORD_SIZE]) -> Result<Sample, String> {
        let word = |i: usize| {
            Bitboard(u64::from_le_bytes(
                bytes[i..i + 8].try_into().expect("8 bytes"),
            ))
        };
        let ply = u16::from(bytes[26]);
        let position =
            Position::from_parts_checked([word(0), word(8)], word(16), [bytes[24], bytes[25]], ply)
                .map_err(|e| format!("bad position: {e}"))?;
        let result = bytes[28] as i8;
        let margin = bytes[29] as i8;
        let score = i16::from_le_bytes([bytes[30], bytes[31]]);
        if !(-1..=1).contains(&result) {
            return Err(format!("bad result {result} (expected -1, 0 or 1)"));
        }
        if result != margin.signum() {
            return Err(format!("result {result} disagrees with margin {margin}"));
        }
        if !(-10_000..=10_000).contains(&score) {
            return Err(format!("bad search score {score}"));
        }
        let exact = match i16::from(bytes[27]) {
            0 => None,
            byte if byte - EXACT_OFFSET <= 64 => Some((byte - EXACT_OFFSET) as i8),
            byte => return Err(format!("bad exact value byte {byte:#04x}")),
        };
        Ok(Sample {
            position,
            result,
            margin,
            score,
            exact,
        })
    }
}

/// The file header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The fingerprint of the run that wrote the file (its config).
    pub fingerprint: u64,
    /// The part of the run's games the file holds, when the run was split (`--shard K/N`):
    /// a shard's data proves which shard it is.
    pub shard: Option<Shard>,
}

impl Header {
    /// The 32 bytes of the header.
    pub fn to_bytes(self) -> [u8; HEADER_SIZE] {
        let mut bytes = [0; HEADER_SIZE];
        bytes[0..8].copy_from_slice(MAGIC);
        bytes[8..10].copy_from_slice(&VERSION.to_le_bytes());
        bytes[10..12].copy_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
        bytes[16..24].copy_from_slice(&self.fingerprint.to_le_bytes());
        if let Some(shard) = self.shard {
            // K ≤ N ≤ 10000: both fit in 16 bits.
            bytes[24..26].copy_from_slice(&(shard.index as u16).to_le_bytes());
            bytes[26..28].copy_from_slice(&(shard.count as u16).to_le_bytes());
        }
        bytes
    }

    fn from_bytes(bytes: &[u8]) -> Result<Header, DataError> {
        let bad = |reason: String| DataError { offset: 0, reason };
        if bytes.len() < HEADER_SIZE {
            return Err(bad(format!(
                "{} bytes: too short for the {HEADER_SIZE}-byte header",
                bytes.len()
            )));
        }
        if &bytes[0..8] != MAGIC {
            return Err(bad("not a Yolah data file (no YOLAHPOS magic)".to_string()));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(bad(format!(
                "format version {version}; this yolah reads versions {OLDEST_VERSION} to {VERSION}"
            )));
        }
        let size = u16::from_le_bytes([bytes[10], bytes[11]]);
        if usize::from(size) != RECORD_SIZE {
            return Err(bad(format!(
                "records of {size} bytes; version {VERSION} has {RECORD_SIZE}"
            )));
        }
        for (from, to) in [(12, 16), (28, 32)] {
            if let Some(at) = (from..to).find(|&at| bytes[at] != 0) {
                return Err(DataError {
                    offset: at as u64,
                    reason: "a reserved byte of the header is not 0 (the file is damaged)"
                        .to_string(),
                });
            }
        }
        let index = u16::from_le_bytes([bytes[24], bytes[25]]);
        let count = u16::from_le_bytes([bytes[26], bytes[27]]);
        let shard = match (index, count) {
            (0, 0) => None,
            _ => Some(Shard::new(index.into(), count.into()).map_err(bad)?),
        };
        Ok(Header {
            fingerprint: u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes")),
            shard,
        })
    }
}

/// Why data cannot be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// The byte offset of the damage.
    pub offset: u64,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.reason)
    }
}

impl std::error::Error for DataError {}

/// A file's contents, checked.
#[derive(Clone, Debug)]
pub struct DataFile {
    /// The header.
    pub header: Header,
    /// The file's format version: blocks added to it are written in it ([`write_block`]).
    pub version: u16,
    /// Every record of its whole blocks, in order.
    pub samples: Vec<Sample>,
    /// The record count of each whole block, in order (self-play writes one block per game).
    pub blocks: Vec<usize>,
    /// Where the whole blocks end; past it, `damaged` says what was found.
    pub valid_len: u64,
    /// A last block cut short (by a kill): its offset and reason. Earlier damage is an error.
    pub damaged: Option<DataError>,
}

/// Reads and checks a whole file. A damaged block is an error, except a last one cut short,
/// which is reported in [`DataFile::damaged`].
pub fn read(bytes: &[u8]) -> Result<DataFile, DataError> {
    read_from(bytes).map_err(|e| match e {
        ReadError::Data(e) => e,
        ReadError::Io(e) => unreachable!("reading a slice cannot fail: {e}"),
    })
}

/// Why a stream of data cannot be read.
enum ReadError {
    Io(io::Error),
    Data(DataError),
}

impl From<DataError> for ReadError {
    fn from(error: DataError) -> ReadError {
        ReadError::Data(error)
    }
}

/// Fills `buffer` from `input` as far as it goes; returns how many bytes came.
fn fill(input: &mut impl Read, buffer: &mut [u8]) -> Result<usize, ReadError> {
    let mut filled = 0;
    while filled < buffer.len() {
        match input.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    Ok(filled)
}

/// [`read`] from a stream, one block at a time: memory holds the samples, never more than a
/// block of raw bytes.
fn read_from(mut input: impl Read) -> Result<DataFile, ReadError> {
    let mut head = [0; HEADER_SIZE];
    let got = fill(&mut input, &mut head)?;
    let header = Header::from_bytes(&head[..got])?;
    // Checked by the header's reading.
    let version = u16::from_le_bytes([head[8], head[9]]);
    let mut samples = Vec::new();
    let mut blocks = Vec::new();
    let mut offset = HEADER_SIZE as u64;
    let mut records = Vec::new();
    loop {
        let at = offset;
        let cut = |reason: String| DataError { offset: at, reason };
        let mut block_header = [0; BLOCK_HEADER_SIZE];
        match fill(&mut input, &mut block_header)? {
            0 => break,
            BLOCK_HEADER_SIZE => {}
            _ => {
                let damage = cut("a block header cut short".into());
                return Ok(truncated(header, version, samples, blocks, at, damage));
            }
        }
        let count = u32::from_le_bytes(block_header[0..4].try_into().expect("4 bytes")) as usize;
        let checksum = u32::from_le_bytes(block_header[4..8].try_into().expect("4 bytes"));
        if count > BLOCK_RECORDS {
            return Err(cut(format!(
                "a block of {count} records (at most {BLOCK_RECORDS})"
            ))
            .into());
        }
        let size = count * RECORD_SIZE;
        records.resize(size, 0);
        let got = fill(&mut input, &mut records)?;
        if got < size {
            let damage = cut(format!(
                "a block of {count} records cut short ({got} of {size} bytes)"
            ));
            return Ok(truncated(header, version, samples, blocks, at, damage));
        }
        if block_checksum(version, &block_header[0..4], &records) != checksum {
            return Err(cut("block checksum mismatch".to_string()).into());
        }
        for (i, record) in records.chunks_exact(RECORD_SIZE).enumerate() {
            let record: &[u8; RECORD_SIZE] = record.try_into().expect("chunks of the size");
            let sample = Sample::from_bytes(record).map_err(|reason| DataError {
                offset: at + (BLOCK_HEADER_SIZE + i * RECORD_SIZE) as u64,
                reason,
            })?;
            samples.push(sample);
        }
        offset += (BLOCK_HEADER_SIZE + size) as u64;
        blocks.push(count);
    }
    Ok(DataFile {
        header,
        version,
        samples,
        blocks,
        valid_len: offset,
        damaged: None,
    })
}

fn truncated(
    header: Header,
    version: u16,
    samples: Vec<Sample>,
    blocks: Vec<usize>,
    at: u64,
    damage: DataError,
) -> DataFile {
    DataFile {
        header,
        version,
        samples,
        blocks,
        valid_len: at,
        damaged: Some(damage),
    }
}

/// Reads and checks the data file at `path` ([`read`]), a regular file read a block at a
/// time; the error names the file.
pub fn read_file(path: &Path) -> Result<DataFile, String> {
    let file = crate::files::open_regular(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    read_from(io::BufReader::new(file)).map_err(|e| match e {
        ReadError::Io(e) => format!("cannot read {}: {e}", path.display()),
        ReadError::Data(e) => format!("{}: {e}", path.display()),
    })
}

/// The format version of the data file at `path`, from its header (checked): blocks added
/// to the file are written in it.
pub fn file_version(path: &Path) -> Result<u16, String> {
    let mut file = crate::files::open_regular(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut head = [0; HEADER_SIZE];
    let got = match fill(&mut file, &mut head) {
        Ok(got) => got,
        Err(ReadError::Io(e)) => return Err(format!("cannot read {}: {e}", path.display())),
        Err(ReadError::Data(e)) => return Err(format!("{}: {e}", path.display())),
    };
    Header::from_bytes(&head[..got]).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(u16::from_le_bytes([head[8], head[9]]))
}

/// Creates the data file `path` (it must not exist: data is never overwritten) with its
/// header, ready for blocks.
pub fn create_file(path: &Path, header: Header) -> io::Result<File> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(&header.to_bytes())?;
    Ok(file)
}

/// Writes a block of samples (at most [`BLOCK_RECORDS`]; none for a game without a searched
/// position) with one write, in format `version` (the file's: [`VERSION`] for a new one).
pub fn write_block(out: &mut impl Write, version: u16, samples: &[Sample]) -> io::Result<()> {
    assert!(
        samples.len() <= BLOCK_RECORDS,
        "a block holds at most {BLOCK_RECORDS} records"
    );
    let mut bytes = Vec::with_capacity(BLOCK_HEADER_SIZE + samples.len() * RECORD_SIZE);
    bytes.extend_from_slice(&(samples.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&[0; 4]);
    for sample in samples {
        bytes.extend_from_slice(&sample.to_bytes());
    }
    let checksum = block_checksum(version, &bytes[0..4], &bytes[BLOCK_HEADER_SIZE..]);
    bytes[4..8].copy_from_slice(&checksum.to_le_bytes());
    out.write_all(&bytes)
}

/// A block's checksum in format `version`: the CRC-32 of its count's four bytes and its
/// records from version 3, of its records alone before.
fn block_checksum(version: u16, count: &[u8], records: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    if version >= 3 {
        hasher.update(count);
    }
    hasher.update(records);
    hasher.finalize()
}

/// Splits a file's samples into its blocks (games, for self-play data).
pub fn games(file: &DataFile) -> Vec<&[Sample]> {
    let mut rest = file.samples.as_slice();
    file.blocks
        .iter()
        .map(|&n| {
            let (game, tail) = rest.split_at(n);
            rest = tail;
            game
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(n: usize) -> Vec<Sample> {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let mut out = Vec::new();
        while out.len() < n {
            let mut position = Position::start();
            while !position.game_over() && out.len() < n {
                let margin = (out.len() % 7) as i8 - 3;
                out.push(Sample {
                    position,
                    result: margin.signum(),
                    margin,
                    score: (out.len() as i16 % 900) - 450,
                    exact: None,
                });
                position.play(position.random_move(&mut rng));
            }
        }
        out
    }

    fn file(samples: &[Sample]) -> Vec<u8> {
        file_of(VERSION, samples)
    }

    /// A file of format `version` (its header and blocks).
    fn file_of(version: u16, samples: &[Sample]) -> Vec<u8> {
        let mut bytes = Header {
            fingerprint: 42,
            shard: None,
        }
        .to_bytes()
        .to_vec();
        bytes[8..10].copy_from_slice(&version.to_le_bytes());
        for block in samples.chunks(BLOCK_RECORDS) {
            write_block(&mut bytes, version, block).unwrap();
        }
        bytes
    }

    #[test]
    fn samples_round_trip() {
        let samples = samples(5000);
        let bytes = file(&samples);
        let read = read(&bytes).unwrap();
        assert_eq!(read.samples, samples);
        assert_eq!(read.header.fingerprint, 42);
        assert_eq!(read.valid_len, bytes.len() as u64);
        assert_eq!(read.blocks, [BLOCK_RECORDS, 5000 - BLOCK_RECORDS]);
        assert!(read.damaged.is_none());
    }

    /// Eight zero bytes added to a file are not a game: a version 3 block's checksum covers its
    /// count (an empty block's is not 0); in version 2 they read as an empty game, as before.
    #[test]
    fn zero_bytes_added_are_not_a_game() {
        let samples = samples(10);
        for (version, games) in [(VERSION, None), (2, Some(2))] {
            let mut bytes = file_of(version, &samples);
            let end = bytes.len() as u64;
            bytes.extend_from_slice(&[0; 8]);
            match (read(&bytes), games) {
                (Err(error), None) => {
                    assert_eq!(error.offset, end, "{error}");
                    assert!(error.reason.contains("checksum"), "{error}");
                }
                (Ok(read), Some(games)) => assert_eq!(read.blocks.len(), games),
                (other, _) => panic!("version {version}: {other:?}"),
            }
        }
        // An empty game written as one is read as one.
        let mut bytes = file(&samples);
        write_block(&mut bytes, VERSION, &[]).unwrap();
        assert_eq!(read(&bytes).unwrap().blocks, [10, 0]);
    }

    /// Exact values round-trip, every one from −64 to 64; a version 1 file (none) is read;
    /// a byte past the range is refused.
    #[test]
    fn exact_values_and_version_one() {
        let mut samples = samples(300);
        for (i, sample) in samples.iter_mut().enumerate().step_by(2) {
            sample.exact = Some(i8::try_from(i % 129).map_or(64, |v| v - 64));
        }
        assert!(samples.iter().any(|s| s.exact == Some(-64)));
        assert!(samples.iter().any(|s| s.exact == Some(64)));
        let bytes = file(&samples);
        assert_eq!(read(&bytes).unwrap().samples, samples);
        let plain: Vec<Sample> = samples
            .iter()
            .map(|s| Sample { exact: None, ..*s })
            .collect();
        let old = file_of(1, &plain);
        assert_eq!(read(&old).unwrap().samples, plain, "version 1");
        assert_eq!(read(&old).unwrap().version, 1);
        let two = file_of(2, &samples);
        assert_eq!(read(&two).unwrap().samples, samples, "version 2");
        let mut past = samples[1].to_bytes();
        past[27] = 130;
        assert!(
            Sample::from_bytes(&past)
                .unwrap_err()
                .contains("bad exact value byte 0x82")
        );
    }

    #[test]
    fn damage_is_refused_with_its_offset() {
        let good = file(&samples(100));
        let first_record = (HEADER_SIZE + BLOCK_HEADER_SIZE) as u64;
        let mut cases: Vec<(Vec<u8>, &str, u64)> = Vec::new();
        let mut foreign = good.clone();
        foreign[0] = b'X';
        cases.push((foreign, "not a Yolah data file", 0));
        let mut version = good.clone();
        version[8] = 9;
        cases.push((version, "format version 9", 0));
        let mut size = good.clone();
        size[10] = 40;
        cases.push((size, "records of 40 bytes", 0));
        cases.push((good[..10].to_vec(), "too short", 0));
        let mut flipped = good.clone();
        flipped[HEADER_SIZE + BLOCK_HEADER_SIZE + 3] ^= 1;
        cases.push((flipped, "checksum", HEADER_SIZE as u64));
        let mut count = good.clone();
        count[HEADER_SIZE..HEADER_SIZE + 4].copy_from_slice(&5000u32.to_le_bytes());
        cases.push((count, "a block of 5000 records", HEADER_SIZE as u64));
        // A record whose position is impossible, with a correct checksum.
        let three = samples(3);
        let mut bytes = Header {
            fingerprint: 1,
            shard: None,
        }
        .to_bytes()
        .to_vec();
        let mut bad = three[1].to_bytes();
        bad[24] = 9; // black's score without the holes
        let mut block = Vec::new();
        write_block(&mut block, VERSION, &three[..1]).unwrap();
        let mut records = block[BLOCK_HEADER_SIZE..].to_vec();
        records.extend_from_slice(&bad);
        bytes.extend_from_slice(&2u32.to_le_bytes());
        bytes.extend_from_slice(
            &block_checksum(VERSION, &2u32.to_le_bytes(), &records).to_le_bytes(),
        );
        bytes.extend_from_slice(&records);
        cases.push((bytes, "bad position", first_record + RECORD_SIZE as u64));
        for (bytes, expected, offset) in cases {
            let error = read(&bytes).unwrap_err();
            assert!(error.reason.contains(expected), "{expected}: {error}");
            assert_eq!(error.offset, offset, "{expected}: {error}");
        }
        // A last block cut short is reported, not an error; the whole blocks are kept.
        let two = file(&samples(BLOCK_RECORDS + 10));
        let cut = &two[..two.len() - 5];
        let read = read(cut).unwrap();
        assert_eq!(read.samples.len(), BLOCK_RECORDS);
        let damage = read.damaged.unwrap();
        assert!(damage.reason.contains("cut short"), "{damage}");
        assert_eq!(read.valid_len, damage.offset);
    }

    #[test]
    fn labels_are_checked() {
        let mut record = samples(1)[0].to_bytes();
        record[28] = 5;
        assert!(
            Sample::from_bytes(&record)
                .unwrap_err()
                .contains("bad result")
        );
        record[28] = 1;
        record[29] = (-2i8) as u8;
        assert!(
            Sample::from_bytes(&record)
                .unwrap_err()
                .contains("disagrees")
        );
    }
}
