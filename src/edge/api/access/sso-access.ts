/** What other components may ask of spar about single sign-on. spar implements it (`Deps.sso`). */
export interface SsoAccess {
  /** The ids of a team's identity providers. */
  teamIdpIds(team: string): Promise<string[]>;
}
