-- Bots: a bot is a user (user_type 'bot') that is an instance of a provider's service, member of
-- exactly one conversation. Both rows name the service, so that members render it and a service's
-- removal (or a team's de-whitelisting) finds its bots.
ALTER TABLE users ADD COLUMN service_provider TEXT;
ALTER TABLE users ADD COLUMN service_id TEXT;
ALTER TABLE conversation_members ADD COLUMN service_provider TEXT;
ALTER TABLE conversation_members ADD COLUMN service_id TEXT;
CREATE INDEX conversation_members_service ON conversation_members (service_provider, service_id)
  WHERE service_id IS NOT NULL;
