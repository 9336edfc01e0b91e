//! SQL fragments several stores share, written once. Every query uses `$N` placeholders
//! over `sqlx::Any` (one text for SQLite and PostgreSQL).

/// A sale `s` of site `$1` that is live at time `$2` (started, not ended) and an ordinary
/// (`DEFAULT`) campaign: what the catalog lists, search indexes and the sitemap shows.
pub const LIVE_SALE: &str =
    "s.site_id = $1 AND s.starts_at <= $2 AND s.ends_at > $2 AND s.campaign_kind = 'DEFAULT'";

/// The live window alone, for a sale `s` at the placeholder `now` (`"$4"`), for queries
/// whose parameters are numbered differently or that accept every campaign kind.
pub fn live_window(now: &str) -> String {
    format!("s.starts_at <= {now} AND s.ends_at > {now}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_window_is_the_one_in_live_sale() {
        assert!(super::LIVE_SALE.contains(&super::live_window("$2")));
    }
}
