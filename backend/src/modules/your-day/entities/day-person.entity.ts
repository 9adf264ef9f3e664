import { randomUUID } from 'node:crypto';
import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, OneToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { User } from '../../users/entities/user.entity.js';

/** What the workers need to know of a person to fetch their day: the time zone and language their screens last used. */
@Entity({ tableName: 'day_people' })
export class DayPerson {
  declare [EntityName]?: 'day_people';

  @PrimaryKey({ type: 'uuid' })
  id: Opt<string> = randomUUID();

  @OneToOne(() => User, { owner: true, deleteRule: 'cascade', unique: true })
  user: User;

  /** IANA zone (checked against the runtime's list). */
  @Property({ type: 'varchar', length: 64 })
  timeZone: string;

  @Property({ type: 'varchar', length: 8 })
  language: string;

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}
