/**
 * A person's account changed (username, role): whoever keeps a copy of it forgets it (auth's
 * session cache, so the next request of that person reads the new account).
 */
export class PersonChangedEvent {
  constructor(readonly userId: string) {}
}
