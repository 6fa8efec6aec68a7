/**
 * A conversation as versions before the Conversation object's own storage left it in D1: its row,
 * its members (and the indexes a team's conversation has). Its object moves it in on its first
 * call, so a test can start a conversation in a state the API does not make (a channel, an epoch).
 */
export interface LegacyConversation {
  domain?: string;
  id?: string;
  type?: 0 | 1 | 2 | 3;
  name?: string;
  team?: string;
  protocol?: 'proteus' | 'mls' | 'mixed';
  groupId?: string;
  epoch?: number;
  epochTimestamp?: number;
  cipherSuite?: number;
  groupConvType?: string;
  addPermission?: string;
  accessRole?: string[];
  members: Array<{ id: string; domain?: string; role?: string }>;
  /** The GroupInfo of its group's epoch, base64. */
  groupInfo?: string;
}

export async function legacyConversation(
  b: { query(sql: string, ...params: unknown[]): Promise<unknown> },
  c: LegacyConversation,
): Promise<string> {
  const domain = c.domain ?? 'example.com';
  const id = c.id ?? crypto.randomUUID();
  await b.query(
    `INSERT INTO conversations (domain, id, type, name, team, protocol, group_id, epoch, epoch_timestamp, cipher_suite,
       group_conv_type, add_permission, access_role, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    domain,
    id,
    c.type ?? 0,
    c.name ?? 'earlier',
    c.team ?? null,
    c.protocol ?? 'proteus',
    c.groupId ?? null,
    c.epoch ?? 0,
    c.epochTimestamp ?? null,
    c.cipherSuite ?? null,
    c.groupConvType ?? null,
    c.addPermission ?? null,
    JSON.stringify(c.accessRole ?? ['team_member', 'non_team_member', 'service']),
    Date.now(),
  );
  for (const [i, m] of c.members.entries())
    await b.query(
      `INSERT INTO conversation_members (conv_domain, conv_id, user_domain, user_id, role, joined_at) VALUES (?, ?, ?, ?, ?, ?)`,
      domain,
      id,
      m.domain ?? domain,
      m.id,
      m.role ?? 'wire_admin',
      Date.now() + i,
    );
  if (c.team !== undefined)
    await b.query('INSERT INTO team_conversations (conv_domain, conv_id, team) VALUES (?, ?, ?)', domain, id, c.team);
  if (c.groupInfo !== undefined && c.groupId !== undefined)
    await b.query('INSERT INTO mls_group_infos (group_id, group_info) VALUES (?, ?)', c.groupId, c.groupInfo);
  return id;
}
