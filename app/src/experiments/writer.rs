//! Group commit of page-view exposures (`platform::group_commit`): every page view of a
//! member (and of a visitor who accepted the analytics cookies) records its experiments'
//! exposures before the page renders, and waits for its own commit.
use std::future::Future;
use std::pin::Pin;

use sqlx::{Any, Transaction};

use super::store;
use crate::platform::db::Backend;
use crate::platform::group_commit::{GroupWrite, GroupWriter};

/// One page view's exposures (see `service::page_view`).
#[derive(Clone, Debug)]
pub struct Exposure {
    pub site_id: u16,
    pub visitor: String,
    pub member_id: Option<i64>,
    pub assigned: Vec<(String, String)>,
    pub now: i64,
    /// The browser's anonymous id, linked to the member now signed in.
    pub link_anonymous: Option<String>,
}

/// The writer task's queue.
pub type ExposureWriter = GroupWriter<Exposure>;

impl GroupWrite for Exposure {
    const NAME: &'static str = "exposure";

    fn write_all<'a>(
        backend: Backend,
        batch: &'a [&'a Self],
        tx: &'a mut Transaction<'static, Any>,
    ) -> Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'a>> {
        Box::pin(async move {
            let exposed: Vec<store::Exposed<'_>> = batch
                .iter()
                .flat_map(|view| {
                    view.assigned
                        .iter()
                        .map(move |(experiment, variation)| store::Exposed {
                            experiment,
                            visitor: &view.visitor,
                            variation,
                            site_id: view.site_id,
                            member_id: view.member_id,
                            now: view.now,
                        })
                })
                .collect();
            store::expose_all(backend, tx, &exposed).await?;
            // The first view after a sign-in links the browser's anonymous rows: rare, one
            // statement each, after the batch's exposures.
            for view in batch {
                if let (Some(member), Some(anon)) = (view.member_id, &view.link_anonymous) {
                    store::link_member(tx, anon, member).await?;
                }
            }
            Ok(())
        })
    }
}
