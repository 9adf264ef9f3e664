import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import { BullModule } from '@nestjs/bullmq';
import { CqrsModule } from '@nestjs/cqrs';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { KeyRing } from './crypto/key-ring.js';
import { SEALED_TABLES, type SealedTable } from './crypto/sealed-columns.js';
import { AwaitingEventPublisher } from './events/awaiting-event-publisher.js';
import { OutboxRelaySweeper } from './outbox/outbox-relay.sweeper.js';
import { OutboxProcessor } from './outbox/outbox.processor.js';
import { OUTBOX_QUEUE, OutboxService } from './outbox/outbox.service.js';
import { MigrationRunner } from './database/migration-runner.js';
import { ormConfig, type OrmOptions } from './database/orm.config.js';
import { GlobalExceptionFilter } from './http/global-exception.filter.js';
import { SpaIndex } from './http/spa.js';
import { contextEntityManager } from './http/request-scope.js';
import { Stopping } from './lifecycle/stopping.js';
import { createRootLogger, loggerModule } from './logging/logger.module.js';
import { DocsController } from './openapi/docs.controller.js';
import { OpenApiService } from './openapi/openapi.service.js';
import { PERIODIC_QUEUE, PeriodicProcessor, PeriodicScheduler } from './queue/periodic-scheduler.js';
import { PROCESS_ROLE, runsWorkers, type ProcessRole } from './queue/process-role.js';
import { WorkerHeartbeatService } from './queue/worker-heartbeat.service.js';
import { configureQueueWorkers } from './queue/worker-options.js';
import { RateLimitService } from './rate-limit/rate-limit.service.js';
import { OneTimeStore } from './redis/one-time-store.js';
import { RedisModule } from './redis/redis.module.js';

export interface CoreOptions {
  config: AppConfig;
  databaseUrl: string;
  keyRing: KeyRing;
  role: ProcessRole;
  /** The modules' entities and the migrations, from the app's composition root. */
  orm: Pick<OrmOptions, 'entities' | 'migrations'>;
  /** Every module's sealed columns, for key rotation. */
  sealedTables: readonly SealedTable[];
}

/** The process's root pino logger (core/logging): the request log hook writes with it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/** Configuration, logging, database, Redis, queues, rate limits, errors, validation and API docs. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(options: CoreOptions): DynamicModule {
    const { config, databaseUrl, keyRing, role, orm } = options;
    if (runsWorkers(role)) configureQueueWorkers(config.queue);
    const rootLogger = createRootLogger(config);
    return {
      module: CoreModule,
      imports: [
        loggerModule(rootLogger),
        // No per-request middleware: an HTTP request's EntityManager comes from the request scope,
        // forked when first used (contextEntityManager); workers use @CreateRequestContext.
        MikroOrmModule.forRoot({ ...ormConfig(databaseUrl, orm), context: contextEntityManager, registerRequestContext: false }),
        RedisModule,
        BullModule.forRoot({ connection: { url: config.redisUrl }, prefix: config.queuePrefix }),
        BullModule.registerQueue({ name: PERIODIC_QUEUE }, { name: OUTBOX_QUEUE }),
        CqrsModule.forRoot(),
        DiscoveryModule,
      ],
      controllers: role === 'worker' ? [] : [DocsController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: ROOT_LOGGER, useValue: rootLogger },
        { provide: KeyRing, useValue: keyRing },
        { provide: SEALED_TABLES, useValue: options.sealedTables },
        { provide: PROCESS_ROLE, useValue: role },
        { provide: SpaIndex, useValue: new SpaIndex(config.staticDir) },
        { provide: Stopping, useValue: new Stopping() },
        { provide: APP_FILTER, useClass: GlobalExceptionFilter },
        MigrationRunner,
        AwaitingEventPublisher,
        OutboxService,
        OneTimeStore,
        OpenApiService,
        RateLimitService,
        ...(runsWorkers(role) ? [WorkerHeartbeatService, PeriodicScheduler, PeriodicProcessor, OutboxProcessor, OutboxRelaySweeper] : []),
      ],
      exports: [
        APP_CONFIG,
        ROOT_LOGGER,
        SEALED_TABLES,
        AwaitingEventPublisher,
        OutboxService,
        KeyRing,
        OneTimeStore,
        PROCESS_ROLE,
        SpaIndex,
        Stopping,
        OpenApiService,
        RateLimitService,
        RedisModule,
        BullModule,
      ],
    };
  }
}
