/**
 * The one place the bench reaches into the wiring (the runtime modules `intel start` runs): the
 * bench-only child processes (bench/embedded-child.ts, bench/mint-keys.ts) and the Kafka publisher
 * import from here, so a move of these modules is fixed in this file alone.
 */
export { loadConfig } from '../infra/config.ts';
export { createLogger, createServices } from '../runtime/services.ts';
export type { Services } from '../runtime/services.ts';
export { startEngine } from '../runtime/engine.ts';
export { startApi } from '../runtime/api.ts';
export { createKeyService } from '../api/keys.ts';
export { publishEvents } from '../ingest/publisher.ts';
export { createKafkaLog } from '../infra/log/kafka.ts';
