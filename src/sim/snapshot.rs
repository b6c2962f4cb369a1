//! The snapshot format: a flock's exact state as bytes and back. This module is the codec
//! (the frame, the checksum, the reader that never reads past the end, and why a snapshot
//! is refused); what a flock writes into it is `flock/snapshot.rs`, what the hawks, leaders,
//! obstacles and pointer write is `Behaviours::write_snapshot`. A leaf: it knows nothing of
//! the flock or its step.
//!
//! Layout, little-endian throughout:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | `BOID`, the magic |
//! | 1 | the format's version (`VERSION`) |
//! | 4 | the snapshot's whole length in bytes, checksum included (u32) |
//! | … | the payload: the parameters, the flock, its behaviours (`Flock::snapshot`) |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! Floats are written as their raw bits: every value comes back exactly. A snapshot is
//! refused, never half read, when any of this is wrong or a value in it could not be a
//! flock's (`SnapshotError`); the reader checks each length against the bytes left before
//! it reads or allocates anything.

/// The first four bytes of every snapshot.
pub const MAGIC: [u8; 4] = *b"BOID";
/// The format this build writes and reads. A change of layout (or of what a step reads)
/// is a new version: an old snapshot is refused with `Version`, not misread.
pub const VERSION: u8 = 2;
/// Magic, version and length.
const HEADER: usize = 9;
/// The FNV-1a 64 at the end.
const CHECKSUM: usize = 8;
/// The shortest snapshot there could be: a header and a checksum.
const FRAME: usize = HEADER + CHECKSUM;

/// Why a snapshot was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    /// It does not start with `BOID`.
    NotASnapshot,
    /// Written in format version `found`; this build reads `read`.
    Version { found: u8, read: u8 },
    /// `present` bytes where the snapshot needs `needed` (what its header says, or a
    /// header's worth).
    Truncated { present: usize, needed: usize },
    /// `present` bytes where the snapshot says it holds `needed`: something was added.
    TrailingBytes { present: usize, needed: usize },
    /// Longer than any flock's snapshot (`most` bytes): refused before it is read.
    TooLong { present: usize, most: usize },
    /// The checksum does not match the bytes: altered or damaged.
    ChecksumMismatch,
    /// More of something than a flock may have: `count` of `what`, where `most` is the
    /// table's (or the behaviours') maximum.
    TooMany {
        what: &'static str,
        count: usize,
        most: usize,
    },
    /// A setting outside its row of the parameter table (the parameter's name).
    Setting(&'static str),
    /// Whole and intact, but a value in it could not be a flock's (it says which).
    OutOfRange(&'static str),
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Integers only (as usize: the module prints those already): printing a float would
        // bring float formatting into the wasm module.
        match *self {
            SnapshotError::NotASnapshot => f.write_str("not a boids snapshot"),
            SnapshotError::Version { found, read } => {
                let (found, read) = (usize::from(found), usize::from(read));
                write!(f, "format version {found}; this build reads version {read}")
            }
            SnapshotError::Truncated { present, needed } => {
                write!(f, "truncated: {present} bytes of {needed}")
            }
            SnapshotError::TrailingBytes { present, needed } => {
                write!(
                    f,
                    "{present} bytes where it holds {needed}: bytes were added"
                )
            }
            SnapshotError::TooLong { present, most } => {
                write!(f, "{present} bytes: a snapshot is at most {most}")
            }
            SnapshotError::ChecksumMismatch => {
                f.write_str("the checksum does not match: altered or damaged")
            }
            SnapshotError::TooMany { what, count, most } => {
                write!(f, "out of range: {count} {what}, more than {most}")
            }
            SnapshotError::Setting(name) => write!(f, "out of range: the setting {name}"),
            SnapshotError::OutOfRange(what) => write!(f, "out of range: {what}"),
        }
    }
}

impl std::error::Error for SnapshotError {}

/// FNV-1a 64 of `bytes`: any one byte changed changes it (each step, an xor with the byte
/// and a multiplication by an odd prime, is one-to-one), and it is a dozen lines, where a
/// crate would add to the module.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
    })
}

/// A snapshot being written: the header first, `finish` seals it.
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// A snapshot of about `payload` bytes of payload.
    pub fn new(payload: usize) -> Self {
        let mut bytes = Vec::with_capacity(FRAME + payload);
        bytes.extend_from_slice(&MAGIC);
        bytes.push(VERSION);
        bytes.extend_from_slice(&[0; 4]);
        Writer { bytes }
    }

    /// Appends `bytes`: every write goes through this one copy (inlined at each write,
    /// the growing vector's code made `Flock::snapshot` 4 KB of the wasm module).
    #[inline(never)]
    fn put(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    pub fn u8(&mut self, value: u8) {
        self.put(&[value]);
    }

    pub fn u32(&mut self, value: u32) {
        self.put(&value.to_le_bytes());
    }

    pub fn u64(&mut self, value: u64) {
        self.put(&value.to_le_bytes());
    }

    pub fn f32(&mut self, value: f32) {
        self.u32(value.to_bits());
    }

    pub fn f64(&mut self, value: f64) {
        self.u64(value.to_bits());
    }

    #[inline(never)]
    pub fn f32s(&mut self, values: &[f32]) {
        for &value in values {
            self.f32(value);
        }
    }

    #[inline(never)]
    pub fn u32s(&mut self, values: &[u32]) {
        for &value in values {
            self.u32(value);
        }
    }

    pub fn bytes(&mut self, values: &[u8]) {
        self.put(values);
    }

    /// The snapshot: its length written into the header, the checksum appended. A flock's
    /// snapshot is a few MB at most (100,000 boids), far inside the u32 of the length.
    pub fn finish(mut self) -> Vec<u8> {
        let length = (self.bytes.len() + CHECKSUM) as u32;
        for (at, byte) in (5..HEADER).zip(length.to_le_bytes()) {
            self.bytes[at] = byte;
        }
        let sum = checksum(&self.bytes);
        self.put(&sum.to_le_bytes());
        self.bytes
    }
}

/// A snapshot's payload being read: every read checks the bytes left first, so no input,
/// however made, reads past the end or allocates more than it holds.
///
/// The first refusal sticks: a read that fails, or a check that does not hold, keeps its
/// reason, and from then on every read gives nothing (zeros, empty arrays) until `finish`
/// gives the reason back. The reading code runs straight through with no way out half way:
/// in the wasm module each way out (its `?`, and the drops of what was read before it)
/// cost code, twice what the reading itself does.
pub struct Reader<'a> {
    /// The payload not yet read (nothing once refused).
    rest: &'a [u8],
    /// The first reason to refuse the snapshot.
    refused: Option<SnapshotError>,
}

impl<'a> Reader<'a> {
    /// The payload of `snapshot`, once its magic, version, length and checksum are right
    /// (in that order: each error says the first thing wrong). Longer than `most` bytes is
    /// refused before the checksum is computed.
    pub fn open(snapshot: &'a [u8], most: usize) -> Result<Self, SnapshotError> {
        let present = snapshot.len();
        let magic = present.min(MAGIC.len());
        if snapshot[..magic] != MAGIC[..magic] {
            return Err(SnapshotError::NotASnapshot);
        }
        if let Some(&found) = snapshot.get(MAGIC.len()) {
            if found != VERSION {
                return Err(SnapshotError::Version {
                    found,
                    read: VERSION,
                });
            }
        }
        let Some(&[a, b, c, d]) = snapshot.get(5..HEADER) else {
            return Err(SnapshotError::Truncated {
                present,
                needed: FRAME,
            });
        };
        if present > most {
            return Err(SnapshotError::TooLong { present, most });
        }
        let needed = (u32::from_le_bytes([a, b, c, d]) as usize).max(FRAME);
        if present < needed {
            return Err(SnapshotError::Truncated { present, needed });
        }
        if present > needed {
            return Err(SnapshotError::TrailingBytes { present, needed });
        }
        let (body, sum) = snapshot.split_at(present - CHECKSUM);
        let stored = sum
            .iter()
            .rev()
            .fold(0, |word, &byte| word << 8 | u64::from(byte));
        if checksum(body) != stored {
            return Err(SnapshotError::ChecksumMismatch);
        }
        Ok(Reader {
            rest: &body[HEADER..],
            refused: None,
        })
    }

    /// Refuses the snapshot for `reason`, unless it was refused already (the first reason
    /// is the one given).
    #[inline(never)]
    pub fn refuse(&mut self, reason: SnapshotError) {
        self.rest = &[];
        if self.refused.is_none() {
            self.refused = Some(reason);
        }
    }

    /// Refuses the snapshot for `why` unless `holds`.
    pub fn check(&mut self, holds: bool, why: &'static str) {
        if !holds {
            self.refuse(SnapshotError::OutOfRange(why));
        }
    }

    /// The next `n` bytes; none, refusing, if there are fewer left. Past the end only when
    /// the counts inside an intact snapshot lie: it was made by hand, not by
    /// `Flock::snapshot`.
    #[inline(never)]
    fn take(&mut self, n: usize) -> &'a [u8] {
        if n > self.rest.len() {
            self.check(false, "its counts need more bytes than the snapshot holds");
            return &[];
        }
        let (taken, rest) = self.rest.split_at(n);
        self.rest = rest;
        taken
    }

    /// The next `n` bytes (at most 8), least significant first, as a number: every
    /// number read goes through this one function.
    #[inline(never)]
    fn word(&mut self, n: usize) -> u64 {
        let bytes = self.take(n);
        bytes
            .iter()
            .rev()
            .fold(0, |word, &byte| word << 8 | u64::from(byte))
    }

    pub fn u32(&mut self) -> u32 {
        self.word(4) as u32
    }

    pub fn u64(&mut self) -> u64 {
        self.word(8)
    }

    pub fn f32(&mut self) -> f32 {
        f32::from_bits(self.u32())
    }

    pub fn f64(&mut self) -> f64 {
        f64::from_bits(self.u64())
    }

    /// `n` words of four bytes (checked against the bytes left before anything is
    /// allocated).
    #[inline(never)]
    pub fn u32s(&mut self, n: usize) -> Vec<u32> {
        let bytes = self.take(n.saturating_mul(4));
        let mut words = Vec::with_capacity(bytes.len() / 4);
        for b in bytes.chunks_exact(4) {
            words.push(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        }
        words
    }

    /// `n` floats, each from `low` to `high` (so finite, where those are); `refused` says
    /// what they are if one is not. The check is in the loop that reads them: one loop,
    /// not a second over them after.
    #[inline(never)]
    pub fn f32s_within(
        &mut self,
        n: usize,
        low: f32,
        high: f32,
        refused: &'static str,
    ) -> Vec<f32> {
        let bytes = self.take(n.saturating_mul(4));
        let mut values = Vec::with_capacity(bytes.len() / 4);
        for b in bytes.chunks_exact(4) {
            let value = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if !(value >= low && value <= high) {
                self.check(false, refused);
                return Vec::new();
            }
            values.push(value);
        }
        values
    }

    /// `n` finite floats; `refused` says what they are if one is not.
    pub fn finite_f32s(&mut self, n: usize, refused: &'static str) -> Vec<f32> {
        self.f32s_within(n, f32::MIN, f32::MAX, refused)
    }

    /// `n` bytes, each below `end`; `refused` says what they are if one is not.
    #[inline(never)]
    pub fn bytes_below(&mut self, n: usize, end: u8, refused: &'static str) -> Vec<u8> {
        let bytes = self.take(n);
        self.check(bytes.iter().all(|&byte| byte < end), refused);
        bytes.to_vec()
    }

    /// A count written in `width` bytes, at most `most` (0, refusing, if more); `what`
    /// names what is counted.
    #[inline(never)]
    pub fn count(&mut self, width: usize, most: usize, what: &'static str) -> usize {
        let count = self.word(width) as usize;
        if count > most {
            self.refuse(SnapshotError::TooMany { what, count, most });
            return 0;
        }
        count
    }

    /// The end: the first refusal, if any; else nothing may be left over.
    pub fn finish(self) -> Result<(), SnapshotError> {
        match self.refused {
            Some(reason) => Err(reason),
            None if self.rest.is_empty() => Ok(()),
            None => Err(SnapshotError::OutOfRange("bytes left over after the flock")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_past_the_end_refuses_gives_nothing_and_the_first_reason_sticks() {
        let mut out = Writer::new(0);
        out.u32(7);
        let bytes = out.finish();
        let mut input = Reader::open(&bytes, usize::MAX).unwrap();
        assert_eq!(input.u64(), 0, "8 bytes where 4 are: nothing");
        assert_eq!(input.u32(), 0, "once refused, every read gives nothing");
        assert!(input.u32s(usize::MAX).is_empty());
        input.check(false, "a later reason");
        let first = SnapshotError::OutOfRange("its counts need more bytes than the snapshot holds");
        assert_eq!(input.finish(), Err(first));
        let mut input = Reader::open(&bytes, usize::MAX).unwrap();
        assert_eq!(input.count(4, 6, "boids"), 0, "7 boids, more than 6: none");
        let many = SnapshotError::TooMany {
            what: "boids",
            count: 7,
            most: 6,
        };
        assert_eq!(input.finish(), Err(many));
        let mut input = Reader::open(&bytes, usize::MAX).unwrap();
        assert_eq!(input.u32(), 7);
        assert_eq!(input.finish(), Ok(()));
    }
}
