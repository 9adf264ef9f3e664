import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CqrsModule, EventBus, EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { Test } from '@nestjs/testing';
import { AwaitingEventPublisher } from './awaiting-event-publisher.js';

class Happened {
  constructor(readonly what: string) {}
}
class Other {}

const seen: string[] = [];

@EventsHandler(Happened)
class SlowRecorder implements IEventHandler<Happened> {
  async handle(event: Happened): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 30));
    seen.push(`slow:${event.what}`);
  }
}

@EventsHandler(Happened, Other)
class FailingListener implements IEventHandler<Happened | Other> {
  handle(event: Happened | Other): Promise<void> {
    if (event instanceof Happened && event.what === 'boom') return Promise.reject(new Error('listener failed'));
    seen.push(`other:${event.constructor.name}`);
    return Promise.resolve();
  }
}

describe('AwaitingEventPublisher (the EventBus publisher)', () => {
  let bus: EventBus;
  let publisher: AwaitingEventPublisher;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [CqrsModule.forRoot(), DiscoveryModule],
      providers: [AwaitingEventPublisher, SlowRecorder, FailingListener],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    bus = moduleRef.get(EventBus);
    publisher = moduleRef.get(AwaitingEventPublisher);
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('returns from eventBus.publish only once every handler of that event has finished', async () => {
    await bus.publish(new Happened('a'));
    expect(seen.sort()).toEqual(['other:Happened', 'slow:a']);
  });

  it('runs each handler once and only for the events it names', async () => {
    await bus.publish(new Other());
    expect(seen).toEqual(['other:Other']);
  });

  it('a failing handler is logged and neither fails the publisher nor stops the others', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    await expect(bus.publish(new Happened('boom'))).resolves.toBeUndefined();
    expect(seen).toEqual(['slow:boom']);
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it('publishStrict rejects when a handler failed, after the others finished', async () => {
    await expect(publisher.publishStrict(new Happened('boom'))).rejects.toThrow('listener failed');
    expect(seen).toEqual(['slow:boom']);
  });
});
