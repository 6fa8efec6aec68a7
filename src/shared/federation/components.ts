/** The components that answer other backends' RPCs (the path segment after `/federation/`). */
export type FederatedComponent = 'brig' | 'galley' | 'cargohold';
