import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { PersonChangedEvent } from '../../users/public/events.js';
import { SessionService } from '../session.service.js';

/** A person's username or role changed: every process forgets its copy of their sessions. */
@EventsHandler(PersonChangedEvent)
export class PersonChangedHandler implements IEventHandler<PersonChangedEvent> {
  constructor(private readonly sessions: SessionService) {}

  handle(event: PersonChangedEvent): Promise<void> {
    return this.sessions.forgetPerson(event.userId);
  }
}
