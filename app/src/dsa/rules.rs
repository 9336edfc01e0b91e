//! Validation of a report (spec 000 §3, §8). Pure: used by the server; the React widget
//! has a TypeScript twin (`dsa-form/rules.ts`), both tested against
//! `tests/vectors/dsa_form.json` and `tests/vectors/email.json`.
use crate::model::dsa::*;
use crate::text::email::is_valid_email;

/// What the server knows of an attached file before storing it.
#[derive(Clone, Debug)]
pub struct FileMeta<'a> {
    pub name: &'a str,
    pub content_type: &'a str,
    pub bytes: &'a [u8],
}

fn err(field: &str, key: &str) -> DsaFieldError {
    DsaFieldError {
        field: field.to_string(),
        message_key: key.to_string(),
    }
}

use crate::model::upload::content_matches;

/// Every field error of a report; empty when it can be stored.
pub fn validate(req: &DsaFormRequest, files: &[FileMeta<'_>]) -> Vec<DsaFieldError> {
    let mut errors = Vec::new();
    if crate::site::by_id(req.site_id).is_none() {
        errors.push(err("siteId", "dsaform.error.required"));
    }
    if !(1..=3).contains(&req.selected_made_as) {
        errors.push(err("selectedMadeAs", "dsaform.error.madeas"));
    }
    if req.selected_concerns.is_empty() {
        errors.push(err("selectedConcerns", "dsaform.error.concerns"));
    }
    let description_len = req.description.trim().chars().count();
    if description_len == 0 {
        errors.push(err("description", "dsaform.error.required"));
    } else if !(DSA_DESCRIPTION_MIN..=DSA_DESCRIPTION_MAX).contains(&description_len) {
        errors.push(err("description", "dsaform.error.description_length"));
    }
    let blank = |s: &str| s.trim().is_empty();
    match req.selected_made_as {
        1 if blank(&req.last_name) => errors.push(err("lastName", "dsaform.error.required")),
        2 | 3 if blank(&req.denomination) => {
            errors.push(err("denomination", "dsaform.error.required"))
        }
        _ => {}
    }
    if req.selected_made_as == 3 && blank(&req.selected_reg_office) {
        errors.push(err("selectedRegOffice", "dsaform.error.required"));
    }
    if req
        .selected_concerns
        .iter()
        .any(|r| r.is_registered_right())
        && blank(&req.copyright_reg_number)
    {
        errors.push(err("copyrightRegNumber", "dsaform.error.reg_number"));
    }
    if blank(&req.email) {
        errors.push(err("email", "dsaform.error.required"));
    } else if !is_valid_email(req.email.trim()) {
        errors.push(err("email", "dsaform.error.email"));
    }
    if !req.is_notification_submit_checked {
        errors.push(err(
            "isNotificationSubmitChecked",
            "dsaform.error.notification_checkbox",
        ));
    }
    for (field, value, max) in [
        ("lastName", &req.last_name, 100),
        ("denomination", &req.denomination, 200),
        ("selectedRegOffice", &req.selected_reg_office, 100),
        ("copyrightRegNumber", &req.copyright_reg_number, 100),
        ("copyrightReportNumber", &req.copyright_report_number, 100),
        ("email", &req.email, 254),
    ] {
        if value.chars().count() > max {
            errors.push(err(field, "dsaform.error.too_long"));
        }
    }
    if files.len() > DSA_MAX_FILES {
        errors.push(err("files", "dsaform.error.file_count"));
    }
    for f in files {
        if f.bytes.len() > DSA_MAX_FILE_BYTES {
            errors.push(err("files", "dsaform.error.file_size"));
        } else if !DSA_ALLOWED_TYPES.contains(&f.content_type)
            || !content_matches(f.content_type, f.bytes)
        {
            errors.push(err("files", "dsaform.error.file_type"));
        }
        let _ = f.name;
    }
    errors.dedup();
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid() -> DsaFormRequest {
        DsaFormRequest {
            site_id: 1,
            selected_made_as: 1,
            selected_concerns: vec![DsaReason::HATRED],
            description: "This listing shows a hateful slogan on the product.".into(),
            last_name: "Durand".into(),
            email: "jane@example.com".into(),
            is_notification_submit_checked: true,
            ..Default::default()
        }
    }

    fn fields(errors: &[DsaFieldError]) -> Vec<&str> {
        errors.iter().map(|e| e.field.as_str()).collect()
    }

    #[test]
    fn a_complete_report_passes() {
        assert!(validate(&valid(), &[]).is_empty());
    }

    #[test]
    fn reporter_type_must_be_one_to_three() {
        for bad in [0u8, 4, 9] {
            let r = DsaFormRequest {
                selected_made_as: bad,
                ..valid()
            };
            assert!(
                fields(&validate(&r, &[])).contains(&"selectedMadeAs"),
                "{bad}"
            );
        }
    }

    #[test]
    fn required_fields_depend_on_reporter_type() {
        let r = DsaFormRequest {
            last_name: " ".into(),
            ..valid()
        };
        assert_eq!(fields(&validate(&r, &[])), ["lastName"]);
        let r = DsaFormRequest {
            selected_made_as: 2,
            ..valid()
        };
        assert_eq!(fields(&validate(&r, &[])), ["denomination"]);
        let r = DsaFormRequest {
            selected_made_as: 3,
            denomination: "ACME".into(),
            ..valid()
        };
        assert_eq!(fields(&validate(&r, &[])), ["selectedRegOffice"]);
    }

    #[test]
    fn bad_email_missing_concern_short_description_and_unchecked_statement() {
        let r = DsaFormRequest {
            email: "jane@example".into(),
            selected_concerns: vec![],
            description: "too short".into(),
            is_notification_submit_checked: false,
            ..valid()
        };
        let errors = validate(&r, &[]);
        assert_eq!(
            fields(&errors),
            [
                "selectedConcerns",
                "description",
                "email",
                "isNotificationSubmitChecked"
            ]
        );
        assert_eq!(errors[2].message_key, "dsaform.error.email");
        assert_eq!(errors[1].message_key, "dsaform.error.description_length");
    }

    #[test]
    fn registered_rights_need_a_registration_number() {
        let r = DsaFormRequest {
            selected_concerns: vec![DsaReason::COPYRIGHT_PATENT],
            ..valid()
        };
        assert_eq!(fields(&validate(&r, &[])), ["copyrightRegNumber"]);
        let r = DsaFormRequest {
            copyright_reg_number: "EP123".into(),
            ..r
        };
        assert!(validate(&r, &[]).is_empty());
    }

    #[test]
    fn every_reason_round_trips_on_the_wire() {
        for reason in DsaReason::ALL {
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{}\"", reason.as_str()));
            assert_eq!(serde_json::from_str::<DsaReason>(&json).unwrap(), reason);
        }
        assert!(serde_json::from_str::<DsaReason>("\"SPAM\"").is_err());
    }

    #[test]
    fn files_are_checked_for_count_size_and_real_type() {
        let pdf = b"%PDF-1.7 ...".to_vec();
        let ok = FileMeta {
            name: "proof.pdf",
            content_type: "application/pdf",
            bytes: &pdf,
        };
        assert!(validate(&valid(), std::slice::from_ref(&ok)).is_empty());
        let exe = FileMeta {
            name: "x.pdf",
            content_type: "application/pdf",
            bytes: b"MZ\x90\x00",
        };
        assert_eq!(
            validate(&valid(), &[exe])[0].message_key,
            "dsaform.error.file_type"
        );
        let big = vec![0xFFu8; DSA_MAX_FILE_BYTES + 1];
        let big = FileMeta {
            name: "a.jpg",
            content_type: "image/jpeg",
            bytes: &big,
        };
        assert_eq!(
            validate(&valid(), &[big])[0].message_key,
            "dsaform.error.file_size"
        );
        let four = vec![ok.clone(), ok.clone(), ok.clone(), ok];
        assert_eq!(
            validate(&valid(), &four)[0].message_key,
            "dsaform.error.file_count"
        );
    }
}
