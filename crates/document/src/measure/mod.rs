//! Raw samples and summaries returned by the measurement kernels, one submodule per kernel.

pub mod clock;
pub mod membw;
pub mod memlat;
pub mod sha256;

/// For `skip_serializing_if` of flags that are normally false (documents stay as they were).
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}
