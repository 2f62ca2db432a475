import type { Config } from '../../infra/config.ts';
import type { Store } from '../../infra/store/types.ts';
import type { Writer } from '../../engine/writer/index.ts';
import type { KeyService } from '../keys.ts';
import type { Meter } from '../metering.ts';
import type { Replica } from '../replica.ts';

/** What the routes need, passed in explicitly. */
export interface RouteDeps {
  replica: Replica;
  store: Store;
  writer: Writer;
  config: Config;
  meter: Meter;
  keys: KeyService;
}
