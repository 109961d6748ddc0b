//! Raw samples and summaries returned by the measurement kernels.
