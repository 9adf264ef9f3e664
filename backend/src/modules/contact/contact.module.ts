import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { runsWorkers, type ProcessRole } from '../../core/queue/process-role.js';
import { ContactDeliveryService } from './contact-delivery.service.js';
import { ContactMailQueue } from './contact-mail.queue.js';
import { ContactMailer } from './contact-mailer.js';
import { ContactController } from './contact.controller.js';
import { ContactService } from './contact.service.js';
import { CONTACT_ADMIN_HANDLERS } from './handlers/admin.handlers.js';
import { CONTACT_WORKER_HANDLERS } from './handlers/delivery.handlers.js';
import { ContactErasureHandler } from './handlers/erasure.handler.js';
import { CONTACT_WEB_HANDLERS } from './handlers/messages.handlers.js';
import { ContactPersonalDataHandler } from './handlers/personal-data.handler.js';
import { CONTACT_MAIL_QUEUE } from './jobs/contact-mail.job.js';
import { ContactMailProcessor } from './jobs/contact-mail.processor.js';
import { ContactSweeper } from './jobs/contact-sweeper.service.js';
import { ReconnectNoticeHandler } from './handlers/reconnect-notice.handler.js';
import { ReconnectNotices } from './reconnect-notices.service.js';

/**
 * The contact page's messages: web roles accept and list them, worker roles mail them
 * (and sweep up what was stored but never queued). Both can queue a delivery.
 */
@Module({})
export class ContactModule {
  static forRoot(role: ProcessRole): DynamicModule {
    const web = role !== 'worker';
    return {
      module: ContactModule,
      imports: [BullModule.registerQueue({ name: CONTACT_MAIL_QUEUE })],
      controllers: web ? [ContactController] : [],
      providers: [
        ContactMailQueue,
        // Durable events are delivered by whichever process runs the outbox worker.
        ReconnectNotices,
        ReconnectNoticeHandler,
        ContactErasureHandler,
        ContactPersonalDataHandler,
        ...(web ? [ContactService, ...CONTACT_ADMIN_HANDLERS, ...CONTACT_WEB_HANDLERS] : []),
        ...(runsWorkers(role) ? [ContactMailer, ContactDeliveryService, ...CONTACT_WORKER_HANDLERS, ContactMailProcessor, ContactSweeper] : []),
      ],
    };
  }
}
