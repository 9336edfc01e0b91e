//! The moderators' rules: what a decision form must hold, the transparency report's period
//! and figures (DSA Art. 15 and 24: notices by reason and by decision, median time to
//! decide), and its CSV. Pure.
use app::dsa::mail::{Decision, Ground};
use app::model::dsa::DsaReason;
use app::travel::rules::Date;

use super::store::PeriodRow;

/// Longest facts or explanation a moderator writes.
pub const TEXT_MAX: usize = 4000;

/// A decision form as typed.
#[derive(serde::Deserialize, Default, Clone)]
#[serde(default)]
pub struct DecisionForm {
    pub decision: String,
    pub ground: String,
    pub facts: String,
    pub explanation: String,
}

/// A decision ready to write.
pub struct Checked {
    pub decision: Decision,
    pub ground: Ground,
    pub facts: String,
    pub explanation: String,
}

fn text(s: &str) -> String {
    s.trim()
        .chars()
        .filter(|c| !c.is_control() || *c == '\n')
        .collect()
}

/// The form's field errors (field, text key), or the decision. A decision that acts on a
/// product needs the notice to name one that exists.
pub fn check(
    form: &DecisionForm,
    has_product: bool,
) -> Result<Checked, Vec<(&'static str, &'static str)>> {
    let mut errors = vec![];
    let decision = Decision::parse(&form.decision);
    match decision {
        None => errors.push(("decision", "moderation.error.decision")),
        Some(d) if d.moderation().is_some() && !has_product => {
            errors.push(("decision", "moderation.error.no_product"))
        }
        _ => {}
    }
    let ground = Ground::parse(&form.ground);
    if ground.is_none() {
        errors.push(("ground", "moderation.error.ground"));
    }
    let facts = text(&form.facts);
    if facts.is_empty() || facts.chars().count() > TEXT_MAX {
        errors.push(("facts", "moderation.error.facts"));
    }
    let explanation = text(&form.explanation);
    if explanation.is_empty() || explanation.chars().count() > TEXT_MAX {
        errors.push(("explanation", "moderation.error.explanation"));
    }
    match (decision, ground) {
        (Some(decision), Some(ground)) if errors.is_empty() => Ok(Checked {
            decision,
            ground,
            facts,
            explanation,
        }),
        _ => Err(errors),
    }
}

/// A transparency period: a calendar year (`2026`) or month (`2026-11`), in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    pub year: i32,
    pub month: Option<u32>,
}

impl Period {
    pub fn parse(s: &str) -> Option<Period> {
        let s = s.trim();
        let (y, m) = match s.split_once('-') {
            Some((y, m)) => (y, Some(m)),
            None => (s, None),
        };
        if y.len() != 4 {
            return None;
        }
        let year: i32 = y.parse().ok().filter(|y| (2000..=2999).contains(y))?;
        let month = match m {
            Some(m) if m.len() == 2 => Some(m.parse().ok().filter(|m| (1..=12).contains(m))?),
            Some(_) => return None,
            None => None,
        };
        Some(Period { year, month })
    }

    /// The month of `now`.
    pub fn of(now: i64) -> Period {
        let d = Date::from_unix(now);
        Period {
            year: d.year,
            month: Some(d.month),
        }
    }

    pub fn label(self) -> String {
        match self.month {
            Some(m) => format!("{:04}-{m:02}", self.year),
            None => format!("{:04}", self.year),
        }
    }

    /// `[from, until)` in Unix seconds.
    pub fn bounds(self) -> (i64, i64) {
        let start = |y: i32, m: u32| {
            Date::new(y, m, 1).map_or(0, |d| Date::from_unix(0).days_until(d) * 86_400)
        };
        match self.month {
            Some(12) => (start(self.year, 12), start(self.year + 1, 1)),
            Some(m) => (start(self.year, m), start(self.year, m + 1)),
            None => (start(self.year, 1), start(self.year + 1, 1)),
        }
    }
}

/// The columns of decisions, in the report's order; "pending" is a notice not decided yet.
pub const OUTCOMES: [&str; 5] = ["remove", "disable", "restrict", "none", "pending"];

/// The transparency figures of a period.
#[derive(Debug, PartialEq)]
pub struct Report {
    pub received: usize,
    pub decided: usize,
    /// Per reason (those with a notice only), the count per outcome of [`OUTCOMES`]. A
    /// notice with several reasons counts under each.
    pub by_reason: Vec<(DsaReason, [usize; 5])>,
    /// The count per outcome, each notice once.
    pub totals: [usize; 5],
    /// Median time from receipt to decision, in seconds, of the decided notices.
    pub median_secs: Option<i64>,
}

fn outcome(decision: Option<&str>) -> usize {
    decision
        .and_then(|d| OUTCOMES.iter().position(|o| *o == d))
        .unwrap_or(4)
}

pub fn report(rows: &[PeriodRow]) -> Report {
    let mut by_reason: Vec<(DsaReason, [usize; 5])> =
        DsaReason::ALL.iter().map(|r| (*r, [0; 5])).collect();
    let mut totals = [0; 5];
    let mut times = vec![];
    for r in rows {
        let o = outcome(r.decision.as_deref());
        totals[o] += 1;
        for c in r.concerns.split(',') {
            if let Some((_, counts)) = by_reason.iter_mut().find(|(k, _)| k.as_str() == c) {
                counts[o] += 1;
            }
        }
        if let Some(at) = r.decided_at.filter(|_| r.decision.is_some()) {
            times.push(at - r.created_at);
        }
    }
    times.sort_unstable();
    let median_secs = match times.len() {
        0 => None,
        n if n % 2 == 1 => Some(times[n / 2]),
        n => Some((times[n / 2 - 1] + times[n / 2]) / 2),
    };
    by_reason.retain(|(_, c)| c.iter().sum::<usize>() > 0);
    Report {
        received: rows.len(),
        decided: times.len(),
        by_reason,
        totals,
        median_secs,
    }
}

/// Hours with one decimal, as the report shows a duration.
pub fn hours(secs: i64) -> String {
    format!("{:.1}", secs as f64 / 3600.0)
}

/// The report as CSV (RFC 4180, comma-separated, CRLF): one row per reason, then the total.
pub fn csv(period: Period, r: &Report) -> String {
    let mut out = String::from("period,reason,");
    out.push_str(&OUTCOMES.join(","));
    out.push_str(",notices,median_hours_to_decide\r\n");
    let median = r.median_secs.map(hours).unwrap_or_default();
    for (reason, counts) in &r.by_reason {
        let cells: Vec<String> = counts.iter().map(usize::to_string).collect();
        out.push_str(&format!(
            "{},{},{},{},\r\n",
            period.label(),
            reason.as_str(),
            cells.join(","),
            counts.iter().sum::<usize>()
        ));
    }
    let cells: Vec<String> = r.totals.iter().map(usize::to_string).collect();
    out.push_str(&format!(
        "{},ALL,{},{},{median}\r\n",
        period.label(),
        cells.join(","),
        r.received
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(concerns: &str, at: i64, decision: Option<(&str, i64)>) -> PeriodRow {
        PeriodRow {
            concerns: concerns.into(),
            created_at: at,
            decision: decision.map(|(d, _)| d.to_string()),
            decided_at: decision.map(|(_, t)| t),
        }
    }

    #[test]
    fn the_report_counts_each_reason_and_each_notice_once() {
        let rows = [
            row("HATRED,COPYRIGHT_TRADEMARK", 0, Some(("remove", 3600))),
            row("HATRED", 100, Some(("none", 100 + 7200))),
            row("COPYRIGHT_TRADEMARK", 200, None),
            row("ANOTHER_REASON", 300, Some(("restrict", 300 + 36_000))),
        ];
        let r = report(&rows);
        assert_eq!(r.received, 4);
        assert_eq!(r.decided, 3);
        assert_eq!(r.totals, [1, 0, 1, 1, 1]);
        assert_eq!(r.median_secs, Some(7200));
        let hatred = r
            .by_reason
            .iter()
            .find(|(k, _)| *k == DsaReason::HATRED)
            .unwrap();
        assert_eq!(hatred.1, [1, 0, 0, 1, 0]);
        assert_eq!(r.by_reason.len(), 3, "reasons with no notice are left out");
        let csv = csv(Period::parse("2026-11").unwrap(), &r);
        assert!(csv.starts_with(
            "period,reason,remove,disable,restrict,none,pending,notices,median_hours_to_decide\r\n"
        ));
        assert!(csv.contains("2026-11,HATRED,1,0,0,1,0,2,\r\n"), "{csv}");
        assert!(csv.ends_with("2026-11,ALL,1,0,1,1,1,4,2.0\r\n"), "{csv}");
    }

    #[test]
    fn an_even_count_of_decisions_takes_the_middle_two() {
        let rows = [
            row("HATRED", 0, Some(("none", 100))),
            row("HATRED", 0, Some(("none", 300))),
        ];
        assert_eq!(report(&rows).median_secs, Some(200));
        assert_eq!(report(&[]).median_secs, None);
    }

    #[test]
    fn periods_are_months_or_years() {
        let nov = Period::parse("2026-11").unwrap();
        let (from, until) = nov.bounds();
        assert_eq!(until - from, 30 * 86_400);
        assert_eq!(
            Period::parse("2026-12").unwrap().bounds().1,
            Period::parse("2027").unwrap().bounds().0
        );
        assert_eq!(
            Period::parse("2026").unwrap().bounds().1 - Period::parse("2026").unwrap().bounds().0,
            365 * 86_400
        );
        for bad in [
            "",
            "26",
            "2026-13",
            "2026-1",
            "2026-00",
            "abcd",
            "2026-11-01",
            "١٢٣٤",
        ] {
            assert_eq!(Period::parse(bad), None, "{bad}");
        }
        assert_eq!(Period::of(1_796_112_000).label(), "2026-12");
    }

    #[test]
    fn a_decision_needs_its_reasons_and_a_product_to_act_on() {
        let mut f = DecisionForm {
            decision: "remove".into(),
            ground: "illegal".into(),
            facts: "  The logo copies a registered mark.\u{7} ".into(),
            explanation: "Art. 9 EUTMR.".into(),
        };
        let ok = check(&f, true).ok().unwrap();
        assert_eq!(ok.facts, "The logo copies a registered mark.");
        assert_eq!(
            check(&f, false).err().unwrap(),
            vec![("decision", "moderation.error.no_product")]
        );
        f.decision = "none".into();
        assert!(check(&f, false).is_ok());
        f.decision = "delete".into();
        f.ground = "".into();
        f.facts = " ".into();
        f.explanation = "x".repeat(TEXT_MAX + 1);
        let errors = check(&f, true).err().unwrap();
        let fields: Vec<&str> = errors.iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, ["decision", "ground", "facts", "explanation"]);
    }
}
