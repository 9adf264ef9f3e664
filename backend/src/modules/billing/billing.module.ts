import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { runsWorkers, type ProcessRole } from '../../core/queue/process-role.js';
import { BillingEventsService } from './billing-events.service.js';
import { BillingPrivacyService } from './billing-privacy.service.js';
import { BILLING_WEB_HANDLERS } from './handlers/billing.handlers.js';
import { BillingErasureHandler } from './handlers/erasure.handler.js';
import { BillingPersonalDataHandler } from './handlers/personal-data.handler.js';
import { BILLING_SALES_HANDLERS } from './sales/sales.handlers.js';
import { BILLING_WORKER_HANDLERS } from './handlers/stripe-events.handlers.js';
import { BillingController } from './billing.controller.js';
import { BillingService } from './billing.service.js';
import { BillingSweeper } from './jobs/billing-sweeper.service.js';
import { STRIPE_EVENTS_QUEUE } from './jobs/stripe-events.job.js';
import { StripeEventsProcessor } from './jobs/stripe-events.processor.js';
import { StripeGateway } from './stripe.client.js';

/** Editions, seats, Stripe Checkout and the webhook inbox. Web roles serve HTTP; worker roles apply events. */
@Module({})
export class BillingModule {
  static forRoot(role: ProcessRole): DynamicModule {
    return {
      module: BillingModule,
      imports: [BullModule.registerQueue({ name: STRIPE_EVENTS_QUEUE })],
      controllers: role === 'worker' ? [] : [BillingController],
      providers: [
        StripeGateway,
        BillingService,
        BillingEventsService,
        BillingPrivacyService,
        BillingErasureHandler,
        BillingPersonalDataHandler,
        ...(role === 'worker' ? [] : [...BILLING_WEB_HANDLERS, ...BILLING_SALES_HANDLERS]),
        ...(runsWorkers(role) ? [...BILLING_WORKER_HANDLERS, StripeEventsProcessor, BillingSweeper] : []),
      ],
      exports: [BillingService, BillingPrivacyService],
    };
  }
}
