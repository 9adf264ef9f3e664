import { Command, Query } from '@nestjs/cqrs';
import type { CreateOAuthClient, OAuthClientView, OAuthClientWithSecret, UpdateOAuthClient } from '@life/contracts';

// Client applications (admin panel, CLI). A secret appears only in the answer that makes it.

export class ListOAuthClientsQuery extends Query<OAuthClientView[]> {}

export class CreateOAuthClientCommand extends Command<OAuthClientWithSecret> {
  constructor(
    readonly input: CreateOAuthClient,
    readonly ownerId: string | null,
  ) {
    super();
  }
}

export class UpdateOAuthClientCommand extends Command<OAuthClientView> {
  constructor(
    readonly id: string,
    readonly input: UpdateOAuthClient,
  ) {
    super();
  }
}

export class RotateOAuthClientSecretCommand extends Command<OAuthClientWithSecret> {
  constructor(readonly id: string) {
    super();
  }
}

export class DeleteOAuthClientCommand extends Command<void> {
  constructor(readonly id: string) {
    super();
  }
}
