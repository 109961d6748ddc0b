//! The OPP walk (crate `measure`) writes cpufreq limits through a writer its caller provides;
//! here that writer is the [`Restorer`], so every value the walk changes is put back on exit,
//! error, signal and panic.

use tune::Restorer;

/// Writes through a [`Restorer`].
pub struct RestorerWrites<'a>(pub &'a Restorer);

impl measure::opp_walk::PolicyWriter for RestorerWrites<'_> {
    fn write_value(&mut self, abs: &str, value: &str) -> Result<(), String> {
        self.0.write(abs, value).map_err(|e| format!("{e:#}"))
    }
}
