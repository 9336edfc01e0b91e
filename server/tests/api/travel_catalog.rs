//! Travel catalog calls, against the real server: campaign, offers, count, SEO.
