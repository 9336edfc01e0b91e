-- The upload quota (review N2) sums a member's stored files before each upload: by member.
CREATE INDEX help_attachments_member ON help_attachments (member_id);
CREATE INDEX help_evaluation_files_member ON help_evaluation_files (member_id);
