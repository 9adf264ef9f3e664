import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DataExport, DataExportDocument } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { RateLimitService, type RateLimit } from '../../core/rate-limit/rate-limit.service.js';
import { EventBus, QueryBus } from '@nestjs/cqrs';
import { AwaitingEventPublisher } from '../../core/events/awaiting-event-publisher.js';
import { PersonQuery } from '../users/public/queries.js';
import type { ExportOutcome } from './public/commands.js';
import type { ExportFile } from './public/queries.js';
import { CollectingPersonalDataEvent, DataExportRequestedEvent } from './public/events.js';
import { DataRightsError, DataRightsErrorCode } from './data-rights.errors.js';
import { DataRightsQueues } from './data-rights.queues.js';
import { PersonalDataRepository, toDataExportView } from './personal-data.repository.js';
import { msg } from '../../core/i18n/messages.js';

/** New export requests per person per hour: each one reads every table about them. */
const EXPORTS_PER_HOUR = 10;

/** 'Descargar mis datos': the request (web), the build (worker) and the download (web). */
@Injectable()
export class DataExportService {
  private readonly logger = new Logger('DataExport');
  private readonly perUser: RateLimit;

  constructor(
    private readonly data: PersonalDataRepository,
    private readonly queues: DataRightsQueues,
    private readonly events: EventBus,
    private readonly strictEvents: AwaitingEventPublisher,
    private readonly queries: QueryBus,
    rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.perUser = rateLimits.create({ name: 'data-export', points: EXPORTS_PER_HOUR, durationSeconds: 3600 });
  }

  /**
   * Starts an export, or answers the one already on its way: double clicks, and requests at the
   * same moment on different processes, make one file (a partial unique index decides, decision
   * 0030). Only the request that makes the export counts against the hourly limit.
   */
  async request(userId: string): Promise<DataExport> {
    // The open export can finish between a lost insert and the read that follows: then try again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const open = await this.data.openExportOf(userId);
      if (open) {
        await this.queues.enqueueExport(open.id);
        return toDataExportView(open);
      }
      const created = await this.data.createExportOnce(userId, () => this.perUser.consume(userId));
      if (created) {
        await this.events.publish(new DataExportRequestedEvent(created.id));
        await this.queues.enqueueExport(created.id);
        return toDataExportView(created);
      }
    }
    // Each round, another request made an export that finished before it could be read: the newest one is the answer.
    const latest = await this.data.latestExportOf(userId);
    if (!latest) throw new DataRightsError(DataRightsErrorCode.ExportNotFound, msg('dataRights.exportNotFound'));
    return toDataExportView(latest);
  }

  /** Only its owner sees it: anyone else gets the same 404 as for an id that never existed. */
  async status(userId: string, exportId: string): Promise<DataExport> {
    const row = await this.data.exportOf(userId, exportId);
    if (!row) throw new DataRightsError(DataRightsErrorCode.ExportNotFound, msg('dataRights.exportNotFound'));
    return toDataExportView(row);
  }

  async file(userId: string, exportId: string): Promise<ExportFile> {
    const row = await this.data.exportOf(userId, exportId);
    if (!row) throw new DataRightsError(DataRightsErrorCode.ExportNotFound, msg('dataRights.exportNotFound'));
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw new DataRightsError(DataRightsErrorCode.ExportExpired, msg('dataRights.exportExpired'));
    if (row.status !== 'ready') throw new DataRightsError(DataRightsErrorCode.ExportNotReady, msg('dataRights.exportNotReady'));
    const content = await this.data.exportContent(userId, exportId);
    if (content === null) throw new DataRightsError(DataRightsErrorCode.ExportNotFound, msg('dataRights.exportNotFound'));
    return { filename: `life-datos-${row.created_at.toISOString().slice(0, 10)}.json`, content };
  }

  /** Worker: builds the file. Throws on failure so BullMQ retries; the last failure marks the row failed. */
  async build(exportId: string, finalAttempt: boolean): Promise<ExportOutcome> {
    const claimed = await this.data.claimExport(exportId);
    if (!claimed) return 'missing';
    try {
      const document = await this.document(claimed.userId);
      // The account went away meanwhile (erased): its exports went with it.
      if (!document) return 'missing';
      const finished = await this.data.finishExport(exportId, `${JSON.stringify(document, null, 2)}\n`, this.config.dataRights.exportTtlHours);
      return finished ? 'ready' : 'missing';
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`Export ${exportId} failed${finalAttempt ? ' for good' : ''}: ${reason}`);
      await this.data.failExport(exportId, reason, finalAttempt).catch(() => undefined);
      throw error;
    }
  }

  /** Sweeper: deletes expired files and queues again exports whose job was lost. */
  async sweep(): Promise<number> {
    let count = await this.data.deleteExpiredExports(this.config.dataRights.exportTtlHours);
    for (const id of await this.data.stalledExportIds(this.config.dataRights.sweepMs)) count += (await this.queues.enqueueExport(id)) ? 1 : 0;
    return count;
  }

  /**
   * Everything Life holds about the person, or null when the account is gone: each module adds
   * its own part (CollectingPersonalDataEvent), this module its own list of exports.
   */
  async document(userId: string): Promise<DataExportDocument | null> {
    const person = await this.queries.execute(new PersonQuery(userId));
    if (!person) return null;
    const collecting = new CollectingPersonalDataEvent(userId, person.email);
    await this.strictEvents.publishStrict(collecting);
    const parts = collecting.parts;
    if (!parts.profile) return null;
    return {
      format: 'life-data-export',
      version: 1,
      generated_at: new Date().toISOString(),
      profile: parts.profile,
      sign_in_identities: parts.sign_in_identities ?? [],
      sessions: parts.sessions ?? [],
      connections: parts.connections ?? [],
      service_credentials: parts.service_credentials ?? [],
      app_grants: parts.app_grants ?? [],
      app_tokens: parts.app_tokens ?? [],
      apps_owned: parts.apps_owned ?? [],
      membership: parts.membership ?? null,
      checkouts: parts.checkouts ?? [],
      beta_invitation: parts.beta_invitation ?? null,
      contact_messages: parts.contact_messages ?? [],
      reconnect_notices: parts.reconnect_notices ?? [],
      your_day: parts.your_day ?? { time_zone: null, language: null, views: [] },
      activity: parts.activity ?? [],
      data_exports: await this.data.exportsListOf(userId),
    };
  }
}
