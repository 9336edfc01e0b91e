//! Configuration from environment variables; every one has a documented default (README).
use std::collections::HashMap;
use std::net::SocketAddr;

use app::auth::settings::AuthSettings;
use app::cart::settings::CartSettings;
use app::dsa::settings::DsaSettings;
use app::platform::mail::MailSettings;

use crate::middleware::client_ip::TrustedProxies;

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
    /// Demo data (and its demo accounts, whose password is published): on by default in
    /// development, off in production (`ROSACE_DEMO_DATA`).
    pub demo_data: bool,
    /// `ROSACE_ENV=production`: secure defaults are enforced (see `startup::demo_policy`).
    pub production: bool,
    /// `ROSACE_ALLOW_DEMO_ACCOUNTS=1`: a production server may start with demo accounts.
    pub allow_demo_accounts: bool,
    /// Proxies whose `X-Forwarded-For` entries are believed (`ROSACE_TRUSTED_PROXIES`);
    /// empty: the socket peer is the client and the header is ignored.
    pub trusted_proxies: TrustedProxies,
    pub db_max_connections: u32,
    /// PostgreSQL: how many of those connections the contended write transactions have to
    /// themselves (`ROSACE_DB_CONTENDED_CONNECTIONS`, default half; see `Db::contended`).
    pub db_contended_connections: Option<u32>,
    pub json_logs: bool,
    /// `ROSACE_FRONT_THREADS` (default yes): connections are served by one thread per core
    /// (`serve::listen::listen_per_core`); no serves them on the main runtime.
    pub front_threads: bool,
    /// The application's settings, by area.
    pub settings: Settings,
    /// Seconds between two passes of the expired-hold sweeper.
    pub cart_sweep_secs: u64,
    /// How long a page's HTML as anonymous visitors see it is reused (0: never).
    pub page_cache_ms: u64,
    /// Seconds between two purges of ended rate-limit windows.
    pub rate_limit_purge_secs: u64,
    /// Seconds between two passes of the fulfilment simulator over paid orders
    /// (`ROSACE_FULFILMENT_SECS`; 0, the default: off).
    pub fulfilment_secs: u64,
    /// Pages worked on at once; more get 503 with `Retry-After` at once (load shedding).
    /// Default 64 per core.
    pub max_in_flight: usize,
    /// API calls worked on at once, counted apart from the pages. Default 4,096 per core.
    pub max_calls_in_flight: usize,
    /// Of those, the calls that run at once; the others wait their turn (not shed).
    /// Default 16 per core.
    pub max_calls_running: usize,
    /// Seconds a request may take until its response starts (then 408).
    pub request_timeout_secs: u64,
    /// Seconds a connection may take to send a request's headers, or its body (slow clients
    /// holding connections open).
    pub header_timeout_secs: u64,
    /// What start-up logs at WARN level about the settings (deprecated names, ...).
    pub warnings: Vec<String>,
    /// Social sign-in providers (`ROSACE_OIDC_<PROVIDER>_ISSUER`, `_CLIENT_ID`,
    /// `_CLIENT_SECRET`); one without all three is not offered.
    pub social: crate::web::social::oidc::SocialConfig,
    /// The bearer token of the Prometheus scrape `GET /metrics` (`ROSACE_METRICS_TOKEN`,
    /// at least 16 characters); unset: `/metrics` answers 404.
    pub metrics_token: Option<String>,
}

/// The application's settings, by area; each area defines its defaults beside its code.
#[derive(Clone, Debug)]
pub struct Settings {
    pub auth: AuthSettings,
    pub dsa: DsaSettings,
    pub cart: CartSettings,
    pub mail: MailSettings,
    pub home: app::home::settings::HomeSettings,
    /// Browser diagnostics: flood limit, development switch (`app::diagnostics::settings`).
    pub diagnostics: app::diagnostics::settings::DiagnosticsSettings,
    /// Cookies get `Secure` and the `__Host-` prefix, and responses HSTS: whenever the
    /// public origin is https (see [`secure_cookies`]).
    pub secure_cookies: bool,
    /// Key of the CSRF token signatures: made once and kept in the database (shared by
    /// instances), read at start (`startup::prepare`); not from the environment.
    pub xsrf_secret: Vec<u8>,
    /// Key sealing stored IBANs: `ROSACE_WALLET_KEY`, else made in the data directory at
    /// start (`startup::prepare`); never in the database it protects.
    pub wallet_key: app::wallet::crypto::WalletKey,
    /// Quotas of the files members and visitors send (`ROSACE_UPLOAD_*`; review N2). The
    /// disk checked is the embedded database's, set at start (`startup::prepare`).
    pub upload_quota: app::platform::upload_quota::QuotaSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            auth: AuthSettings::default(),
            dsa: DsaSettings::default(),
            cart: CartSettings::default(),
            mail: MailSettings::default(),
            home: Default::default(),
            diagnostics: Default::default(),
            secure_cookies: false,
            xsrf_secret: vec![7; 32],
            wallet_key: Default::default(),
            upload_quota: Default::default(),
        }
    }
}

impl Settings {
    /// The defaults, with what the environment sets over them.
    fn from_vars(data_dir: &str, vars: Vars) -> Result<Settings, String> {
        let env = |name: &str| env(vars, name);
        let d = Settings::default();
        let login_rate_limit = env_parse(vars, "ROSACE_LOGIN_RATE_LIMIT", d.auth.login_rate_limit)?;
        Ok(Settings {
            auth: AuthSettings {
                lockout_threshold: env_parse(
                    vars,
                    "ROSACE_LOCKOUT_THRESHOLD",
                    d.auth.lockout_threshold,
                )?,
                lockout_secs: env_parse(vars, "ROSACE_LOCKOUT_SECS", d.auth.lockout_secs)?,
                account_failure_ceiling: env_parse(
                    vars,
                    "ROSACE_ACCOUNT_FAILURE_CEILING",
                    d.auth.account_failure_ceiling,
                )?,
                login_rate_limit,
                exists_rate_limit: env_parse(
                    vars,
                    "ROSACE_EXISTS_RATE_LIMIT",
                    2 * login_rate_limit,
                )?,
                register_rate_limit: env_parse(
                    vars,
                    "ROSACE_REGISTER_RATE_LIMIT",
                    login_rate_limit,
                )?,
                email_rate_limit: env_parse(
                    vars,
                    "ROSACE_EMAIL_RATE_LIMIT",
                    d.auth.email_rate_limit,
                )?,
                ..d.auth
            },
            dsa: DsaSettings {
                rate_limit: env_parse(vars, "ROSACE_DSA_RATE_LIMIT", d.dsa.rate_limit)?,
                rate_window_secs: env_parse(
                    vars,
                    "ROSACE_DSA_RATE_WINDOW_SECS",
                    d.dsa.rate_window_secs,
                )?,
            },
            cart: CartSettings {
                hold_secs: env_parse(vars, "ROSACE_CART_HOLD_SECS", d.cart.hold_secs)?,
                max_per_member: env_parse(
                    vars,
                    "ROSACE_CART_MAX_PER_MEMBER",
                    d.cart.max_per_member,
                )?,
                checkout_capacity: env_parse(
                    vars,
                    "ROSACE_CHECKOUT_CAPACITY",
                    d.cart.checkout_capacity,
                )?,
                checkout_lease_secs: env_parse(
                    vars,
                    "ROSACE_CHECKOUT_LEASE_SECS",
                    d.cart.checkout_lease_secs,
                )?
                .max(1),
                ..d.cart
            },
            mail: MailSettings {
                // The outbox sits in the data directory unless named.
                outbox_dir: env("ROSACE_OUTBOX_DIR")
                    .unwrap_or_else(|| format!("{data_dir}/outbox")),
                smtp_url: env("ROSACE_SMTP_URL"),
            },
            home: app::home::settings::HomeSettings {
                preview_dates: env_flag(vars, "ROSACE_HOME_PREVIEW")?,
            },
            diagnostics: app::diagnostics::settings::DiagnosticsSettings {
                rate_limit: env_parse(
                    vars,
                    "ROSACE_DIAGNOSTICS_RATE_LIMIT",
                    d.diagnostics.rate_limit,
                )?,
                rate_window_secs: env_parse(
                    vars,
                    "ROSACE_DIAGNOSTICS_RATE_WINDOW_SECS",
                    d.diagnostics.rate_window_secs,
                )?
                .max(1),
                frontend_dev: env_flag(vars, "ROSACE_FRONTEND_DEV")?,
            },
            // Decided with the public origin, in `Config::from_vars`.
            secure_cookies: d.secure_cookies,
            xsrf_secret: d.xsrf_secret,
            wallet_key: match env(app::wallet::crypto::KEY_ENV) {
                Some(hex) => app::wallet::crypto::WalletKey::from_text(&hex)?,
                None => d.wallet_key,
            },
            upload_quota: {
                let q = d.upload_quota;
                let mb = |name: &str, default: i64| -> Result<i64, String> {
                    Ok(env_parse(vars, name, default / MB)?.max(0) * MB)
                };
                app::platform::upload_quota::QuotaSettings {
                    member_day_bytes: mb("ROSACE_UPLOAD_MEMBER_DAY_MB", q.member_day_bytes)?,
                    client_day_bytes: mb("ROSACE_UPLOAD_CLIENT_DAY_MB", q.client_day_bytes)?,
                    member_total_bytes: mb("ROSACE_UPLOAD_MEMBER_TOTAL_MB", q.member_total_bytes)?,
                    storage_cap_bytes: mb("ROSACE_UPLOAD_STORAGE_CAP_MB", q.storage_cap_bytes)?,
                    min_free_disk_bytes: mb("ROSACE_UPLOAD_MIN_FREE_MB", q.min_free_disk_bytes)?,
                    disk_dir: None,
                }
            },
        })
    }
}

const MB: i64 = 1024 * 1024;

/// Where settings are read from: the process environment, or a map in tests.
pub type Vars<'a> = &'a dyn Fn(&str) -> Option<String>;

fn env(vars: Vars, name: &str) -> Option<String> {
    vars(name).filter(|v| !v.trim().is_empty())
}

/// Requests worked on at once unless set: 64 per core. More only queue for the cores, and at
/// a sale opening the queue was the pages' p99: with 512 on 2 cores the slowest page kind's
/// server p99 was 418-451 ms, with 128 (64 per core) 96-221 ms, and more members paid per
/// second (`scripts/bench/bench-sale-opening.sh`, `docs/benchmarks.md`, session 60).
fn default_in_flight() -> usize {
    64 * std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// API calls in flight unless set: 4,096 per core. At a sale opening most calls (adds,
/// freezes, payments) wait, for a running place or the database's write connection, using
/// no core; shedding them only made their members ask again a second later, each time a
/// request more for the cores: with 128 or 512 on 2 cores members saw pages' p99 at 0.4-1 s,
/// with 2,048 at 40-65 ms (`docs/benchmarks.md`, session 68); with the running places
/// below, 2,048 shed thousands of calls, 8,192 none (session 69).
fn default_calls_in_flight() -> usize {
    64 * default_in_flight()
}

/// API calls that run at once unless set: 8 per core; the other calls in flight wait their
/// turn, in arrival order (the cart's adds wait in their own writer instead: see
/// `middleware::shed`). At a sale opening thousands of freezes and payments running at
/// once contended for the database and took the cores the pages needed: with every call
/// in flight running, members' page p99 was about 1 s on PostgreSQL and 56-66 purchases a
/// second were made; with 32 running, 65-105 ms and 182-223 a second; with 128, payments
/// passed the checkout's capacity and the waiting line's polls brought it back to 63 a
/// second (session 69). With 16 instead of 32 one instance gave the same pages (PostgreSQL
/// 69-77 ms against 72-112, SQLite 53-73 against 45-81; SQLite made a tenth fewer
/// purchases a second) and two instances on one machine, 8 each against 16, page p99
/// 194-741 ms against 334-1,016 in pairs of runs, with more purchases (session 71;
/// `scripts/bench/bench-sale-opening.sh`, `docs/benchmarks.md`).
fn default_calls_running() -> usize {
    default_in_flight() / 8
}

fn env_parse<T: std::str::FromStr>(vars: Vars, name: &str, default: T) -> Result<T, String> {
    match env(vars, name) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse()
            .map_err(|_| format!("{name}: cannot parse {v:?}")),
    }
}

/// A yes/no setting: `1`, `true`, `yes` or `on` (any case) is yes; unset or empty is no.
fn env_flag(vars: Vars, name: &str) -> Result<bool, String> {
    env_yes_no(vars, name, false)
}

/// A yes/no setting with its default: every yes/no setting takes the same words, so a
/// script that writes `ROSACE_DEMO_DATA=0` is understood rather than refused.
fn env_yes_no(vars: Vars, name: &str, default: bool) -> Result<bool, String> {
    match env(vars, name).map(|v| v.trim().to_ascii_lowercase()) {
        None => Ok(default),
        Some(v) if ["1", "true", "yes", "on"].contains(&v.as_str()) => Ok(true),
        Some(v) if ["0", "false", "no", "off"].contains(&v.as_str()) => Ok(false),
        Some(v) => Err(format!("{name}: {v:?} is not a yes or no")),
    }
}

/// Whether cookies get `Secure`/`__Host-` and responses HSTS: whenever the public origin
/// is https (`ROSACE_PUBLIC_ORIGIN`, or `ROSACE_PUBLIC_SCHEME` when sites have hosts of
/// their own), so a deployment gets them without a separate switch (review M5).
/// `ROSACE_SECURE_COOKIES=true` turns them on for an http origin too (TLS ended by a
/// proxy that the origin does not show); `false` with an https origin is refused, as a
/// session cookie sent in clear is never what an https shop wants.
pub fn secure_cookies(
    public_origin: &str,
    public_scheme: &str,
    has_site_hosts: bool,
    explicit: Option<bool>,
) -> Result<bool, String> {
    let https = public_origin
        .trim()
        .to_ascii_lowercase()
        .starts_with("https://")
        || (has_site_hosts && public_scheme.trim().eq_ignore_ascii_case("https"));
    match explicit {
        Some(false) if https => Err(
            "ROSACE_SECURE_COOKIES=false: the public origin is https, so cookies are Secure \
             and HSTS is sent; unset it"
                .into(),
        ),
        Some(on) => Ok(on || https),
        None => Ok(https),
    }
}

/// A production server serves members over https, so its cookies are always `Secure`
/// (review M5-R): an http public origin is refused, unless `ROSACE_SECURE_COOKIES=true` says
/// TLS ends at a proxy the origin does not show (then the log says so at every start).
fn production_origin(config: &Config, explicit: Option<bool>) -> Result<Option<String>, String> {
    // Whether the origin itself is https, whatever the switch says.
    let https = secure_cookies(
        &config.public_origin,
        &config.public_scheme,
        !config.site_hosts.is_empty(),
        None,
    )
    .unwrap_or(false);
    if !config.production || https {
        return Ok(None);
    }
    if explicit == Some(true) {
        return Ok(Some(format!(
            "production mode with the http public origin {}: cookies are Secure because \
             ROSACE_SECURE_COOKIES=true says TLS ends at a proxy in front",
            config.public_origin
        )));
    }
    Err(format!(
        "refusing to start: production mode (ROSACE_ENV=production) with the http public \
         origin {}: set ROSACE_PUBLIC_ORIGIN to the shop's https address (or \
         ROSACE_PUBLIC_SCHEME=https with ROSACE_SITE_HOSTS), or ROSACE_SECURE_COOKIES=true \
         when TLS ends at a proxy in front",
        config.public_origin
    ))
}

/// What production mode refuses besides the origin: a social sign-in provider reached over
/// plain http (its ID tokens could be forged on the way; the local test provider is http:
/// review I8), and PostgreSQL without `ROSACE_WALLET_KEY` (each instance would make a key of
/// its own, and bank details sealed by one could not be opened by another: review I9).
fn production_secrets(config: &Config) -> Result<(), String> {
    if !config.production {
        return Ok(());
    }
    if let Some(p) = config
        .social
        .providers
        .iter()
        .find(|p| !p.issuer.trim().to_ascii_lowercase().starts_with("https://"))
    {
        return Err(format!(
            "refusing to start: production mode with the {} sign-in provider at {}: its \
             issuer must be an https address",
            p.provider.slug(),
            p.issuer
        ));
    }
    if !config.database_url.starts_with("sqlite:") && !config.settings.wallet_key.is_set() {
        return Err(format!(
            "refusing to start: production mode on PostgreSQL without {}: every instance \
             must seal bank details with the same key (64 hex digits)",
            app::wallet::crypto::KEY_ENV
        ));
    }
    Ok(())
}

/// `ROSACE_TRUSTED_PROXIES` (addresses and networks). The former
/// `ROSACE_TRUST_FORWARDED_FOR=true` believed the header from anyone and took its first
/// entry; it now means "the proxy runs on this machine" (loopback peers are trusted), and
/// start-up warns that it is deprecated.
fn trusted_proxies(vars: Vars, warnings: &mut Vec<String>) -> Result<TrustedProxies, String> {
    let listed = TrustedProxies::parse(&env(vars, "ROSACE_TRUSTED_PROXIES").unwrap_or_default())?;
    if listed.is_empty() && env_yes_no(vars, "ROSACE_TRUST_FORWARDED_FOR", false)? {
        warnings.push(
            "ROSACE_TRUST_FORWARDED_FOR is deprecated: X-Forwarded-For is read only from \
             loopback peers; name your proxies in ROSACE_TRUSTED_PROXIES"
                .into(),
        );
        return Ok(TrustedProxies::loopback());
    }
    Ok(listed)
}

/// `ROSACE_METRICS_TOKEN`: a short token would be guessed, so fewer than 16 characters
/// (after trimming) stop the start.
fn metrics_token(vars: Vars) -> Result<Option<String>, String> {
    match env(vars, "ROSACE_METRICS_TOKEN").map(|t| t.trim().to_string()) {
        Some(t) if t.chars().count() < 16 => {
            Err("ROSACE_METRICS_TOKEN: use at least 16 characters".into())
        }
        other => Ok(other),
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
        Config::from_vars(default_addr, &|name| std::env::var(name).ok())
    }

    /// The configuration from `vars` (the environment's names and values).
    pub fn from_vars(default_addr: SocketAddr, vars: Vars) -> Result<Config, String> {
        let env = |name: &str| env(vars, name);
        let addr = match env("ROSACE_ADDR") {
            Some(a) => a
                .parse()
                .map_err(|_| format!("ROSACE_ADDR: cannot parse {a:?}"))?,
            None => default_addr,
        };
        let data_dir = env("ROSACE_DATA_DIR").unwrap_or_else(|| "data".into());
        let mut warnings = Vec::new();
        let production = match env("ROSACE_ENV").as_deref().map(str::trim) {
            None | Some("development") => false,
            Some("production") => true,
            Some(other) => {
                return Err(format!(
                    "ROSACE_ENV: {other:?} is neither \"development\" nor \"production\""
                ))
            }
        };
        let database_url = env("DATABASE_URL")
            .unwrap_or_else(|| format!("sqlite://{data_dir}/rosace.db?mode=rwc"));
        let mut config = Config {
            addr,
            database_url,
            data_dir: data_dir.clone(),
            site_hosts: parse_site_hosts(&env("ROSACE_SITE_HOSTS").unwrap_or_default())?,
            public_scheme: env("ROSACE_PUBLIC_SCHEME").unwrap_or_else(|| "https".into()),
            public_origin: env("ROSACE_PUBLIC_ORIGIN").unwrap_or_else(|| format!("http://{addr}")),
            demo_data: env_yes_no(vars, "ROSACE_DEMO_DATA", !production)?,
            production,
            allow_demo_accounts: env_flag(vars, "ROSACE_ALLOW_DEMO_ACCOUNTS")?,
            trusted_proxies: trusted_proxies(vars, &mut warnings)?,
            db_max_connections: env_parse(vars, "ROSACE_DB_MAX_CONNECTIONS", 16)?,
            db_contended_connections: env_parse(vars, "ROSACE_DB_CONTENDED_CONNECTIONS", 0)
                .map(|n: u32| (n > 0).then_some(n))?,
            json_logs: env("ROSACE_LOG_FORMAT").as_deref() == Some("json"),
            front_threads: env_yes_no(vars, "ROSACE_FRONT_THREADS", true)?,
            settings: Settings::from_vars(&data_dir, vars)?,
            cart_sweep_secs: env_parse(vars, "ROSACE_CART_SWEEP_SECS", 5)?,
            page_cache_ms: env_parse(vars, "ROSACE_PAGE_CACHE_MS", 2000)?,
            rate_limit_purge_secs: env_parse(vars, "ROSACE_RATE_LIMIT_PURGE_SECS", 60)?,
            fulfilment_secs: env_parse(
                vars,
                "ROSACE_FULFILMENT_SECS",
                app::orders::service::FULFILMENT_SECS_DEFAULT,
            )?,
            max_in_flight: env_parse(vars, "ROSACE_MAX_IN_FLIGHT", default_in_flight())?,
            max_calls_in_flight: env_parse(
                vars,
                "ROSACE_MAX_CALLS_IN_FLIGHT",
                default_calls_in_flight(),
            )?,
            max_calls_running: env_parse(
                vars,
                "ROSACE_MAX_CALLS_RUNNING",
                default_calls_running(),
            )?,
            request_timeout_secs: env_parse(vars, "ROSACE_REQUEST_TIMEOUT_SECS", 30)?,
            header_timeout_secs: env_parse(vars, "ROSACE_HEADER_TIMEOUT_SECS", 10)?,
            warnings,
            social: crate::web::social::oidc::SocialConfig::from_vars(vars),
            metrics_token: metrics_token(vars)?,
        };
        let explicit = match env("ROSACE_SECURE_COOKIES") {
            Some(_) => Some(env_yes_no(vars, "ROSACE_SECURE_COOKIES", false)?),
            None => None,
        };
        config.settings.secure_cookies = secure_cookies(
            &config.public_origin,
            &config.public_scheme,
            !config.site_hosts.is_empty(),
            explicit,
        )?;
        if let Some(note) = production_origin(&config, explicit)? {
            config.warnings.push(note);
        }
        production_secrets(&config)?;
        Ok(config)
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

    fn config(vars: &[(&str, &str)]) -> Result<Config, String> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_vars("127.0.0.1:3000".parse().unwrap(), &|name| {
            vars.get(name).cloned()
        })
    }

    #[test]
    fn every_yes_no_setting_takes_the_same_words() {
        let demo = |v: &str| config(&[("ROSACE_DEMO_DATA", v)]).map(|c| c.demo_data);
        assert_eq!(config(&[]).map(|c| c.demo_data), Ok(true));
        for no in ["0", "false", "No", "off"] {
            assert_eq!(demo(no), Ok(false), "{no}");
        }
        for yes in ["1", "TRUE", "yes", "on"] {
            assert_eq!(demo(yes), Ok(true), "{yes}");
        }
        let refusal = demo("maybe").err().unwrap();
        assert!(refusal.contains("ROSACE_DEMO_DATA"), "{refusal}");
        let secure = config(&[("ROSACE_SECURE_COOKIES", "1")]).map(|c| c.settings.secure_cookies);
        assert_eq!(secure, Ok(true));
    }

    #[test]
    fn trusted_proxies_default_to_none_and_parse_networks() {
        let c = config(&[]).unwrap();
        assert!(c.trusted_proxies.is_empty());
        assert!(c.warnings.is_empty());
        let c = config(&[("ROSACE_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.0.7")]).unwrap();
        assert!(c.trusted_proxies.contains("10.1.2.3".parse().unwrap()));
        assert!(!c.trusted_proxies.contains("11.1.2.3".parse().unwrap()));
        assert!(config(&[("ROSACE_TRUSTED_PROXIES", "everyone")]).is_err());
    }

    #[test]
    fn an_https_public_origin_means_secure_cookies_and_hsts() {
        let secure = |vars: &[(&str, &str)]| config(vars).map(|c| c.settings.secure_cookies);
        // Local development (the README's run command, the browser tests): plain http.
        assert_eq!(secure(&[]), Ok(false));
        assert_eq!(
            secure(&[("ROSACE_PUBLIC_ORIGIN", "http://127.0.0.1:3210")]),
            Ok(false)
        );
        assert_eq!(
            secure(&[("ROSACE_PUBLIC_ORIGIN", "https://www.rosace.test")]),
            Ok(true)
        );
        assert_eq!(
            secure(&[("ROSACE_PUBLIC_ORIGIN", "HTTPS://www.rosace.test")]),
            Ok(true)
        );
        // Hosts of their own: their scheme (https unless told otherwise).
        assert_eq!(
            secure(&[("ROSACE_SITE_HOSTS", "www.rosace.fr=1")]),
            Ok(true)
        );
        assert_eq!(
            secure(&[
                ("ROSACE_SITE_HOSTS", "www.rosace.fr=1"),
                ("ROSACE_PUBLIC_SCHEME", "http")
            ]),
            Ok(false)
        );
        // The switch can add them, not take them away from an https origin.
        assert_eq!(secure(&[("ROSACE_SECURE_COOKIES", "true")]), Ok(true));
        assert!(secure(&[
            ("ROSACE_PUBLIC_ORIGIN", "https://www.rosace.test"),
            ("ROSACE_SECURE_COOKIES", "false")
        ])
        .is_err());
    }

    #[test]
    fn production_mode_needs_an_https_origin_or_says_why_not() {
        // A server started with nothing but the production switch has an http origin.
        let refusal = config(&[("ROSACE_ENV", "production")]).err().unwrap();
        assert!(refusal.contains("refusing to start"), "{refusal}");
        assert!(config(&[
            ("ROSACE_ENV", "production"),
            ("ROSACE_PUBLIC_ORIGIN", "http://shop.example")
        ])
        .is_err());
        let hosts = config(&[
            ("ROSACE_ENV", "production"),
            ("ROSACE_SITE_HOSTS", "www.rosace.test=1"),
        ])
        .unwrap();
        assert!(hosts.settings.secure_cookies && hosts.warnings.is_empty());
        // TLS at a proxy: allowed, Secure cookies, and said in the log.
        let proxied = config(&[
            ("ROSACE_ENV", "production"),
            ("ROSACE_PUBLIC_ORIGIN", "http://shop.example"),
            ("ROSACE_SECURE_COOKIES", "true"),
        ])
        .unwrap();
        assert!(proxied.settings.secure_cookies);
        assert!(proxied
            .warnings
            .iter()
            .any(|w| w.contains("ROSACE_SECURE_COOKIES=true")));
        // An https origin with the switch on too: nothing to say.
        let both = config(&[
            ("ROSACE_ENV", "production"),
            ("ROSACE_PUBLIC_ORIGIN", "https://www.rosace.test"),
            ("ROSACE_SECURE_COOKIES", "true"),
        ])
        .unwrap();
        assert!(both.warnings.is_empty(), "{:?}", both.warnings);
        // Development keeps its plain http origin.
        assert!(!config(&[]).unwrap().settings.secure_cookies);
    }

    #[test]
    fn production_mode_needs_https_providers_and_a_shared_wallet_key() {
        const PROD: (&str, &str) = ("ROSACE_ENV", "production");
        const HTTPS: (&str, &str) = ("ROSACE_PUBLIC_ORIGIN", "https://www.rosace.test");
        let provider = |issuer: &'static str| {
            [
                ("ROSACE_OIDC_GOOGLE_ISSUER", issuer),
                ("ROSACE_OIDC_GOOGLE_CLIENT_ID", "id"),
                ("ROSACE_OIDC_GOOGLE_CLIENT_SECRET", "secret"),
            ]
        };
        let http = [&[PROD, HTTPS][..], &provider("http://127.0.0.1:4455")[..]].concat();
        assert!(config(&http).err().unwrap().contains("https address"));
        let https = [
            &[PROD, HTTPS][..],
            &provider("https://accounts.google.com")[..],
        ]
        .concat();
        assert!(config(&https).is_ok());
        // Development keeps the local test provider.
        assert!(config(&provider("http://127.0.0.1:4455")).is_ok());

        let pg = ("DATABASE_URL", "postgres://shop@db/rosace");
        assert!(config(&[PROD, HTTPS, pg])
            .err()
            .unwrap()
            .contains("ROSACE_WALLET_KEY"));
        let key = (app::wallet::crypto::KEY_ENV, "11".repeat(32).leak() as &str);
        assert!(config(&[PROD, HTTPS, pg, key]).is_ok());
        assert!(
            config(&[PROD, HTTPS]).is_ok(),
            "SQLite: one instance, its own key file"
        );
    }

    #[test]
    fn production_mode_turns_demo_data_off_by_default() {
        let c = config(&[]).unwrap();
        assert!(!c.production && c.demo_data && !c.allow_demo_accounts);
        const HTTPS: (&str, &str) = ("ROSACE_PUBLIC_ORIGIN", "https://www.rosace.test");
        let c = config(&[("ROSACE_ENV", "production"), HTTPS]).unwrap();
        assert!(c.production && !c.demo_data);
        let c = config(&[
            ("ROSACE_ENV", "production"),
            HTTPS,
            ("ROSACE_DEMO_DATA", "true"),
            ("ROSACE_ALLOW_DEMO_ACCOUNTS", "1"),
        ])
        .unwrap();
        assert!(c.production && c.demo_data && c.allow_demo_accounts);
        assert!(config(&[("ROSACE_ENV", "prod")]).is_err());
        assert!(config(&[("ROSACE_ALLOW_DEMO_ACCOUNTS", "maybe")]).is_err());
    }

    #[test]
    fn sign_in_limits_follow_the_login_limit_unless_set() {
        let auth = |vars: &[(&str, &str)]| config(vars).unwrap().settings.auth;
        let a = auth(&[]);
        assert_eq!(
            (
                a.login_rate_limit,
                a.exists_rate_limit,
                a.register_rate_limit,
                a.email_rate_limit
            ),
            (30, 60, 30, 5)
        );
        // The browser tests raise the login limit only; the others follow.
        let a = auth(&[("ROSACE_LOGIN_RATE_LIMIT", "1000")]);
        assert_eq!((a.exists_rate_limit, a.register_rate_limit), (2000, 1000));
        let a = auth(&[
            ("ROSACE_EXISTS_RATE_LIMIT", "7"),
            ("ROSACE_REGISTER_RATE_LIMIT", "3"),
        ]);
        assert_eq!((a.exists_rate_limit, a.register_rate_limit), (7, 3));
    }

    #[test]
    fn diagnostics_settings_and_the_metrics_token() {
        let c = config(&[]).unwrap();
        assert_eq!(c.metrics_token, None);
        assert!(!c.settings.diagnostics.frontend_dev);
        assert_eq!(c.settings.diagnostics.rate_limit, 600);
        let c = config(&[
            ("ROSACE_METRICS_TOKEN", " 0123456789abcdef "),
            ("ROSACE_FRONTEND_DEV", "1"),
            ("ROSACE_DIAGNOSTICS_RATE_LIMIT", "3"),
        ])
        .unwrap();
        assert_eq!(c.metrics_token.as_deref(), Some("0123456789abcdef"));
        assert!(c.settings.diagnostics.frontend_dev);
        assert_eq!(c.settings.diagnostics.rate_limit, 3);
        assert!(config(&[("ROSACE_METRICS_TOKEN", "short")]).is_err());
    }

    #[test]
    fn the_former_trust_flag_trusts_loopback_only_and_warns() {
        let c = config(&[("ROSACE_TRUST_FORWARDED_FOR", "true")]).unwrap();
        assert!(c.trusted_proxies.contains("127.0.0.1".parse().unwrap()));
        assert!(!c.trusted_proxies.contains("203.0.113.9".parse().unwrap()));
        assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    }
}
