-- A SCIM client provisions users without an IdP as invitations: the account exists (pending),
-- and registering with the invitation's code claims it instead of creating another.
ALTER TABLE team_invitations ADD COLUMN invitee TEXT;
