import { EntityName, type Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Seat counters of one edition. Rows are locked (SELECT … FOR UPDATE) to reserve and confirm. */
@Entity({ tableName: 'edition_stock' })
export class EditionStock {
  /** The table's name for the typed query builder (em.getKysely): types only, never set. */
  declare [EntityName]?: 'edition_stock';

  @PrimaryKey({ type: 'varchar', length: 20 })
  edition: string;

  /** Sale order: the edition on sale is the first with seats left. */
  @Property({ type: 'smallint' })
  position: number;

  @Property({ type: 'integer' })
  seatLimit: number;

  @Property({ type: 'integer' })
  reserved: Opt<number> = 0;

  @Property({ type: 'integer' })
  confirmed: Opt<number> = 0;
}
