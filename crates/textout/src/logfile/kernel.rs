//! "Kernel info" (sbc-bench's section of the same name): the kernel, its timer frequency and
//! preemption model, who made it, and whether it still gets fixes — as judged on the day of the
//! run, so an old log keeps saying what was true then.

use std::fmt::Write;

use document::ResultDocument;

use crate::text::one_line;

pub fn render(doc: &ResultDocument) -> Option<String> {
    let k = doc.run.as_ref()?.kernel.as_ref()?;
    let mut out = String::from("Kernel info:\n\n");
    let mut kernel = k.release.clone().unwrap_or_else(|| "(unknown)".into());
    let mut made = Vec::new();
    if let Some(o) = &k.origin {
        made.push(o.clone());
    }
    if let Some(m) = &k.maintainer {
        made.push(m.clone());
    }
    if !made.is_empty() {
        let _ = write!(kernel, " ({})", made.join(", "));
    }
    let _ = writeln!(out, "Kernel:    {}", one_line(&kernel));
    let mut config = Vec::new();
    if let Some(hz) = k.hz {
        config.push(format!("CONFIG_HZ={hz}"));
    }
    if let Some(p) = &k.preempt {
        config.push(format!("preempt {p}"));
    }
    if !config.is_empty() {
        let _ = writeln!(out, "Config:    {}", one_line(&config.join(", ")));
    }
    let _ = writeln!(
        out,
        "Status:    {} ({} on {}, kernel.org series table of {})",
        one_line(&k.verdict),
        k.level,
        k.judged_on,
        k.table_as_of
    );
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use document::run::{KernelStatus, RunRecord};

    fn doc(run: Option<RunRecord>) -> ResultDocument {
        ResultDocument {
            schema_version: document::SCHEMA_VERSION,
            producer: "test".into(),
            device: None,
            started: None,
            finished: None,
            machine: None,
            measurements: Vec::new(),
            findings: Vec::new(),
            imported: None,
            run,
            guide: None,
            redaction: None,
            analysis: None,
        }
    }

    #[test]
    fn names_the_kernel_its_maker_config_and_verdict() {
        let with_kernel = doc(Some(RunRecord {
            kernel: Some(KernelStatus {
                release: Some("5.10.160-rockchip".into()),
                origin: Some("vendor (BSP) kernel".into()),
                maintainer: Some("Rockchip".into()),
                hz: Some(300),
                preempt: Some("voluntary".into()),
                level: "critical".into(),
                verdict: "vendor kernel based on 5.10 — security fixes depend on the vendor".into(),
                judged_on: "2026-11-23".into(),
                table_as_of: "2025-11".into(),
            }),
            ..RunRecord::default()
        }));
        assert_eq!(
            render(&with_kernel).unwrap(),
            "Kernel info:\n\n\
             Kernel:    5.10.160-rockchip (vendor (BSP) kernel, Rockchip)\n\
             Config:    CONFIG_HZ=300, preempt voluntary\n\
             Status:    vendor kernel based on 5.10 — security fixes depend on the vendor \
             (critical on 2026-11-23, kernel.org series table of 2025-11)\n"
        );
        assert_eq!(render(&doc(None)), None);
        assert_eq!(render(&doc(Some(RunRecord::default()))), None);
    }
}
