//! Object fields whose name says they hold an identifier: their whole string value is replaced,
//! whatever it looks like (a host name has no pattern). Today's document has none of them —
//! the probe keeps only the non-identifying first byte of a serial (`serial_prefix`) — but
//! sections added later (storage, network, guide peers) may, and must not leak through upload.

use crate::kind::Kind;

/// The kind of identifier the field `key` holds, if its name says so.
pub fn kind_of_key(key: &str) -> Option<Kind> {
    let k = key.to_ascii_lowercase().replace('-', "_");
    if k.ends_with("_prefix") {
        return None; // the documented non-identifying part (cpuinfo's serial_prefix)
    }
    if k.contains("hostname") || k.contains("host_name") || k == "nodename" || k == "fqdn" {
        Some(Kind::Hostname)
    } else if k.contains("serial") || k == "cid" || k.ends_with("_cid") || k == "machine_id" {
        Some(Kind::Serial)
    } else if k == "mac" || k.contains("mac_addr") || k.contains("macaddr") || k == "hwaddr" {
        Some(Kind::Mac)
    } else if k.contains("uuid") {
        Some(Kind::Uuid)
    } else {
        None
    }
}

/// A command-line word after which the next word is a secret (`--token X`, `--password X`).
pub fn is_secret_flag(word: &str) -> bool {
    let w = word.trim_start_matches('-').to_ascii_lowercase();
    word.starts_with('-')
        && (w.ends_with("token") || w.ends_with("password") || w.ends_with("secret"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names() {
        assert_eq!(kind_of_key("product_serial"), Some(Kind::Serial));
        assert_eq!(kind_of_key("serial_prefix"), None);
        assert_eq!(kind_of_key("hostname"), Some(Kind::Hostname));
        assert_eq!(kind_of_key("mac_address"), Some(Kind::Mac));
        assert_eq!(kind_of_key("cid"), Some(Kind::Serial));
        assert_eq!(kind_of_key("product_uuid"), Some(Kind::Uuid));
        for k in [
            "cluster_id",
            "core_id",
            "pid",
            "machine",
            "cipher",
            "source",
        ] {
            assert_eq!(kind_of_key(k), None, "{k}");
        }
        assert!(is_secret_flag("--token"));
        assert!(!is_secret_flag("token"));
    }
}
