//! Configuration from environment variables; every one has a documented default (README).
use std::collections::HashMap;
use std::net::SocketAddr;

#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub database_url: String,
    pub data_dir: String,
    /// Host name → site id. Empty: one host serves every site (`?site=` and a cookie).
    pub site_hosts: HashMap<String, u16>,
    /// Scheme used for canonical links of mapped hosts.
    pub public_scheme: String,
    /// Origin used for canonical links when sites share one host.
    pub public_origin: String,
    pub demo_data: bool,
    pub trust_forwarded_for: bool,
    pub dsa_rate_limit: i64,
    pub dsa_rate_window_secs: i64,
    pub db_max_connections: u32,
    pub json_logs: bool,
    pub outbox_dir: String,
    pub smtp_url: Option<String>,
    pub secure_cookies: bool,
    pub lockout_threshold: i64,
    pub lockout_secs: i64,
    pub login_rate_limit: i64,
    /// How long an added item stays held for the member (seconds).
    pub cart_hold_secs: i64,
    /// Units of one product a member may hold at once.
    pub cart_max_per_member: i64,
    /// Payments processed at once before members wait in line.
    pub checkout_capacity: usize,
    /// Seconds between two passes of the expired-hold sweeper.
    pub cart_sweep_secs: u64,
    /// How long a page's HTML as anonymous visitors see it is reused (0: never).
    pub page_cache_ms: u64,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn env_parse<T: std::str::FromStr>(name: &str, default: T) -> Result<T, String> {
    match env(name) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse()
            .map_err(|_| format!("{name}: cannot parse {v:?}")),
    }
}

/// Parses `host=site,host=site` (e.g. `www.rosace.fr=1,www.rosace.de=2`).
pub fn parse_site_hosts(spec: &str) -> Result<HashMap<String, u16>, String> {
    let mut map = HashMap::new();
    for pair in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (host, site) = pair
            .split_once('=')
            .ok_or_else(|| format!("ROSACE_SITE_HOSTS: {pair:?} is not host=siteId"))?;
        let site: u16 = site
            .trim()
            .parse()
            .map_err(|_| format!("ROSACE_SITE_HOSTS: bad site id in {pair:?}"))?;
        if app::site::by_id(site).is_none() {
            return Err(format!("ROSACE_SITE_HOSTS: unknown site {site}"));
        }
        map.insert(host.trim().to_ascii_lowercase(), site);
    }
    Ok(map)
}

impl Config {
    pub fn from_env(default_addr: SocketAddr) -> Result<Config, String> {
        let addr = match env("ROSACE_ADDR") {
            Some(a) => a
                .parse()
                .map_err(|_| format!("ROSACE_ADDR: cannot parse {a:?}"))?,
            None => default_addr,
        };
        let data_dir = env("ROSACE_DATA_DIR").unwrap_or_else(|| "data".into());
        // Defaults are written once, beside their area; the environment overrides them.
        let app_defaults = app::platform::state::Settings::default();
        let cart_defaults = app::cart::settings::CartSettings::default();
        let database_url = env("DATABASE_URL")
            .unwrap_or_else(|| format!("sqlite://{data_dir}/rosace.db?mode=rwc"));
        Ok(Config {
            addr,
            database_url,
            data_dir: data_dir.clone(),
            site_hosts: parse_site_hosts(&env("ROSACE_SITE_HOSTS").unwrap_or_default())?,
            public_scheme: env("ROSACE_PUBLIC_SCHEME").unwrap_or_else(|| "https".into()),
            public_origin: env("ROSACE_PUBLIC_ORIGIN").unwrap_or_else(|| format!("http://{addr}")),
            demo_data: env_parse("ROSACE_DEMO_DATA", true)?,
            trust_forwarded_for: env_parse("ROSACE_TRUST_FORWARDED_FOR", false)?,
            dsa_rate_limit: env_parse("ROSACE_DSA_RATE_LIMIT", app_defaults.dsa_rate_limit)?,
            dsa_rate_window_secs: env_parse(
                "ROSACE_DSA_RATE_WINDOW_SECS",
                app_defaults.dsa_rate_window_secs,
            )?,
            db_max_connections: env_parse("ROSACE_DB_MAX_CONNECTIONS", 16)?,
            json_logs: env("ROSACE_LOG_FORMAT").as_deref() == Some("json"),
            outbox_dir: env("ROSACE_OUTBOX_DIR").unwrap_or_else(|| format!("{data_dir}/outbox")),
            smtp_url: env("ROSACE_SMTP_URL"),
            secure_cookies: env_parse("ROSACE_SECURE_COOKIES", app_defaults.secure_cookies)?,
            lockout_threshold: env_parse(
                "ROSACE_LOCKOUT_THRESHOLD",
                app_defaults.lockout_threshold,
            )?,
            lockout_secs: env_parse("ROSACE_LOCKOUT_SECS", app_defaults.lockout_secs)?,
            login_rate_limit: env_parse("ROSACE_LOGIN_RATE_LIMIT", app_defaults.login_rate_limit)?,
            cart_hold_secs: env_parse("ROSACE_CART_HOLD_SECS", cart_defaults.hold_secs)?,
            cart_max_per_member: env_parse(
                "ROSACE_CART_MAX_PER_MEMBER",
                cart_defaults.max_per_member,
            )?,
            checkout_capacity: env_parse(
                "ROSACE_CHECKOUT_CAPACITY",
                cart_defaults.checkout_capacity,
            )?,
            cart_sweep_secs: env_parse("ROSACE_CART_SWEEP_SECS", 5)?,
            page_cache_ms: env_parse("ROSACE_PAGE_CACHE_MS", 2000)?,
        })
    }

    /// Sites that have a host of their own, for canonical and hreflang links.
    pub fn origins(&self) -> Vec<app::context::SiteOrigin> {
        let mut origins: Vec<app::context::SiteOrigin> = self
            .site_hosts
            .iter()
            .map(|(host, site_id)| app::context::SiteOrigin {
                site_id: *site_id,
                base: format!("{}://{host}", self.public_scheme),
                by_query: false,
            })
            .collect();
        origins.sort_by_key(|o| o.site_id);
        origins
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_hosts_parse_and_refuse_unknown_sites() {
        let map = parse_site_hosts("www.rosace.fr=1, WWW.Rosace.de=2").unwrap();
        assert_eq!(map.get("www.rosace.de"), Some(&2));
        assert!(parse_site_hosts("x=5").is_err());
        assert!(parse_site_hosts("nohost").is_err());
        assert!(parse_site_hosts("").unwrap().is_empty());
    }
}
