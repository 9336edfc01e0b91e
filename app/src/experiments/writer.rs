//! Group commit of page-view exposures (`platform::group_commit`): every page view of a
//! member (and of a visitor who accepted the analytics cookies) records its experiments'
//! exposures before the page renders, and waits for its own commit.
use std::future::Future;
use std::pin::Pin;

use sqlx::{Any, Transaction};

use super::store;
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

    fn write<'a>(
        &'a self,
        tx: &'a mut Transaction<'static, Any>,
    ) -> Pin<Box<dyn Future<Output = Result<(), sqlx::Error>> + Send + 'a>> {
        Box::pin(async move {
            store::expose(
                tx,
                self.site_id,
                &self.visitor,
                self.member_id,
                &self.assigned,
                self.now,
            )
            .await?;
            if let (Some(member), Some(anon)) = (self.member_id, &self.link_anonymous) {
                store::link_member(tx, anon, member).await?;
            }
            Ok(())
        })
    }
}
