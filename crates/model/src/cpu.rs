//! Types describing /proc/cpuinfo content. Owned by the probe's cpuinfo parser.
