//! The orders' tunables, with their defaults (defined once, here). Read from the
//! environment once per process, so the shop, its background simulator and the
//! `server orders` command agree:
//!
//! - `ROSACE_ORDER_DETAIL_REVAMPED` (default `true`): the revamped flag of the order
//!   detail-link rule (spec 001 §2; `rules::detail_url`);
//! - `ROSACE_RETURN_WINDOW_DAYS` (default 30): how many days after delivery a return may be
//!   asked for (the spec names no limit; 30 days is what shops in these countries give).

/// Tunables of the orders area.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrdersSettings {
    pub revamped_detail: bool,
    pub return_window_days: i64,
}

pub const REVAMPED_DETAIL_DEFAULT: bool = true;
pub const RETURN_WINDOW_DAYS_DEFAULT: i64 = 30;

impl Default for OrdersSettings {
    fn default() -> Self {
        OrdersSettings {
            revamped_detail: REVAMPED_DETAIL_DEFAULT,
            return_window_days: RETURN_WINDOW_DAYS_DEFAULT,
        }
    }
}

impl OrdersSettings {
    /// The settings from a variable lookup; a value that does not parse is an error naming
    /// the variable (the server refuses to start on it rather than guess).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let mut s = OrdersSettings::default();
        if let Some(v) = get("ROSACE_ORDER_DETAIL_REVAMPED") {
            s.revamped_detail = match v.trim() {
                "1" | "true" | "yes" | "on" => true,
                "0" | "false" | "no" | "off" => false,
                other => {
                    return Err(format!(
                        "ROSACE_ORDER_DETAIL_REVAMPED: not a flag: {other:?}"
                    ))
                }
            };
        }
        if let Some(v) = get("ROSACE_RETURN_WINDOW_DAYS") {
            s.return_window_days = v
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|d| (1..=3650).contains(d))
                .ok_or_else(|| {
                    format!("ROSACE_RETURN_WINDOW_DAYS: not a number of days (1-3650): {v:?}")
                })?;
        }
        Ok(s)
    }

    /// The process's settings, read from the environment on first use; a bad value is
    /// logged and the default kept.
    #[cfg(feature = "ssr")]
    pub fn current() -> &'static OrdersSettings {
        static CURRENT: std::sync::OnceLock<OrdersSettings> = std::sync::OnceLock::new();
        CURRENT.get_or_init(|| {
            OrdersSettings::from_lookup(|k| std::env::var(k).ok()).unwrap_or_else(|e| {
                tracing::warn!(error = %e, "orders settings: default kept");
                OrdersSettings::default()
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orders::rules::detail_url;

    fn lookup(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn defaults_when_unset() {
        let s = OrdersSettings::from_lookup(lookup(&[])).unwrap();
        assert_eq!(s, OrdersSettings::default());
        assert!(s.revamped_detail);
        assert_eq!(s.return_window_days, 30);
    }

    #[test]
    fn revamped_flag_both_ways() {
        let on = OrdersSettings::from_lookup(lookup(&[("ROSACE_ORDER_DETAIL_REVAMPED", "true")]))
            .unwrap();
        let off =
            OrdersSettings::from_lookup(lookup(&[("ROSACE_ORDER_DETAIL_REVAMPED", "0")])).unwrap();
        assert!(on.revamped_detail);
        assert!(!off.revamped_detail);
        // The link rule follows the setting.
        assert_eq!(
            detail_url(on.revamped_detail, "marketplace", 7, Some("/x/7")),
            "/postsales/7/details"
        );
        assert_eq!(
            detail_url(on.revamped_detail, "fs", 7, None),
            "/my-orders/fs/7"
        );
        assert_eq!(
            detail_url(off.revamped_detail, "marketplace", 7, Some("/x/7")),
            "/x/7"
        );
        assert_eq!(detail_url(off.revamped_detail, "fs", 7, None), "/details/7");
        assert!(
            OrdersSettings::from_lookup(lookup(&[("ROSACE_ORDER_DETAIL_REVAMPED", "maybe")]))
                .is_err()
        );
    }

    #[test]
    fn return_window_is_checked() {
        let s =
            OrdersSettings::from_lookup(lookup(&[("ROSACE_RETURN_WINDOW_DAYS", "14")])).unwrap();
        assert_eq!(s.return_window_days, 14);
        for bad in ["0", "-3", "x", "99999"] {
            let pairs: &'static [(&str, &str)] =
                Box::leak(vec![("ROSACE_RETURN_WINDOW_DAYS", bad)].into_boxed_slice());
            assert!(OrdersSettings::from_lookup(lookup(pairs)).is_err(), "{bad}");
        }
    }
}
