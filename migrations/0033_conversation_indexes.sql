-- galley: what is asked across conversations, kept apart from the conversations themselves, which
-- move into their objects (issue 44, docs/architecture.md "Conversation objects own their
-- conversation", step 4). Each is small: team conversations, the members from other domains than
-- their conversation's, the copies of other backends' conversations, the bots. Mirrors
-- src/shared/db/schema.ts.

-- A team's conversations (GET /teams/{tid}/conversations, a team's deletion).
CREATE TABLE team_conversations (
  conv_domain TEXT NOT NULL,
  conv_id TEXT NOT NULL,
  team TEXT NOT NULL,
  PRIMARY KEY (conv_domain, conv_id)
);
CREATE INDEX team_conversations_team ON team_conversations (team);
INSERT OR IGNORE INTO team_conversations (conv_domain, conv_id, team)
  SELECT domain, id, team FROM conversations WHERE team IS NOT NULL;
-- Replaced by the table above; every conversation (1:1s too) had an entry.
DROP INDEX conversations_team;

-- Members of a domain other than their conversation's: whom the end of federation with a domain
-- concerns (the conversations with its users).
CREATE TABLE foreign_members (
  conv_domain TEXT NOT NULL,
  conv_id TEXT NOT NULL,
  user_domain TEXT NOT NULL,
  user_id TEXT NOT NULL,
  PRIMARY KEY (conv_domain, conv_id, user_domain, user_id)
);
CREATE INDEX foreign_members_domain ON foreign_members (user_domain, conv_domain);
INSERT OR IGNORE INTO foreign_members (conv_domain, conv_id, user_domain, user_id)
  SELECT conv_domain, conv_id, user_domain, user_id FROM conversation_members WHERE user_domain <> conv_domain;

-- The copies this backend keeps of conversations other backends own. This backend's own domain is
-- that of its users' self conversations and of its teams' conversations.
CREATE TABLE conversation_copies (
  domain TEXT NOT NULL,
  id TEXT NOT NULL,
  PRIMARY KEY (domain, id)
);
INSERT OR IGNORE INTO conversation_copies (domain, id)
  SELECT domain, id FROM conversations
  WHERE domain NOT IN (SELECT domain FROM conversations WHERE type = 1 OR team IS NOT NULL);

-- Bots, by their service (a service's removal takes its bots out of their conversations).
CREATE TABLE service_bots (
  conv_domain TEXT NOT NULL,
  conv_id TEXT NOT NULL,
  bot TEXT NOT NULL,
  provider TEXT NOT NULL,
  service TEXT NOT NULL,
  PRIMARY KEY (conv_domain, conv_id, bot)
);
CREATE INDEX service_bots_service ON service_bots (provider, service);
INSERT OR IGNORE INTO service_bots (conv_domain, conv_id, bot, provider, service)
  SELECT conv_domain, conv_id, user_id, service_provider, service_id FROM conversation_members
  WHERE service_id IS NOT NULL AND service_provider IS NOT NULL;
