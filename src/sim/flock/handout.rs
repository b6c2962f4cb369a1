//! A step handed out to workers, then taken in (the page's `Flock.shareBegin` …
//! `shareFinish` are its thin callers): the rule that a shared step is taken in only if the
//! flock is still the one it was handed out from. The workers stepped the boids and the
//! head they were given; a flock that has stepped, been given new boids or another count
//! since (its `revision`, its `len`), or had a setting or behaviour changed (its
//! `step_head`) would take in a step of some other flock. Refused, the caller steps on its
//! own. `tests/parts.rs` checks the rule, change by change.

use super::{Flock, PartState, Totals};

/// A step handed out and not yet taken in: what the flock was, and room for every share's
/// new state.
#[derive(Default)]
pub struct Handout {
    handed: Option<Handed>,
    /// Every share's new state, slot by slot, as the page writes it (`shareViews`) for
    /// `finish` to take in.
    pub shares: PartState,
}

/// What the flock was when its step was handed out.
struct Handed {
    head: Vec<u8>,
    revision: u64,
    count: usize,
}

impl Handout {
    /// Hands a step of `flock` out: its head for the workers (`step_head`), remembered, and
    /// room in `shares` for its boids. A step handed out before and not taken in is
    /// forgotten.
    pub fn begin(&mut self, flock: &Flock) -> &[u8] {
        let handed = Handed {
            revision: flock.revision(),
            count: flock.len(),
            head: flock.step_head(),
        };
        self.shares.resize(handed.count);
        &self.handed.insert(handed).head
    }

    /// Takes the step of `dt` in (`finish_parts`), with the neighbours and candidates the
    /// shares counted (`totals`), if `flock` is still the flock it was handed out from.
    /// False, the flock as it was, when no step is handed out, the flock changed since, or
    /// `finish_parts` refuses (`dt` not one substep). Taken in or not, the step is no longer
    /// handed out.
    pub fn finish(&mut self, flock: &mut Flock, dt: f32, totals: Totals) -> bool {
        let Some(handed) = self.handed.take() else {
            return false;
        };
        let unchanged = flock.revision() == handed.revision
            && flock.len() == handed.count
            && flock.step_head() == handed.head;
        if !unchanged {
            return false;
        }
        self.shares.totals = totals;
        flock.finish_parts(dt, &mut self.shares)
    }
}
