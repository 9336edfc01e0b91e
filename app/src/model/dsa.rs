//! The report-illegal-content (DSA) form: spec 000 §3 "Report-illegal-content form",
//! §7 `POST /api/postsale/v1/help/dsacontactform`, §8.
use serde::{Deserialize, Serialize};

/// The 11 report reasons, spelled as the spec spells them on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "DsaReason.ts"))]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub enum DsaReason {
    VIOLATION_CONSUMER_RIGHTS,
    MARKETING_WITHDRAW,
    MARKETING_PROHIBITED,
    COPYRIGHT_TRADEMARK,
    COPYRIGHT_DESIGN,
    COPYRIGHT_PATENT,
    PRIVATE_RIGHTS,
    DISTRIBUTION_RIGHTS,
    HATRED,
    ANOTHER_REASON,
    COPYRIGHT_INFRINGEMENT_AUTE,
}

impl DsaReason {
    pub const ALL: [DsaReason; 11] = [
        DsaReason::VIOLATION_CONSUMER_RIGHTS,
        DsaReason::MARKETING_WITHDRAW,
        DsaReason::MARKETING_PROHIBITED,
        DsaReason::COPYRIGHT_TRADEMARK,
        DsaReason::COPYRIGHT_DESIGN,
        DsaReason::COPYRIGHT_PATENT,
        DsaReason::PRIVATE_RIGHTS,
        DsaReason::DISTRIBUTION_RIGHTS,
        DsaReason::HATRED,
        DsaReason::ANOTHER_REASON,
        DsaReason::COPYRIGHT_INFRINGEMENT_AUTE,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DsaReason::VIOLATION_CONSUMER_RIGHTS => "VIOLATION_CONSUMER_RIGHTS",
            DsaReason::MARKETING_WITHDRAW => "MARKETING_WITHDRAW",
            DsaReason::MARKETING_PROHIBITED => "MARKETING_PROHIBITED",
            DsaReason::COPYRIGHT_TRADEMARK => "COPYRIGHT_TRADEMARK",
            DsaReason::COPYRIGHT_DESIGN => "COPYRIGHT_DESIGN",
            DsaReason::COPYRIGHT_PATENT => "COPYRIGHT_PATENT",
            DsaReason::PRIVATE_RIGHTS => "PRIVATE_RIGHTS",
            DsaReason::DISTRIBUTION_RIGHTS => "DISTRIBUTION_RIGHTS",
            DsaReason::HATRED => "HATRED",
            DsaReason::ANOTHER_REASON => "ANOTHER_REASON",
            DsaReason::COPYRIGHT_INFRINGEMENT_AUTE => "COPYRIGHT_INFRINGEMENT_AUTE",
        }
    }

    /// Reasons about intellectual property, for which a registration number is asked.
    pub fn is_registered_right(self) -> bool {
        matches!(
            self,
            DsaReason::COPYRIGHT_TRADEMARK
                | DsaReason::COPYRIGHT_DESIGN
                | DsaReason::COPYRIGHT_PATENT
        )
    }
}

/// The JSON body (or the `payload` part of a multipart body) of a report.
/// `selectedMadeAs` is the reporter type: 1 particular, 2 flagger, 3 legal person.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "DsaFormRequest.ts"))]
pub struct DsaFormRequest {
    pub site_id: u16,
    #[cfg_attr(test, ts(optional, type = "number"))]
    pub sale_id: Option<i64>,
    #[cfg_attr(test, ts(optional, type = "number"))]
    pub product_id: Option<i64>,
    pub selected_made_as: u8,
    pub selected_concerns: Vec<DsaReason>,
    pub description: String,
    pub last_name: String,
    pub denomination: String,
    pub copyright_reg_number: String,
    pub copyright_report_number: String,
    pub selected_reg_office: String,
    pub email: String,
    pub agreement_seller_partner: bool,
    pub is_notification_submit_checked: bool,
}

/// One field that failed validation; `messageKey` is a translation key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "DsaFieldError.ts"))]
pub struct DsaFieldError {
    pub field: String,
    pub message_key: String,
}

/// Body of every non-2xx answer of the DSA endpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "DsaFormErrorResponse.ts"))]
pub struct DsaFormErrorResponse {
    pub error_code: String,
    pub message_key: String,
    pub field_errors: Vec<DsaFieldError>,
}

/// Body of the 201 answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(export_to = "DsaFormResponse.ts"))]
pub struct DsaFormResponse {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub is_submitted: bool,
}

/// Attachment limits, stated in the form and enforced by the server.
pub const DSA_MAX_FILES: usize = 3;
pub const DSA_MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
pub const DSA_ALLOWED_TYPES: [&str; 3] = ["application/pdf", "image/png", "image/jpeg"];
pub const DSA_DESCRIPTION_MIN: usize = 20;
pub const DSA_DESCRIPTION_MAX: usize = 5000;

/// The widget's TypeScript types come from these Rust types through ts-rs. This test fails
/// when the checked-in files drift; `UPDATE_GENERATED=1 cargo test -p app generated`
/// rewrites them.
#[cfg(test)]
pub(crate) fn check_generated<T: ts_rs::TS + 'static>(stale: &mut Vec<String>) {
    generated_typescript::check::<T>(stale)
}

#[cfg(test)]
mod generated_typescript {
    use super::*;
    use ts_rs::{Config, TS};

    pub(super) fn check<T: TS + 'static>(stale: &mut Vec<String>) {
        let cfg = Config::new().with_large_int("number");
        let expected = T::export_to_string(&cfg).expect("ts-rs renders the type");
        let name = T::output_path().expect("exported type has a path");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../frontend-react/src/generated")
            .join(&name);
        if std::env::var("UPDATE_GENERATED").is_ok_and(|v| v == "1") {
            std::fs::write(&path, &expected).expect("write generated file");
            return;
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        if actual != expected {
            stale.push(format!(
                "{}:\n--- expected ---\n{expected}\n--- found ---\n{actual}",
                path.display()
            ));
        }
    }

    #[test]
    fn generated_typescript_matches_the_rust_models() {
        let mut stale = Vec::new();
        check::<DsaReason>(&mut stale);
        check::<DsaFormRequest>(&mut stale);
        check::<DsaFieldError>(&mut stale);
        check::<DsaFormErrorResponse>(&mut stale);
        check::<DsaFormResponse>(&mut stale);
        assert!(
            stale.is_empty(),
            "regenerate with UPDATE_GENERATED=1:\n{}",
            stale.join("\n")
        );
    }
}
