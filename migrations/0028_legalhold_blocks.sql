-- Legal hold blocks a connection between a user under legal hold and one who has not consented
-- (status missing-legalhold-consent); the status before the block comes back when it ends.
ALTER TABLE connections ADD COLUMN status_before_legalhold TEXT;
