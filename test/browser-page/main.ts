/** The page's script: the test drives the person of this browser profile through `window.wire`. */
import { Person } from './person.js';

export interface WirePage {
  /** Set by `start`. */
  person?: Person;
  /** The app starts on API version `version`. */
  start(version: number): Promise<void>;
}

declare global {
  interface Window {
    wire: WirePage;
  }
}

window.wire = {
  async start(version) {
    this.person = await Person.start(version);
  },
};
