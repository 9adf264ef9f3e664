import { Session } from '../../modules/auth/entities/session.entity.js';
import { LoginProvider } from '../../modules/auth/entities/login-provider.entity.js';
import { UserIdentity } from '../../modules/auth/entities/user-identity.entity.js';
import { BetaInvite } from '../../modules/auth/entities/beta-invite.entity.js';
import { ExternalService } from '../../modules/external-services/entities/external-service.entity.js';
import { Connection } from '../../modules/external-services/entities/connection.entity.js';
import { UserCredential } from '../../modules/external-services/entities/user-credential.entity.js';
import { OAuthClient } from '../../modules/oauth-server/entities/oauth-client.entity.js';
import { OAuthCode } from '../../modules/oauth-server/entities/oauth-code.entity.js';
import { OAuthGrant } from '../../modules/oauth-server/entities/oauth-grant.entity.js';
import { OAuthToken } from '../../modules/oauth-server/entities/oauth-token.entity.js';
import { OAuthSigningKey } from '../../modules/oauth-server/entities/signing-key.entity.js';
import { User } from '../../modules/users/entities/user.entity.js';
import { EditionStock } from '../../modules/billing/entities/edition-stock.entity.js';
import { Membership } from '../../modules/billing/entities/membership.entity.js';
import { Reservation } from '../../modules/billing/entities/reservation.entity.js';
import { StripeEvent } from '../../modules/billing/entities/stripe-event.entity.js';
import { ContactMessage } from '../../modules/contact/entities/contact-message.entity.js';
import { AuditEvent } from '../../modules/audit/entities/audit-event.entity.js';
import { DataExport } from '../../modules/data-rights/entities/data-export.entity.js';
import { BaseEntity } from './base.entity.js';

/** Every entity, listed explicitly: no folder scanning, so the build output is all that runs. */
export const ENTITIES = [
  BaseEntity,
  User,
  UserIdentity,
  Session,
  LoginProvider,
  BetaInvite,
  ExternalService,
  Connection,
  UserCredential,
  OAuthClient,
  OAuthGrant,
  OAuthCode,
  OAuthToken,
  OAuthSigningKey,
  EditionStock,
  Reservation,
  Membership,
  StripeEvent,
  ContactMessage,
  AuditEvent,
  DataExport,
];
