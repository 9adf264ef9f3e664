import { createHash } from 'node:crypto';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { AccountErasedEvent, DataExportRequestedEvent, ErasureRequestedEvent } from '../../data-rights/public/events.js';
import { SignedInEvent, SignInRefusedEvent } from '../../auth/public/events.js';
import {
  CodeReplayDetectedEvent,
  ConsentDeniedEvent,
  ConsentGivenEvent,
  AppAccessRevokedEvent,
  GrantRevokedEvent,
  RefreshReuseDetectedEvent,
} from '../../oauth-server/public/events.js';
import { BillingPaymentChangedEvent, MembershipStartedEvent } from '../../billing/public/events.js';
import { ConnectionNeedsReconnectEvent } from '../../external-services/public/events.js';
import { AuditService } from '../audit.service.js';

type Recorded =
  | SignedInEvent
  | SignInRefusedEvent
  | GrantRevokedEvent
  | AppAccessRevokedEvent
  | ConsentGivenEvent
  | ConsentDeniedEvent
  | CodeReplayDetectedEvent
  | RefreshReuseDetectedEvent
  | DataExportRequestedEvent
  | ErasureRequestedEvent
  | AccountErasedEvent
  | ConnectionNeedsReconnectEvent
  | MembershipStartedEvent
  | BillingPaymentChangedEvent;

/** The same id every time for one account, so a retried erasure records 'account.erased' once. */
function erasedRecordId(userId: string): string {
  const hex = createHash('sha256').update(`account.erased:${userId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The audit module listens to the other modules' security events and records them; the modules
 * no longer call the audit log. Request details (IP, browser, actor) come from the request the
 * event was published in.
 */
@EventsHandler(
  SignedInEvent,
  SignInRefusedEvent,
  GrantRevokedEvent,
  AppAccessRevokedEvent,
  ConsentGivenEvent,
  ConsentDeniedEvent,
  CodeReplayDetectedEvent,
  RefreshReuseDetectedEvent,
  DataExportRequestedEvent,
  ErasureRequestedEvent,
  AccountErasedEvent,
  ConnectionNeedsReconnectEvent,
  MembershipStartedEvent,
  BillingPaymentChangedEvent,
)
export class SecurityEventsAuditor implements IEventHandler<Recorded> {
  constructor(private readonly audit: AuditService) {}

  async handle(event: Recorded): Promise<void> {
    if (event instanceof SignedInEvent) {
      return this.audit.record({
        action: 'auth.sign_in',
        actor: { id: event.userId, label: event.email },
        target: { type: 'login_provider', id: event.provider },
      });
    }
    if (event instanceof SignInRefusedEvent) {
      return this.audit.record({
        action: 'auth.sign_in_refused',
        actor: { id: null, label: null },
        target: { type: 'login_provider', id: event.provider },
        details: { reason: event.reason },
      });
    }
    if (event instanceof GrantRevokedEvent) {
      // The grant row goes with the revocation: the app's id lets the log still name it.
      return this.audit.record({ action: 'oauth.grant_revoked', target: { type: 'oauth_grant', id: event.grantId }, details: { client_id: event.clientId } });
    }
    if (event instanceof AppAccessRevokedEvent) {
      // Decision 0050: a suspension or the developer's erasure revoked everything the app held.
      return this.audit.record({
        action: 'oauth.app_access_revoked',
        target: { type: 'oauth_client', id: event.clientId },
        details: { reason: event.reason, grants: event.grants, pairs: event.tokens },
      });
    }
    if (event instanceof ConsentGivenEvent) {
      return this.audit.record({
        action: 'oauth.consent_given',
        target: { type: 'oauth_client', id: event.clientId },
        details: { scope: event.scopes.join(' '), grant_id: event.grantId },
      });
    }
    if (event instanceof ConsentDeniedEvent) {
      return this.audit.record({
        action: 'oauth.consent_denied',
        target: { type: 'oauth_client', id: event.clientId },
        details: { scope: event.scopes.join(' ') },
      });
    }
    if (event instanceof CodeReplayDetectedEvent) {
      return this.audit.record({
        action: 'oauth.code_replay_detected',
        actor: { id: null, label: null },
        target: { type: 'oauth_code', id: event.codeId },
        details: { revoked_count: event.revokedCount },
      });
    }
    if (event instanceof RefreshReuseDetectedEvent) {
      return this.audit.record({
        action: 'oauth.refresh_reuse_detected',
        actor: { id: null, label: null },
        target: { type: 'token_family', id: event.familyId },
        details: { revoked_count: event.revokedCount },
      });
    }
    if (event instanceof DataExportRequestedEvent) {
      return this.audit.record({ action: 'account.data_export_requested', target: { type: 'data_export', id: event.exportId } });
    }
    // Durable events, delivered at least once by a worker (no request): the event's own id keeps one record.
    if (event instanceof ConnectionNeedsReconnectEvent) {
      return this.audit.record({
        id: event.eventId,
        action: 'connection.needs_reconnect',
        // Noticed by the system (the provider refused the refresh), not done by the person.
        actor: { id: null, label: null },
        target: { type: 'service_connection', id: event.connectionId },
        ip: null,
        userAgent: null,
        details: { service: event.serviceName },
      });
    }
    if (event instanceof MembershipStartedEvent) {
      return this.audit.record({
        id: event.eventId,
        action: 'billing.membership_started',
        actor: { id: event.userId, label: null },
        target: { type: 'membership', id: event.membershipId },
        ip: null,
        userAgent: null,
        details: { edition: event.edition, member_number: event.memberNumber },
      });
    }
    if (event instanceof BillingPaymentChangedEvent) {
      return this.audit.record({
        id: event.eventId,
        action: `billing.${event.change}`,
        // Noticed through Stripe (a refund, a dispute, a payment settling), not done by the person.
        actor: { id: null, label: null },
        target: { type: event.targetType, id: event.targetId },
        ip: null,
        userAgent: null,
        details: { ...event.details, ...(event.userId ? { user_id: event.userId } : {}) },
      });
    }
    if (event instanceof ErasureRequestedEvent) {
      return this.audit.record({ action: 'account.erasure_requested', target: { type: 'user', id: event.userId } });
    }
    await this.audit.record({
      id: erasedRecordId(event.userId),
      action: 'account.erased',
      actor: { id: event.userId, label: null },
      target: { type: 'user', id: event.userId },
      ip: null,
      userAgent: null,
      details: { ...event.report },
    });
  }
}
