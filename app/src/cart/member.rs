//! What a cart operation acts on: the member and the lines of an add (the service and the
//! batching add writer both take them).

/// The member a call acts for.
#[derive(Clone, Copy, Debug)]
pub struct Member {
    pub id: i64,
    pub site_id: i64,
}

/// One line of an add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddLine {
    pub option_id: i64,
    pub quantity: i64,
}

#[derive(Clone, Debug, Default)]
pub struct AddOptions {
    pub origin: Option<String>,
    pub bundle_id: Option<String>,
}
