//! The Prometheus scrape (`GET /metrics`, rest/diagnostics.rs): the server's own request
//! counts and durations by route template and status, and what browsers report (log
//! entries by level, measures by name and kind, Core Web Vitals as histograms and as
//! ratings by the server's rule; analytics events by name). Per process: each instance is scraped on its own, as
//! Prometheus does behind a load balancer.
//!
//! Labels come from closed sets only (route templates, methods, the vitals' names, levels,
//! kinds, ratings, the known event names): a visitor cannot make the scrape grow by sending new names.
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use app::diagnostics::model::FrontendMetricsBatch;
use app::diagnostics::rules::{self, Level, Vital};
use app::diagnostics::tracking::{self, TrackingBatch};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: std::borrow::Cow<'static, str>,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LevelLabels {
    level: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct MetricLabels {
    name: &'static str,
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VitalLabels {
    name: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct EventLabels {
    name: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RatingLabels {
    name: &'static str,
    rating: &'static str,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// Request durations, in seconds (Prometheus' usual buckets).
const DURATION_BUCKETS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
/// Vitals measured in time, in seconds: the thresholds of spec 000 §9 are bucket edges.
const VITAL_SECONDS_BUCKETS: [f64; 12] =
    [0.1, 0.2, 0.3, 0.5, 0.8, 1.0, 1.8, 2.5, 3.0, 4.0, 6.0, 10.0];
/// CLS (no unit): its thresholds 0.1 and 0.25 are bucket edges.
const CLS_BUCKETS: [f64; 7] = [0.01, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0];

pub struct Telemetry {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: Histograms<RequestLabels>,
    logs: Family<LevelLabels, Counter>,
    metrics: Family<MetricLabels, Counter>,
    vital_seconds: Histograms<VitalLabels>,
    cls: Histograms<VitalLabels>,
    ratings: Family<RatingLabels, Counter>,
    events: Family<EventLabels, Counter>,
    /// The series of a cached page's hit (GET, 200) by page kind: a hit looked its labels
    /// up in both families, about 2.5% of its CPU (perf, bench-catalog).
    page_hits: [std::sync::OnceLock<(Histogram, Counter)>; 64],
}

impl Default for Telemetry {
    fn default() -> Self {
        Telemetry::new()
    }
}

/// The method as a label: the usual ones by name, anything else as `other`.
fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

impl Telemetry {
    pub fn new() -> Telemetry {
        let mut registry = Registry::with_prefix("rosace");
        let requests = Family::<RequestLabels, Counter>::default();
        let durations: Histograms<RequestLabels> =
            Family::new_with_constructor(|| Histogram::new(DURATION_BUCKETS));
        let logs = Family::<LevelLabels, Counter>::default();
        let metrics = Family::<MetricLabels, Counter>::default();
        let vital_seconds: Histograms<VitalLabels> =
            Family::new_with_constructor(|| Histogram::new(VITAL_SECONDS_BUCKETS));
        let cls: Histograms<VitalLabels> =
            Family::new_with_constructor(|| Histogram::new(CLS_BUCKETS));
        let ratings = Family::<RatingLabels, Counter>::default();
        let events = Family::<EventLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route template and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request (until its response starts), by method, route template and status",
            durations.clone(),
        );
        registry.register(
            "frontend_logs",
            "Frontend log entries accepted from browsers, by level",
            logs.clone(),
        );
        registry.register(
            "frontend_metrics",
            "Measures accepted from browsers, by name (Core Web Vitals and known names; others as other) and kind",
            metrics.clone(),
        );
        registry.register(
            "web_vitals_seconds",
            "Core Web Vitals measured in time (FCP, LCP, INP, TTFB, FID) reported by browsers, in seconds",
            vital_seconds.clone(),
        );
        registry.register(
            "web_vitals_cls",
            "Cumulative Layout Shift reported by browsers",
            cls.clone(),
        );
        registry.register(
            "web_vitals_ratings",
            "Core Web Vitals reported by browsers, rated good, needs-improvement or poor by the thresholds of spec 000 §9",
            ratings.clone(),
        );
        registry.register(
            "tracking_events",
            "Analytics events accepted from browsers, by name (page_view and the analytics error names of spec 000 §8; others as other)",
            events.clone(),
        );
        Telemetry {
            page_hits: [const { std::sync::OnceLock::new() }; 64],
            registry,
            requests,
            durations,
            logs,
            metrics,
            vital_seconds,
            cls,
            ratings,
            events,
        }
    }

    /// One answered request.
    pub fn request(
        &self,
        method: &axum::http::Method,
        route: std::borrow::Cow<'static, str>,
        status: u16,
        seconds: f64,
    ) {
        let labels = RequestLabels {
            method: method_label(method),
            route,
            status,
        };
        self.durations.get_or_create(&labels).observe(seconds);
        self.requests.get_or_create(&labels).inc();
    }

    /// A page answered from the page cache before the request steps: a GET answered 200.
    pub fn page_hit(&self, kind: app::routes::PageKind, seconds: f64) {
        let Some(slot) = self.page_hits.get(kind as usize) else {
            let label = crate::middleware::metrics::page_label(kind);
            return self.request(&axum::http::Method::GET, label, 200, seconds);
        };
        let (durations, requests) = slot.get_or_init(|| {
            let labels = RequestLabels {
                method: "GET",
                route: crate::middleware::metrics::page_label(kind),
                status: 200,
            };
            (
                self.durations.get_or_create(&labels).clone(),
                self.requests.get_or_create(&labels).clone(),
            )
        });
        durations.observe(seconds);
        requests.inc();
    }

    /// One accepted frontend log entry.
    pub fn log(&self, level: Level) {
        self.logs
            .get_or_create(&LevelLabels {
                level: level.as_str(),
            })
            .inc();
    }

    /// An accepted (checked) metrics batch.
    pub fn metrics(&self, batch: &FrontendMetricsBatch) {
        for m in &batch.metrics {
            let Some(kind) = rules::MetricKind::parse(&m.kind) else {
                continue;
            };
            let name = rules::label_name(&m.name);
            self.metrics
                .get_or_create(&MetricLabels {
                    name,
                    kind: kind.as_str(),
                })
                .inc();
            let (Some(vital), Some(value)) = (Vital::parse(&m.name), m.value) else {
                continue;
            };
            let labels = VitalLabels { name: vital.name() };
            if vital.is_time() {
                self.vital_seconds
                    .get_or_create(&labels)
                    .observe(value / 1000.0);
            } else {
                self.cls.get_or_create(&labels).observe(value);
            }
            self.ratings
                .get_or_create(&RatingLabels {
                    name: vital.name(),
                    rating: rules::rate(vital, value).as_str(),
                })
                .inc();
        }
    }

    /// An accepted (checked) batch of analytics events.
    pub fn events(&self, batch: &TrackingBatch) {
        for e in &batch.events {
            self.events
                .get_or_create(&EventLabels {
                    name: tracking::label_name(&e.name),
                })
                .inc();
        }
    }

    /// The OpenMetrics text exposition (Prometheus reads it; `# EOF` ends it).
    pub fn encode(&self) -> String {
        let mut out = String::new();
        if let Err(e) = prometheus_client::encoding::text::encode(&mut out, &self.registry) {
            tracing::error!(error = %e, "metrics encoding failed");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::diagnostics::model::{FrontendBatchTags, FrontendMetric};

    #[test]
    fn the_scrape_holds_requests_logs_and_rated_vitals() {
        let t = Telemetry::new();
        t.request(&axum::http::Method::GET, "/health".into(), 200, 0.003);
        t.request(&axum::http::Method::GET, "/health".into(), 200, 0.2);
        t.log(Level::Fatal);
        let m = |name: &str, value: f64, kind: &str| FrontendMetric {
            name: name.into(),
            value: Some(value),
            kind: kind.into(),
            tags: Default::default(),
        };
        t.metrics(&FrontendMetricsBatch {
            metrics: vec![
                m("LCP", 2500.0, "timing"),
                m("LCP", 4000.1, "timing"),
                m("CLS", 0.12, "gauge"),
                m("my-own-name", 1.0, "count"),
            ],
            tags: FrontendBatchTags::default(),
        });
        t.events(&TrackingBatch {
            events: [
                "page_view",
                "page_view",
                "Unavailable Order Pipe",
                "my-event",
            ]
            .into_iter()
            .map(|name| app::diagnostics::tracking::TrackingEvent {
                name: name.into(),
                ..Default::default()
            })
            .collect(),
            ..Default::default()
        });
        let text = t.encode();
        for line in [
            "rosace_tracking_events_total{name=\"page_view\"} 2",
            "rosace_tracking_events_total{name=\"Unavailable Order Pipe\"} 1",
            "rosace_tracking_events_total{name=\"other\"} 1",
            "rosace_http_requests_total{method=\"GET\",route=\"/health\",status=\"200\"} 2",
            "rosace_http_request_duration_seconds_bucket{le=\"0.005\",method=\"GET\",route=\"/health\",status=\"200\"} 1",
            "rosace_http_request_duration_seconds_count{method=\"GET\",route=\"/health\",status=\"200\"} 2",
            "rosace_frontend_logs_total{level=\"Fatal\"} 1",
            "rosace_frontend_metrics_total{name=\"LCP\",kind=\"timing\"} 2",
            "rosace_frontend_metrics_total{name=\"other\",kind=\"count\"} 1",
            "rosace_web_vitals_ratings_total{name=\"LCP\",rating=\"good\"} 1",
            "rosace_web_vitals_ratings_total{name=\"LCP\",rating=\"poor\"} 1",
            "rosace_web_vitals_ratings_total{name=\"CLS\",rating=\"needs-improvement\"} 1",
            "rosace_web_vitals_seconds_bucket{le=\"2.5\",name=\"LCP\"} 1",
            "rosace_web_vitals_cls_bucket{le=\"0.15\",name=\"CLS\"} 1",
        ] {
            assert!(text.contains(line), "{line} missing from\n{text}");
        }
        assert!(!text.contains("my-own-name"));
        assert!(!text.contains("my-event"));
        assert!(text.ends_with("# EOF\n"));
    }
}
