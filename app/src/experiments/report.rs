//! The experiments report: per experiment and variation, visitors, conversions (visitors
//! with a paid order after their assignment) and the conversion rate with its 95% Wilson
//! interval. Pure code: the store counts, this computes and prints.
use super::rules::{wilson, Z95};

/// What the store counts for one experiment and variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    pub experiment: String,
    pub variation: String,
    pub visitors: u64,
    pub exposures: u64,
    pub conversions: u64,
}

/// One line of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub counts: Counts,
    /// Conversions per visitor.
    pub rate: f64,
    /// The 95% Wilson interval of the rate.
    pub low: f64,
    pub high: f64,
}

pub fn line(counts: Counts) -> Line {
    let rate = if counts.visitors == 0 {
        0.0
    } else {
        counts.conversions as f64 / counts.visitors as f64
    };
    let (low, high) = wilson(counts.conversions, counts.visitors, Z95);
    Line {
        counts,
        rate,
        low,
        high,
    }
}

/// The report as a plain-text table (percentages with two decimals).
pub fn render(lines: &[Line]) -> String {
    let mut out = String::from(
        "experiment                      variation          visitors  exposures  conversions   rate     95% CI (Wilson)\n",
    );
    if lines.is_empty() {
        out.push_str("(no visitor recorded yet)\n");
    }
    for l in lines {
        let c = &l.counts;
        out.push_str(&format!(
            "{:<31} {:<18} {:>8}  {:>9}  {:>11}  {:>6.2}%  [{:.2}%, {:.2}%]\n",
            c.experiment,
            c.variation,
            c.visitors,
            c.exposures,
            c.conversions,
            l.rate * 100.0,
            l.low * 100.0,
            l.high * 100.0
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(visitors: u64, conversions: u64) -> Counts {
        Counts {
            experiment: "member_rosedeals_menu".into(),
            variation: "var1_enabled".into(),
            visitors,
            exposures: visitors * 2,
            conversions,
        }
    }

    #[test]
    fn lines_carry_the_rate_and_its_interval() {
        let l = line(counts(263, 81));
        assert!((l.rate - 81.0 / 263.0).abs() < 1e-12);
        assert!((l.low - 0.2553).abs() < 5e-4 && (l.high - 0.3662).abs() < 5e-4);
        let empty = line(counts(0, 0));
        assert_eq!((empty.rate, empty.low, empty.high), (0.0, 0.0, 0.0));
    }

    #[test]
    fn the_table_prints_every_figure() {
        let text = render(&[line(counts(4, 1))]);
        let row = text.lines().nth(1).unwrap();
        assert!(row.starts_with("member_rosedeals_menu"), "{row}");
        assert!(row.contains("var1_enabled") && row.contains(" 4 ") && row.contains(" 8 "));
        assert!(
            row.contains("25.00%") && row.contains("[4.56%, 69.94%]"),
            "{row}"
        );
        assert!(render(&[]).contains("no visitor recorded yet"));
    }
}
